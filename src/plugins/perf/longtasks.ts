/**
 * electron_perf_long_tasks: main-thread tasks over 50 ms in a window, seen by a PerformanceObserver
 * ('longtask') the tool installs in the page; each call drains what it recorded (bounded to 500).
 */
import { Effect, Schema } from "effect"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target, WindowId } from "../../tools/contract/shapes.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface LongTask {
  readonly start: number
  readonly duration: number
  readonly name: string
  readonly container: string
}

/** Installs the observer once per page; answers whether it was already there. */
const install = () => {
  const w = window as unknown as { __stagewright_perf?: { tasks: Array<unknown>; dropped: number; since: number } }
  if (w.__stagewright_perf) return true
  const state = { tasks: [] as Array<unknown>, dropped: 0, since: performance.now() }
  w.__stagewright_perf = state
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<
      PerformanceEntry & { attribution?: Array<{ containerType?: string; containerName?: string; containerSrc?: string }> }
    >) {
      if (state.tasks.length >= 500) {
        state.dropped++
        continue
      }
      const a = e.attribution?.[0]
      state.tasks.push({
        start: Math.round(e.startTime),
        duration: Math.round(e.duration),
        name: e.name,
        container: a ? [a.containerType, a.containerName || a.containerSrc].filter(Boolean).join(" ") : ""
      })
    }
  }).observe({ type: "longtask", buffered: true })
  return false
}

const drain = () => {
  const w = window as unknown as { __stagewright_perf?: { tasks: Array<LongTask>; dropped: number; since: number } }
  const state = w.__stagewright_perf!
  const out = { tasks: state.tasks, dropped: state.dropped, since: state.since, now: performance.now() }
  state.tasks = []
  state.dropped = 0
  state.since = out.now
  return out
}

export const longTasksTool = defineTool({
  name: "electron_perf_long_tasks",
  description:
    "Long tasks (main thread busy > 50 ms) in a window: installs an observer on first use, optionally clicks a target and watches for durationMs, then returns and clears what was recorded since the last call, with total blocking time.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "REF_STALE"],
  input: Schema.Struct({
    window: Schema.optional(WindowId),
    click: Schema.optional(Target).annotations({ description: "element to click after the observer is on" }),
    durationMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 60_000))).annotations({
      description: "watch this long before reading, default 0"
    })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(input.window)
      const wasOn = yield* call.evaluate(entry, "install the long-task observer", install)
      const supported = yield* call.evaluate(entry, "check long-task support", () => PerformanceObserver.supportedEntryTypes.includes("longtask"))
      if (!supported)
        return yield* new InvalidArgument({
          message: "This renderer does not report long tasks",
          hint: "Use electron_perf_cpu_profile to see what keeps the main thread busy."
        })
      if (input.click !== undefined) {
        const locator = yield* call.locate(entry, input.click)
        yield* call.run(`click ${input.click}`, () => locator.click({ timeout: 5_000 }))
      }
      // The observer delivers entries after the task ends: give it a moment past the watched period.
      yield* Effect.sleep(Math.max(input.durationMs ?? 0, input.click !== undefined ? 200 : 0))
      const out = yield* call.evaluate(entry, "read long tasks", drain)
      const tasks = out.tasks as Array<LongTask>
      const blocking = tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0)
      const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0)
      const period = `${Math.round(out.now - out.since)} ms`
      const head =
        tasks.length === 0
          ? `No long tasks in ${entry.id} over the last ${period}${wasOn ? "" : " (observer just installed; buffered entries included)"}.`
          : `${tasks.length} long tasks in ${entry.id} over the last ${period}: longest ${longest} ms, total blocking time ${blocking} ms${out.dropped ? ` (${out.dropped} more dropped)` : ""}`
      const lines = tasks.slice(-20).map((t) => `  at ${t.start} ms: ${t.duration} ms${t.container ? ` (${t.container})` : ""}`)
      return answer([head, ...lines].join("\n"), { window: entry.id, tasks, totalBlockingMs: blocking, longestMs: longest, dropped: out.dropped })
    })
})
