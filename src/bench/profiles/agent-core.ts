/**
 * The scripted agent's core: what it was listed and may use, its calls to the server (each an Effect over the
 * SDK client: interrupting it aborts the request, and the server sees the cancel), the records of every call
 * and step, the profile switches, and what the answers showed it (read by the locate / act helpers, agent.ts).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect } from "effect"
import { imageCost } from "./accounting.js"
import {
  type AgentEffect,
  CallFailed,
  type CallOutcome,
  type GiveUp,
  giveUp,
  PROFILE_SWITCH,
  principalSteps,
  READ_ONLY,
  type StepRecord,
  switchHint
} from "./agent-records.js"
import { type Node, parseNodes } from "./nodes.js"
import { type ListedTool, rankTools } from "./selection.js"
import { type CallRecord, type ContentItem, contentText, manifestBpe, requestBpe, responseBpe } from "./scoring.js"

/** A listed tool with its description and schema: what a deferring host indexes and searches. */
export type DescribedTool = ListedTool & { readonly inputSchema?: unknown }

export interface AgentOptions {
  readonly client: Client
  /** The tools the variant lists (names, or as tools/list gave them). */
  readonly tools: ReadonlyArray<string | DescribedTool>
  /** Each request's own limit (the SDK's timeout: it cancels the request at the server). */
  readonly perCallTimeoutMs: number
  /** The user's words (the task's statement): what the agent may wait for without having seen it. */
  readonly statement?: string
  /** The server's instructions (they say whether eval is on: "eval off"). */
  readonly instructions?: string
}

/** What the answers have shown the agent; the core updates it as each answer arrives. */
export interface Sight {
  /**
   * What the agent sees now: the elements of the answers since its last action (a snapshot, finds, the
   * action's own answer, which lists the elements it changed with fresh refs). An action starts it anew.
   */
  view: Array<Node>
  /** Every (role, name) an answer of this task has shown: the names the agent may ask electron_find for. */
  readonly known: Array<{ readonly role: string; readonly name: string }>
  /** Answers since the last action, verbatim (what the agent has just read). */
  recent: string
  /** The status line's text the agent last saw in the active window (what "until the app reacts" waits to change). */
  lastStatus: string | undefined
  /** The one-time notes answers carried (`(clipboard: …)`, `(native dialog: …)`), oldest first: an agent remembers them. */
  readonly notes: Array<string>
}

type StepInfo = { readonly step: number; readonly intent: string; readonly locate: boolean; readonly profile?: string }

