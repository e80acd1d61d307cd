/**
 * The scripted agent: it sees only the tools the variant lists, finds every element from snapshot /
 * find results at run time (role and accessible name, the words a task statement uses), acts with the
 * refs those results give, falls back to eval where the variant allows it, and otherwise gives up
 * naming the tool it missed. Every call is recorded with its request and response BPE (agent-core.ts);
 * here are the helpers that locate elements, act on them, wait and switch windows. Each returns an Effect:
 * giving up is a typed failure (GiveUp), and interrupting a task interrupts the call in flight.
 */
import { Duration, Effect } from "effect"
import { type AgentOptions, makeAgentCore } from "./agent-core.js"
import { type AgentEffect, giveUp } from "./agent-records.js"
import { matches, type Node, parseNodes } from "./nodes.js"

export type { AgentOptions } from "./agent-core.js"
export {
  type AgentEffect,
  type AgentError,
  CallFailed,
  type CallOutcome,
  GiveUp,
  giveUp,
  PROFILE_SWITCH,
  type StepRecord,
  switchHint
} from "./agent-records.js"
export { matches, type Node, parseNodes } from "./nodes.js"

/** A pause between two looks of an agent that looks again (the page has not shown what it waits for yet). */
const pause = Effect.sleep(Duration.millis(300))

