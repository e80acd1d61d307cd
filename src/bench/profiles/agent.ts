/**
 * The scripted agent: it sees only the tools the variant lists, finds every element from snapshot /
 * find results at run time (role and accessible name, the words a task statement uses), acts with the
 * refs those results give, falls back to eval where the variant allows it, and otherwise gives up
 * naming the tool it missed. Every call is recorded with its request and response BPE.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { imageCost } from "./accounting.js"
import { rankTools, type ListedTool } from "./selection.js"
import { type CallRecord, type ContentItem, contentText, manifestBpe, requestBpe, responseBpe } from "./scoring.js"

export { GiveUp, PROFILE_SWITCH, switchHint, type CallOutcome, type StepRecord } from "./agent-records.js"
import { GiveUp, PROFILE_SWITCH, principalSteps, READ_ONLY, switchHint, type CallOutcome, type StepRecord } from "./agent-records.js"
export { matches, type Node, parseNodes } from "./nodes.js"
import { matches, type Node, parseNodes } from "./nodes.js"

export class Agent {
  readonly calls: Array<CallRecord> = []
  readonly fallbacks = new Set<string>()
  /** Manifest BPE of every tools/list read after a profile switch (the first list is counted by the run). */
  relistedManifestBpe = 0
  /** The profile switches made: "tool -> profile". */
  readonly switches: Array<string> = []
  /** Each tools/list read after a switch, as listed (the on-demand accounting counts their names again). */
  readonly relisted: Array<ReadonlyArray<{ readonly name: string }>> = []
  /**
   * What the agent sees now: the elements of the answers since its last action (a snapshot, finds, the
   * action's own answer, which lists the elements it changed with fresh refs). An action starts it anew.
   */
  private view: Array<Node> = []
  /** Every (role, name) an answer of this task has shown: the names the agent may ask electron_find for. */
  private readonly known: Array<{ readonly role: string; readonly name: string }> = []
  private listed: ReadonlySet<string>
  /** The current step's intent, in plain words (agent.step), and the calls made under it. */
  private intent: string | undefined
  private stepNo = 0
  private readonly stepOf = new Map<number, { readonly step: number; readonly intent: string; readonly locate: boolean; readonly profile?: string }>()
  /** > 0 while the agent only locates elements for a step (find / snapshot for refs): not the step's own tool. */
  private locating = 0
  private profile: string | undefined
  /** The listed tools with their descriptions and schemas: what a deferring host indexes and searches. */
  private described: ReadonlyArray<ListedTool & { readonly inputSchema?: unknown }>
  /** Set once the agent has switched to the largest profile electron_profile offers: nothing more can come. */
  private widened = false

  /** The status line's text the agent last saw in the active window (what "until the app reacts" waits to change). */
  private lastStatus: string | undefined

  constructor(
    private readonly client: Client,
    tools: ReadonlyArray<string | (ListedTool & { readonly inputSchema?: unknown })>,
    private readonly signal: AbortSignal,
    private readonly perCallTimeoutMs: number,
    /** The user's words (the task's statement): what the agent may wait for without having seen it. */
    private readonly statement = "",
    /** The server's instructions (they say whether eval is on: "eval off"). */
    private readonly instructions = ""
  ) {
    this.described = tools.map((t) => (typeof t === "string" ? { name: t } : t))
    this.listed = new Set(this.described.map((t) => t.name))
  }

  /** Starts a step: what the user wants done next, in plain words (the selection proxy's query). */
  step(intent: string): void {
    this.intent = intent
    this.stepNo++
  }

  /** Each step's intent with the tool that did it: its first call that is not locating (else its first call). */
  steps(): ReadonlyArray<StepRecord> {
    return principalSteps(this.stepOf, this.calls)
  }

  private async locate<A>(f: () => Promise<A>): Promise<A> {
    this.locating++
    try {
      return await f()
    } finally {
      this.locating--
    }
  }

  /**
   * Whether the agent can use a tool: it is listed, or electron_profile is listed and the agent has not yet
   * switched to the largest profile it offers (a larger profile may have the verb: the agent knows no catalog,
   * only what it was listed). Eval tools come from the operator's flags, not a profile: when the instructions
   * say "eval off", no switch brings them.
   */
  has(tool: string): boolean {
    if (this.listed.has(tool)) return true
    if (!this.listed.has(PROFILE_SWITCH) || this.widened) return false
    return !(tool.startsWith("electron_eval_") && /\beval off\b/.test(this.instructions))
  }

  /** The profiles electron_profile's schema offers (its enum), in the order it lists them. */
  private offeredProfiles(): ReadonlyArray<string> {
    const schema = this.described.find((t) => t.name === PROFILE_SWITCH)?.inputSchema as
      | { properties?: { profile?: { enum?: ReadonlyArray<string> } } }
      | undefined
    return schema?.properties?.profile?.enum ?? []
  }

  /**
   * As a deferring host's model would without a catalog: the step's verb is not listed, so switch to the
   * largest profile electron_profile offers (the last of its list), read the new list, and search it (BM25 over
   * names and descriptions) for the step's intent; the tool is taken only if the search shows it in its first 5.
   */
  private async widenFor(tool: string): Promise<void> {
    const largest = this.offeredProfiles().at(-1)
    this.widened = true
    if (largest === undefined) throw new GiveUp(`${tool} is not listed and electron_profile offers no profile`, tool)
    await this.must(PROFILE_SWITCH, { profile: largest })
    this.profile = largest
    this.switches.push(`${tool} -> ${largest}`)
    await this.relist()
    if (!this.listed.has(tool)) throw new GiveUp(`${tool} is not listed, even in ${largest}`, tool)
    const query = this.intent ?? tool.replace(/^electron_/, "").replace(/_/g, " ")
    const found = rankTools(query, { tools: this.described, instructions: "" }).slice(0, 5)
    if (!found.includes(tool)) throw new GiveUp(`after switching to ${largest}, a search for "${query}" shows ${found.join(", ")}, not ${tool}`, tool)
  }

  /** Reads tools/list again (after a switch), counting what it costs. */
  private async relist(): Promise<void> {
    const tools: Array<ListedTool & { readonly inputSchema?: unknown }> = []
    let cursor: string | undefined
    do {
      const page = await this.client.listTools(cursor === undefined ? {} : { cursor }, { signal: this.signal, timeout: this.perCallTimeoutMs })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    this.relistedManifestBpe += manifestBpe(tools)
    this.relisted.push(tools)
    this.described = tools
    this.listed = new Set(tools.map((t) => t.name))
  }

  /** The first listed tool of a list of alternatives; gives up naming the first when none is listed. */
  pick(...tools: ReadonlyArray<string>): string {
    const found = tools.find((t) => this.has(t))
    if (found === undefined) throw new GiveUp(`no tool for this step`, tools[0])
    return found
  }

  /** Calls a listed tool (never an unlisted one: that would be a guess, not a choice). */
  async call(tool: string, args: Record<string, unknown> = {}, options: { readonly retry?: boolean } = {}): Promise<CallOutcome> {
    const out = await this.callOnce(tool, args, options)
    // Outside the profile, with the switch: do what the hint says (electron_profile), then call the tool again.
    const profile = out.isError ? switchHint(out.text) : undefined
    if (profile === undefined || !this.listed.has(PROFILE_SWITCH) || this.switches.length >= 8) return out
    await this.must(PROFILE_SWITCH, { profile })
    this.profile = profile
    this.switches.push(`${tool} -> ${profile}`)
    await this.relist()
    return this.callOnce(tool, args, { retry: true })
  }

  private async callOnce(tool: string, args: Record<string, unknown>, options: { readonly retry?: boolean }): Promise<CallOutcome> {
    if (this.signal.aborted) throw new GiveUp("the task's time is up")
    if (!this.has(tool)) throw new GiveUp(`${tool} is not listed`, tool)
    if (!this.listed.has(tool)) await this.widenFor(tool)
    const started = Date.now()
    const result = (await this.client.callTool({ name: tool, arguments: args }, undefined, {
      signal: this.signal,
      timeout: this.perCallTimeoutMs
    })) as { content?: ReadonlyArray<ContentItem>; isError?: boolean }
    const content = result.content ?? []
    const isError = result.isError === true
    if (this.intent !== undefined) {
      const locate = this.locating > 0 || tool === PROFILE_SWITCH || options.retry === true
      this.stepOf.set(this.calls.length, { step: this.stepNo, intent: this.intent, locate, ...(this.profile !== undefined ? { profile: this.profile } : {}) })
    }
    const text = contentText(content)
    this.calls.push({
      tool,
      args,
      isError,
      requestBpe: requestBpe(tool, args),
      responseBpe: responseBpe(content),
      imageTokens: imageCost(content),
      answer: text,
      ms: Date.now() - started,
      flaggedRetry: options.retry === true
    })
    this.observe(tool, args, text)
    // BENCH_TRACE=1 prints every call and answer to stderr (for writing or debugging a task).
    if (process.env.BENCH_TRACE === "1") process.stderr.write(`[trace] ${tool} ${JSON.stringify(args)}${isError ? " ERROR" : ""}\n${text.slice(0, 1500)}\n`)
    return { text, isError }
  }

  /** Answers since the last action, verbatim (what the agent has just read). */
  private recent = ""
  /** The one-time notes answers carried (`(clipboard: …)`, `(native dialog: …)`), oldest first: an agent remembers them. */
  private readonly notes: Array<string> = []

  /** The newest note an answer carried that matches `pattern` (its match), if any. */
  noted(pattern: RegExp): RegExpExecArray | undefined {
    for (const note of [...this.notes].reverse()) {
      const m = pattern.exec(note)
      if (m !== null) return m
    }
    return undefined
  }

  /** Reads an answer as the agent does: what it now sees, and the names it now knows. */
  private observe(tool: string, args: Record<string, unknown>, text: string): void {
    const nodes = parseNodes(text)
    for (const line of text.split("\n")) if (/^\((clipboard|native dialog): /.test(line)) this.notes.push(line)
    if (tool === "electron_select_window" || tool === "electron_launch" || tool === "electron_wait_for_window") this.lastStatus = undefined
    const status = nodes.filter((n) => n.role === "status" && n.text !== "").at(-1)
    if (status !== undefined) this.lastStatus = status.text
    for (const n of nodes) if (n.name !== "" && !this.known.some((k) => k.role === n.role && k.name === n.name)) this.known.push({ role: n.role, name: n.name })
    const looking = tool === "electron_find" || (tool === "electron_snapshot" && args.target !== undefined)
    if (tool === "electron_snapshot" && args.target === undefined) {
      this.view = [...nodes]
      this.recent = text
    } else if (looking || READ_ONLY.has(tool)) {
      this.view.push(...nodes)
      this.recent += `\n${text}`
    } else {
      // An action (or a wait, a window switch): the page may have changed; what it shows now is what this answer says.
      this.view = [...nodes]
      this.recent = text
    }
  }

  /** A call that must succeed, else the agent gives up with the server's answer. */
  async must(tool: string, args: Record<string, unknown> = {}, options: { readonly retry?: boolean } = {}): Promise<string> {
    const out = await this.call(tool, args, options)
    if (out.isError) throw new GiveUp(`${tool} failed: ${out.text.split("\n")[0] ?? ""}`)
    return out.text
  }

  /** Uses an eval tool as the fallback for a missing one; gives up naming the missing tool when eval is not listed. */
  async evalFallback(missing: string, target: "renderer" | "main", fn: string, arg?: unknown): Promise<string> {
    const tool = target === "renderer" ? "electron_eval_renderer" : "electron_eval_main"
    if (!this.has(tool)) throw new GiveUp(`${missing} is not listed and eval is not allowed`, missing)
    this.fallbacks.add(`${tool} for ${missing}`)
    return this.must(tool, arg === undefined ? { function: fn } : { function: fn, arg })
  }

  async snapshot(target?: string): Promise<ReadonlyArray<Node>> {
    return parseNodes(await this.must("electron_snapshot", target === undefined ? {} : { target }))
  }

  /**
   * Elements by role (and name) as a step's own look ("see whether …"): electron_find by a role, or by a role
   * and a name an earlier answer showed; else a snapshot, read for them.
   */
  async findAll(role: string, name?: string | RegExp): Promise<ReadonlyArray<Node>> {
    return this.findNodes(role, name)
  }

  private hits(nodes: ReadonlyArray<Node>, role: string, name: string | RegExp | undefined): ReadonlyArray<Node> {
    return nodes.filter((n) => n.role === role && (name === undefined || matches(n.name, name)))
  }

  private async findNodes(role: string, name?: string | RegExp): Promise<ReadonlyArray<Node>> {
    const knownName = name === undefined ? undefined : this.known.find((k) => k.role === role && matches(k.name, name))?.name
    if (this.has("electron_find") && (name === undefined || knownName !== undefined)) {
      const selector = knownName === undefined ? `role=${role}` : `role=${role}[name=${JSON.stringify(knownName)}]`
      const found = this.hits(parseNodes(await this.must("electron_find", { target: selector, limit: 50 })), role, name)
      if (found.length > 0) return found
    }
    return this.hits(await this.snapshot(), role, name)
  }

  /**
   * The ref of the element with this role and name: from what the agent sees now (the answers since its last
   * action), else from electron_find by a name an answer showed, else from a new snapshot.
   */
  async ref(role: string, name: string | RegExp): Promise<string> {
    const seen = this.hits(this.view, role, name).find((n) => n.ref !== undefined)
    if (seen?.ref !== undefined) return seen.ref
    const hit = (await this.locate(() => this.findNodes(role, name))).find((n) => n.ref !== undefined)
    if (hit?.ref === undefined) throw new GiveUp(`no ${role} named ${String(name)} on the page`)
    return hit.ref
  }

  /**
   * After launching: looks at the window and, while it shows a loading line (a status or text that says it is
   * loading, or ends in an ellipsis), waits for that line to go, then looks again.
   */
  async settle(): Promise<ReadonlyArray<Node>> {
    let nodes = await this.snapshot()
    for (let i = 0; i < 3; i++) {
      const loading = nodes.find((n) => /\bloading\b|…$|\.\.\.$/i.test(n.text) && n.text.length < 120)
      if (loading === undefined || !this.has("electron_wait_for")) return nodes
      await this.must("electron_wait_for", { textGone: loading.text, timeoutMs: 15_000 })
      nodes = await this.snapshot()
    }
    return nodes
  }

  /**
   * Calls a tool on elements found by role and name. When the server answers REF_STALE, the agent does
   * what the hint says: takes a snapshot, finds the same elements in it and repeats the step (a retry).
   */
  async act(
    tool: string,
    targets: ReadonlyArray<readonly [string, string | RegExp]>,
    args: (refs: ReadonlyArray<string>) => Record<string, unknown>
  ): Promise<string> {
    const refs = await Promise.all(targets.map(([role, name]) => this.ref(role, name)))
    const out = await this.call(tool, args(refs))
    if (!out.isError) return out.text
    // The action ran but its element was replaced before it could be confirmed: look before repeating it, as
    // the hint says; the task's own check (independent of the server) decides whether it took effect.
    if (/the action was performed/.test(out.text)) {
      await this.locate(() => this.snapshot())
      return out.text
    }
    if (!/REF_STALE/.test(out.text)) throw new GiveUp(`${tool} failed: ${out.text.split("\n")[0] ?? ""}`)
    const nodes = await this.locate(() => this.snapshot())
    const fresh = targets.map(([role, name]) => nodes.find((n) => n.role === role && matches(n.name, name) && n.ref !== undefined)?.ref)
    if (fresh.some((r) => r === undefined)) throw new GiveUp(`${tool}: the elements are not in a new snapshot`)
    return this.must(tool, args(fresh as ReadonlyArray<string>), { retry: true })
  }

  /** A snapshot scoped to the element with this role and name. */
  async snapshotOf(role: string, name: string | RegExp): Promise<ReadonlyArray<Node>> {
    return parseNodes(await this.act("electron_snapshot", [[role, name]], ([target]) => ({ target })))
  }

  async click(role: string, name: string | RegExp): Promise<string> {
    return this.act("electron_click", [[role, name]], ([target]) => ({ target }))
  }

  async fill(role: string, name: string | RegExp, value: string): Promise<void> {
    await this.act("electron_fill", [[role, name]], ([target]) => ({ target, value }))
  }

  /**
   * Waits for the outcome an action should have: nothing when the answers since the action already show
   * the text (a careful agent does not wait for what it has just read); wait_for the text when the user's
   * statement gives it; else, as the agent cannot know the app's words in advance, wait_for the status line
   * it last saw to change (its old text gone), or, with no status line seen, look again until the page shows
   * it. Gives up without wait_for.
   */
  async waitText(text: string, timeoutMs = 10_000): Promise<void> {
    if (this.recent.includes(text)) return
    if (!this.has("electron_wait_for")) throw new GiveUp("cannot wait for the page", "electron_wait_for")
    if (this.statement.includes(text)) {
      await this.must("electron_wait_for", { text, timeoutMs })
      return
    }
    if (this.lastStatus === undefined) {
      // No status line seen and the words not given: look at the page again until the outcome shows there.
      for (let look = 0; look * 300 < timeoutMs && !this.recent.includes(text); look++) {
        await new Promise((resolve) => setTimeout(resolve, 300))
        await this.must("electron_snapshot")
      }
      return
    }
    await this.must("electron_wait_for", { textGone: this.lastStatus, timeoutMs })
  }

  /** Whether the answers since the last action show this text. */
  sees(text: string | RegExp): boolean {
    return typeof text === "string" ? this.recent.includes(text) : text.test(this.recent)
  }

  /** The windows as listed: id and title. */
  async windows(): Promise<ReadonlyArray<{ readonly id: string; readonly title: string; readonly active: boolean }>> {
    const text = await this.must("electron_windows")
    const out: Array<{ id: string; title: string; active: boolean }> = []
    for (const line of text.split("\n")) {
      // Windows (`w1 "Tasks"`) and the surfaces in them (`v1 view in w1 "Sidebar"`, `v2 view "Sidebar"` of a BaseWindow, `fr2 frame in w1, cross-origin "Sign in"`).
      const m = /^(\*?)\s*((?:w|v|g|fr)\d+)\s+(?:(?:view|guest|frame)(?: in w\d+)?(?:, [a-z-]+)?\s+)?"((?:[^"\\]|\\.)*)"/.exec(line.trim())
      if (m !== null) out.push({ id: m[2] ?? "", title: m[3] ?? "", active: m[1] === "*" })
    }
    return out
  }

  /**
   * Waits for a window whose title matches, and makes it active: with electron_wait_for_window only for a title an
   * earlier answer showed (a view that was not listed yet has a title the agent cannot know), else by listing.
   */
  async switchTo(title: string | RegExp, timeoutMs = 10_000): Promise<string> {
    if (this.has("electron_wait_for_window") && typeof title === "string" && this.calls.some((c) => c.answer.includes(`"${title}"`))) {
      await this.must("electron_wait_for_window", { title, select: true, timeoutMs })
      const w = (await this.windows()).find((x) => x.active)
      return w?.id ?? ""
    }
    const deadline = Date.now() + timeoutMs
    let first = true
    for (;;) {
      const w = (await this.windows()).find((x) => matches(x.title, title) || (typeof title === "string" && x.title.includes(title)))
      if (w !== undefined) {
        await this.must("electron_select_window", { window: w.id })
        return w.id
      }
      if (!first) this.calls[this.calls.length - 1] = { ...this.calls[this.calls.length - 1]!, flaggedRetry: true }
      first = false
      if (Date.now() > deadline) throw new GiveUp(`no window titled ${String(title)}`)
      await new Promise((r) => setTimeout(r, 300))
    }
  }
}