export const makeAgentCore = (options: AgentOptions) => {
  const { client, perCallTimeoutMs } = options
  const instructions = options.instructions ?? ""
  const calls: Array<CallRecord> = []
  const fallbacks = new Set<string>()
  /** The profile switches made: "tool -> profile". */
  const switches: Array<string> = []
  /** Each tools/list read after a switch, as listed (the on-demand accounting counts their names again). */
  const relisted: Array<ReadonlyArray<{ readonly name: string }>> = []
  /** Manifest BPE of every tools/list read after a profile switch (the first list is counted by the run). */
  let relistedBpe = 0
  const sight: Sight = { view: [], known: [], recent: "", lastStatus: undefined, notes: [] }
  let described: ReadonlyArray<DescribedTool> = options.tools.map((t) => (typeof t === "string" ? { name: t } : t))
  let listed: ReadonlySet<string> = new Set(described.map((t) => t.name))
  /** The current step's intent, in plain words (step), and the calls made under it. */
  let intent: string | undefined
  let stepNo = 0
  const stepOf = new Map<number, StepInfo>()
  /** > 0 while the agent only locates elements for a step (find / snapshot for refs): not the step's own tool. */
  let locating = 0
  let profile: string | undefined
  /** Set once the agent has switched to the largest profile electron_profile offers: nothing more can come. */
  let widened = false

  /** Starts a step: what the user wants done next, in plain words (the selection proxy's query). */
  const step = (next: string): void => {
    intent = next
    stepNo++
  }

  /** Each step's intent with the tool that did it: its first call that is not locating (else its first call). */
  const steps = (): ReadonlyArray<StepRecord> => principalSteps(stepOf, calls)

  /** Runs `effect` as locating elements for the step (its calls are not the step's own tool). */
  const locate = <A>(effect: AgentEffect<A>): AgentEffect<A> =>
    Effect.acquireUseRelease(
      Effect.sync(() => locating++),
      () => effect,
      () => Effect.sync(() => locating--)
    )

  /**
   * Whether the agent can use a tool: it is listed, or electron_profile is listed and the agent has not yet
   * switched to the largest profile it offers (a larger profile may have the verb: the agent knows no catalog,
   * only what it was listed). Eval tools come from the operator's flags, not a profile: when the instructions
   * say "eval off", no switch brings them.
   */
  const has = (tool: string): boolean => {
    if (listed.has(tool)) return true
    if (!listed.has(PROFILE_SWITCH) || widened) return false
    return !(tool.startsWith("electron_eval_") && /\beval off\b/.test(instructions))
  }

  /** The first listed tool of a list of alternatives; gives up naming the first when none is listed. */
  const pick = (...tools: ReadonlyArray<string>): Effect.Effect<string, GiveUp> =>
    Effect.suspend(() => {
      const found = tools.find((t) => has(t))
      return found === undefined ? Effect.fail(giveUp("no tool for this step", tools[0])) : Effect.succeed(found)
    })

  /** The profiles electron_profile's schema offers (its enum), in the order it lists them. */
  const offeredProfiles = (): ReadonlyArray<string> => {
    const schema = described.find((t) => t.name === PROFILE_SWITCH)?.inputSchema as { properties?: { profile?: { enum?: ReadonlyArray<string> } } } | undefined
    return schema?.properties?.profile?.enum ?? []
  }

  /** Reads tools/list again (after a switch), counting what it costs. */
  const relist: AgentEffect<void> = Effect.gen(function* () {
    const tools: Array<DescribedTool> = []
    let cursor: string | undefined
    do {
      const params = cursor === undefined ? {} : { cursor }
      const page = yield* Effect.tryPromise({
        try: (signal) => client.listTools(params, { signal, timeout: perCallTimeoutMs }),
        catch: (cause) => new CallFailed({ tool: "tools/list", cause })
      })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    relistedBpe += manifestBpe(tools)
    relisted.push(tools)
    described = tools
    listed = new Set(tools.map((t) => t.name))
  })

  /** Switches to a profile with electron_profile and reads the new list. */
  const switchProfile = (tool: string, to: string): AgentEffect<void> =>
    Effect.gen(function* () {
      yield* must(PROFILE_SWITCH, { profile: to })
      profile = to
      switches.push(`${tool} -> ${to}`)
      yield* relist
    })

  /**
   * As a deferring host's model would without a catalog: the step's verb is not listed, so switch to the
   * largest profile electron_profile offers (the last of its list), read the new list, and search it (BM25 over
   * names and descriptions) for the step's intent; the tool is taken only if the search shows it in its first 5.
   */
  const widenFor = (tool: string): AgentEffect<void> =>
    Effect.gen(function* () {
      const largest = offeredProfiles().at(-1)
      widened = true
      if (largest === undefined) return yield* giveUp(`${tool} is not listed and electron_profile offers no profile`, tool)
      yield* switchProfile(tool, largest)
      if (!listed.has(tool)) return yield* giveUp(`${tool} is not listed, even in ${largest}`, tool)
      const query = intent ?? tool.replace(/^electron_/, "").replace(/_/g, " ")
      const found = rankTools(query, { tools: described, instructions: "" }).slice(0, 5)
      if (!found.includes(tool)) return yield* giveUp(`after switching to ${largest}, a search for "${query}" shows ${found.join(", ")}, not ${tool}`, tool)
    })

  /** Reads an answer as the agent does: what it now sees, and the names it now knows. */
  const observe = (tool: string, args: Record<string, unknown>, text: string): void => {
    const nodes = parseNodes(text)
    for (const line of text.split("\n")) if (/^\((clipboard|native dialog): /.test(line)) sight.notes.push(line)
    if (tool === "electron_select_window" || tool === "electron_launch" || tool === "electron_wait_for_window") sight.lastStatus = undefined
    const status = nodes.filter((n) => n.role === "status" && n.text !== "").at(-1)
    if (status !== undefined) sight.lastStatus = status.text
    for (const n of nodes)
      if (n.name !== "" && !sight.known.some((k) => k.role === n.role && k.name === n.name)) sight.known.push({ role: n.role, name: n.name })
    const looking = tool === "electron_find" || (tool === "electron_snapshot" && args.target !== undefined)
    if (tool === "electron_snapshot" && args.target === undefined) {
      sight.view = [...nodes]
      sight.recent = text
    } else if (looking || READ_ONLY.has(tool)) {
      sight.view.push(...nodes)
      sight.recent += `\n${text}`
    } else {
      // An action (or a wait, a window switch): the page may have changed; what it shows now is what this answer says.
      sight.view = [...nodes]
      sight.recent = text
    }
  }

  const callOnce = (tool: string, args: Record<string, unknown>, options: { readonly retry?: boolean }): AgentEffect<CallOutcome> =>
    Effect.gen(function* () {
      if (!has(tool)) return yield* giveUp(`${tool} is not listed`, tool)
      if (!listed.has(tool)) yield* widenFor(tool)
      const started = Date.now()
      // The signal is the fiber's: interrupting this call (the task's timeout) aborts the request.
      const result = (yield* Effect.tryPromise({
        try: (signal) => client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: perCallTimeoutMs }),
        catch: (cause) => new CallFailed({ tool, cause })
      })) as { content?: ReadonlyArray<ContentItem>; isError?: boolean }
      const content = result.content ?? []
      const isError = result.isError === true
      if (intent !== undefined) {
        const locate = locating > 0 || tool === PROFILE_SWITCH || options.retry === true
        stepOf.set(calls.length, { step: stepNo, intent, locate, ...(profile !== undefined ? { profile } : {}) })
      }
      const text = contentText(content)
      calls.push({
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
      observe(tool, args, text)
      // BENCH_TRACE=1 prints every call and answer to stderr (for writing or debugging a task).
      if (process.env.BENCH_TRACE === "1") process.stderr.write(`[trace] ${tool} ${JSON.stringify(args)}${isError ? " ERROR" : ""}\n${text.slice(0, 1500)}\n`)
      return { text, isError }
    })

  /** Calls a listed tool (never an unlisted one: that would be a guess, not a choice). */
  const call = (tool: string, args: Record<string, unknown> = {}, options: { readonly retry?: boolean } = {}): AgentEffect<CallOutcome> =>
    Effect.gen(function* () {
      const out = yield* callOnce(tool, args, options)
      // Outside the profile, with the switch: do what the hint says (electron_profile), then call the tool again.
      const hinted = out.isError ? switchHint(out.text) : undefined
      if (hinted === undefined || !listed.has(PROFILE_SWITCH) || switches.length >= 8) return out
      yield* switchProfile(tool, hinted)
      return yield* callOnce(tool, args, { retry: true })
    })

  /** A call that must succeed, else the agent gives up with the server's answer. */
  const must = (tool: string, args: Record<string, unknown> = {}, options: { readonly retry?: boolean } = {}): AgentEffect<string> =>
    Effect.gen(function* () {
      const out = yield* call(tool, args, options)
      if (out.isError) return yield* giveUp(`${tool} failed: ${out.text.split("\n")[0] ?? ""}`)
      return out.text
    })

  /** The newest note an answer carried that matches `pattern` (its match), if any. */
  const noted = (pattern: RegExp): RegExpExecArray | undefined => {
    for (const note of [...sight.notes].reverse()) {
      const m = pattern.exec(note)
      if (m !== null) return m
    }
    return undefined
  }

  return {
    calls: calls as ReadonlyArray<CallRecord>,
    /** Marks a call as a retry (a repeated look whose answer did not yet show what the agent waits for). */
    flagRetry: (index: number): void => {
      const c = calls[index]
      if (c !== undefined) calls[index] = { ...c, flaggedRetry: true }
    },
    fallbacks,
    switches: switches as ReadonlyArray<string>,
    relisted: relisted as ReadonlyArray<ReadonlyArray<{ readonly name: string }>>,
    relistedManifestBpe: (): number => relistedBpe,
    sight: sight as Readonly<Sight>,
    step,
    steps,
    locate,
    has,
    pick,
    call,
    must,
    noted
  }
}

export type AgentCore = ReturnType<typeof makeAgentCore>