export const makeAgent = (options: AgentOptions) => {
  const core = makeAgentCore(options)
  const { sight, has, must, call, locate } = core
  const statement = options.statement ?? ""

  /** Uses an eval tool as the fallback for a missing one; gives up naming the missing tool when eval is not listed. */
  const evalFallback = (missing: string, target: "renderer" | "main", fn: string, arg?: unknown): AgentEffect<string> =>
    Effect.gen(function* () {
      const tool = target === "renderer" ? "electron_eval_renderer" : "electron_eval_main"
      if (!has(tool)) return yield* giveUp(`${missing} is not listed and eval is not allowed`, missing)
      core.fallbacks.add(`${tool} for ${missing}`)
      return yield* must(tool, arg === undefined ? { function: fn } : { function: fn, arg })
    })

  const snapshot = (target?: string): AgentEffect<ReadonlyArray<Node>> =>
    Effect.map(must("electron_snapshot", target === undefined ? {} : { target }), parseNodes)

  const hits = (nodes: ReadonlyArray<Node>, role: string, name: string | RegExp | undefined): ReadonlyArray<Node> =>
    nodes.filter((n) => n.role === role && (name === undefined || matches(n.name, name)))

  const findNodes = (role: string, name?: string | RegExp): AgentEffect<ReadonlyArray<Node>> =>
    Effect.gen(function* () {
      const knownName = name === undefined ? undefined : sight.known.find((k) => k.role === role && matches(k.name, name))?.name
      if (has("electron_find") && (name === undefined || knownName !== undefined)) {
        const selector = knownName === undefined ? `role=${role}` : `role=${role}[name=${JSON.stringify(knownName)}]`
        const found = hits(parseNodes(yield* must("electron_find", { target: selector, limit: 50 })), role, name)
        if (found.length > 0) return found
      }
      return hits(yield* snapshot(), role, name)
    })

  /**
   * Elements by role (and name) as a step's own look ("see whether …"): electron_find by a role, or by a role
   * and a name an earlier answer showed; else a snapshot, read for them.
   */
  const findAll = (role: string, name?: string | RegExp): AgentEffect<ReadonlyArray<Node>> => findNodes(role, name)

  /**
   * The ref of the element with this role and name: from what the agent sees now (the answers since its last
   * action), else from electron_find by a name an answer showed, else from a new snapshot.
   */
  const ref = (role: string, name: string | RegExp): AgentEffect<string> =>
    Effect.gen(function* () {
      const seen = hits(sight.view, role, name).find((n) => n.ref !== undefined)
      if (seen?.ref !== undefined) return seen.ref
      const hit = (yield* locate(findNodes(role, name))).find((n) => n.ref !== undefined)
      if (hit?.ref === undefined) return yield* giveUp(`no ${role} named ${String(name)} on the page`)
      return hit.ref
    })

  /**
   * After launching: looks at the window and, while it shows a loading line (a status or text that says it is
   * loading, or ends in an ellipsis), waits for that line to go, then looks again.
   */
  const settle = (): AgentEffect<ReadonlyArray<Node>> =>
    Effect.gen(function* () {
      let nodes = yield* snapshot()
      for (let i = 0; i < 3; i++) {
        const loading = nodes.find((n) => /\bloading\b|…$|\.\.\.$/i.test(n.text) && n.text.length < 120)
        if (loading === undefined || !has("electron_wait_for")) return nodes
        yield* must("electron_wait_for", { textGone: loading.text, timeoutMs: 15_000 })
        nodes = yield* snapshot()
      }
      return nodes
    })

  /**
   * Calls a tool on elements found by role and name. When the server answers REF_STALE, the agent does
   * what the hint says: takes a snapshot, finds the same elements in it and repeats the step (a retry).
   */
  const act = (
    tool: string,
    targets: ReadonlyArray<readonly [string, string | RegExp]>,
    args: (refs: ReadonlyArray<string>) => Record<string, unknown>
  ): AgentEffect<string> =>
    Effect.gen(function* () {
      // All at once (the targets not in view are located concurrently), as the Promise agent did.
      const refs = yield* Effect.all(
        targets.map(([role, name]) => ref(role, name)),
        { concurrency: "unbounded" }
      )
      const out = yield* call(tool, args(refs))
      if (!out.isError) return out.text
      // The action ran but its element was replaced before it could be confirmed: look before repeating it, as
      // the hint says; the task's own check (independent of the server) decides whether it took effect.
      if (/the action was performed/.test(out.text)) {
        yield* locate(snapshot())
        return out.text
      }
      if (!/REF_STALE/.test(out.text)) return yield* giveUp(`${tool} failed: ${out.text.split("\n")[0] ?? ""}`)
      const nodes = yield* locate(snapshot())
      const fresh = targets.map(([role, name]) => nodes.find((n) => n.role === role && matches(n.name, name) && n.ref !== undefined)?.ref)
      if (fresh.some((r) => r === undefined)) return yield* giveUp(`${tool}: the elements are not in a new snapshot`)
      return yield* must(tool, args(fresh as ReadonlyArray<string>), { retry: true })
    })

  /** A snapshot scoped to the element with this role and name. */
  const snapshotOf = (role: string, name: string | RegExp): AgentEffect<ReadonlyArray<Node>> =>
    Effect.map(
      act("electron_snapshot", [[role, name]], ([target]) => ({ target })),
      parseNodes
    )

  const click = (role: string, name: string | RegExp): AgentEffect<string> => act("electron_click", [[role, name]], ([target]) => ({ target }))

  const fill = (role: string, name: string | RegExp, value: string): AgentEffect<void> =>
    Effect.asVoid(act("electron_fill", [[role, name]], ([target]) => ({ target, value })))

  /**
   * Waits for the outcome an action should have: nothing when the answers since the action already show
   * the text (a careful agent does not wait for what it has just read); wait_for the text when the user's
   * statement gives it; else, as the agent cannot know the app's words in advance, wait_for the status line
   * it last saw to change (its old text gone), or, with no status line seen, look again until the page shows
   * it. Gives up without wait_for.
   */
  const waitText = (text: string, timeoutMs = 10_000): AgentEffect<void> =>
    Effect.gen(function* () {
      if (sight.recent.includes(text)) return
      if (!has("electron_wait_for")) return yield* giveUp("cannot wait for the page", "electron_wait_for")
      if (statement.includes(text)) {
        yield* must("electron_wait_for", { text, timeoutMs })
        return
      }
      if (sight.lastStatus === undefined) {
        // No status line seen and the words not given: look at the page again until the outcome shows there.
        for (let look = 0; look * 300 < timeoutMs && !sight.recent.includes(text); look++) {
          yield* pause
          yield* must("electron_snapshot")
        }
        return
      }
      yield* must("electron_wait_for", { textGone: sight.lastStatus, timeoutMs })
    })

  /** Whether the answers since the last action show this text. */
  const sees = (text: string | RegExp): boolean => (typeof text === "string" ? sight.recent.includes(text) : text.test(sight.recent))

  /** The windows as listed: id and title. */
  const windows = (): AgentEffect<ReadonlyArray<{ readonly id: string; readonly title: string; readonly active: boolean }>> =>
    Effect.gen(function* () {
      const text = yield* must("electron_windows")
      const out: Array<{ id: string; title: string; active: boolean }> = []
      for (const line of text.split("\n")) {
        // Windows (`w1 "Tasks"`) and the surfaces in them (`v1 view in w1 "Sidebar"`, `v2 view "Sidebar"` of a BaseWindow, `fr2 frame in w1, cross-origin "Sign in"`).
        const m = /^(\*?)\s*((?:w|v|g|fr)\d+)\s+(?:(?:view|guest|frame)(?: in w\d+)?(?:, [a-z-]+)?\s+)?"((?:[^"\\]|\\.)*)"/.exec(line.trim())
        if (m !== null) out.push({ id: m[2] ?? "", title: m[3] ?? "", active: m[1] === "*" })
      }
      return out
    })

  /**
   * Waits for a window whose title matches, and makes it active: with electron_wait_for_window only for a title an
   * earlier answer showed (a view that was not listed yet has a title the agent cannot know), else by listing.
   */
  const switchTo = (title: string | RegExp, timeoutMs = 10_000): AgentEffect<string> =>
    Effect.gen(function* () {
      if (has("electron_wait_for_window") && typeof title === "string" && core.calls.some((c) => c.answer.includes(`"${title}"`))) {
        yield* must("electron_wait_for_window", { title, select: true, timeoutMs })
        const w = (yield* windows()).find((x) => x.active)
        return w?.id ?? ""
      }
      const deadline = Date.now() + timeoutMs
      let first = true
      for (;;) {
        const w = (yield* windows()).find((x) => matches(x.title, title) || (typeof title === "string" && x.title.includes(title)))
        if (w !== undefined) {
          yield* must("electron_select_window", { window: w.id })
          return w.id
        }
        if (!first) core.flagRetry(core.calls.length - 1)
        first = false
        if (Date.now() > deadline) return yield* giveUp(`no window titled ${String(title)}`)
        yield* pause
      }
    })

  return { ...core, evalFallback, snapshot, findAll, ref, settle, act, snapshotOf, click, fill, waitText, sees, windows, switchTo }
}

/** The scripted agent a task's script drives (makeAgent). */
export type Agent = ReturnType<typeof makeAgent>
