/**
 * electron_perf_startup: the last launch's timeline, each figure labelled with where it comes from.
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/contract/Tool.js"
import { pageFunction } from "./shared.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface PageTiming {
  readonly timeOrigin: number
  readonly domContentLoaded: number | null
  readonly load: number | null
  readonly firstPaint: number | null
  readonly firstContentfulPaint: number | null
  readonly url: string
}

export const startupTool = defineTool({
  name: "electron_perf_startup",
  description:
    "Startup timeline of the running app: process start, launch request, each window first seen, and its page's navigation start, first paint, first contentful paint, DOMContentLoaded and load, in ms from process start.",
  type: "debug",
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const main = yield* call
        .evaluateMain(
          "read the process start",
          () => {
            const p = process as unknown as { getCreationTime?: () => number | null }
            return { now: Date.now(), uptime: process.uptime(), creation: typeof p.getCreationTime === "function" ? p.getCreationTime() : null }
          },
          undefined
        )
        .pipe(Effect.catchTag("NeedsMainProcess", () => Effect.succeed(undefined)))
      const events: Array<{ at: number; what: string }> = []
      if (main !== undefined) {
        const start = main.creation ?? main.now - main.uptime * 1000
        events.push({
          at: start,
          what: `process start (main process ${main.creation !== null ? "process.getCreationTime()" : "Date.now() - process.uptime()"})`
        })
      }
      events.push({ at: session.startedAt.getTime(), what: `Stagewright connected (${session.kind === "launched" ? "launch returned" : "attached"})` })
      for (const entry of yield* (yield* callHandle).surfaces()) {
        events.push({ at: entry.openedAt, what: `${entry.id} window first seen by the driver` })
        const timing = yield* call
          .evaluate(
            entry,
            `read ${entry.id} timings`,
            pageFunction((): PageTiming => {
              const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined
              const paint = (name: string) => performance.getEntriesByName(name, "paint")[0]?.startTime ?? null
              return {
                timeOrigin: performance.timeOrigin,
                domContentLoaded: nav && nav.domContentLoadedEventEnd > 0 ? nav.domContentLoadedEventEnd : null,
                load: nav && nav.loadEventEnd > 0 ? nav.loadEventEnd : null,
                firstPaint: paint("first-paint"),
                firstContentfulPaint: paint("first-contentful-paint"),
                url: location.href
              }
            })
          )
          .pipe(Effect.timeout(5_000), Effect.option)
        if (timing._tag === "None") continue
        const t = timing.value
        const page = `${entry.id} page`
        events.push({ at: t.timeOrigin, what: `${page} navigation start (performance.timeOrigin; its current page ${t.url.split("/").pop()})` })
        if (t.firstPaint !== null) events.push({ at: t.timeOrigin + t.firstPaint, what: `${page} first paint (paint entry)` })
        if (t.firstContentfulPaint !== null) events.push({ at: t.timeOrigin + t.firstContentfulPaint, what: `${page} first contentful paint (paint entry)` })
        if (t.domContentLoaded !== null) events.push({ at: t.timeOrigin + t.domContentLoaded, what: `${page} DOMContentLoaded (navigation timing)` })
        if (t.load !== null) events.push({ at: t.timeOrigin + t.load, what: `${page} load (navigation timing)` })
      }
      events.sort((a, b) => a.at - b.at)
      const zero = events[0]!.at
      const rows = events.map((e) => ({ ms: Math.round(e.at - zero), what: e.what }))
      const note = main === undefined ? "\n(no main process: attached without its inspector, so the process start is unknown)" : ""
      return answer(
        `Startup of ${session.kind === "launched" ? "the last launch" : "the attached app"} (ms from the first event):\n${rows.map((r) => `+${String(r.ms).padStart(6)} ms  ${r.what}`).join("\n")}${note}`,
        { origin: new Date(zero).toISOString(), events: rows }
      )
    })
})
