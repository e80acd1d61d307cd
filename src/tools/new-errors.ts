/**
 * New console errors and page errors, told in the answer of the call that saw them come: after a call that
 * drives a page, the errors the app logged or threw since the previous such answer (each told once, one line
 * each, at most NEW_ERRORS_SHOWN), so an agent without electron_console / electron_errors still learns that
 * its click broke something. An error that comes after its action answered (a failed request, say) is told by
 * the next call (the wait or snapshot that follows). The debug tools, which list them, leave them untold.
 */
import { Effect } from "effect"
import { AppLifecycle, sessionLocal, type AppSession } from "../layers/driver/ElectronDriver.js"
import { cut } from "./respond.js"
import type { ToolResult } from "./Tool.js"

/** At most this many errors are named in one answer; the rest are counted. */
export const NEW_ERRORS_SHOWN = 5
const LINE_CHARS = 200

/** What the session's answers have told so far: the console and error buffers' cursors. */
const told = sessionLocal("told-errors", () => ({ console: 0, errors: 0 }))

const KIND: Readonly<Record<string, string>> = {
  pageerror: "Page error",
  crash: "Renderer crash",
  unresponsive: "Unresponsive",
  main: "Main-process error",
  rejection: "Main-process rejection",
  "load-failed": "Load failed"
}

interface NewError {
  readonly kind: string
  readonly window: string | null
  readonly text: string
}

/** The errors since the last told ones, the cursors moved past them. */
const takeNew = (s: AppSession): ReadonlyArray<NewError> => {
  const cursors = told.of(s)
  const logged = s.console.since(cursors.console).filter(({ value }) => value.level === "error")
  const thrown = s.errors.since(cursors.errors)
  cursors.console = s.console.cursor
  cursors.errors = s.errors.cursor
  const all = [
    ...logged.map(({ value }) => ({ at: value.at, kind: "console", window: value.surface ?? value.window ?? null, text: value.text })),
    ...thrown.map(({ value }) => ({ at: value.at, kind: value.kind, window: value.surface ?? value.window ?? null, text: value.url !== undefined ? `${value.url}: ${value.error ?? value.message}` : value.message }))
  ]
  return all.sort((a, b) => a.at - b.at).map(({ kind, window, text }) => ({ kind, window, text }))
}

const lineOf = (e: NewError) => `${e.kind === "console" ? "Console error" : (KIND[e.kind] ?? e.kind)}${e.window !== null ? ` (${e.window})` : ""}: ${cut(e.text.replace(/\s+/g, " ").trim(), LINE_CHARS)}`

/** The result of `effect` with the errors that came while it ran (or since the last answer) added after its text. */
export const withNewErrors = <E, R>(effect: Effect.Effect<ToolResult, E, R>): Effect.Effect<ToolResult, E, R | AppLifecycle> =>
  Effect.gen(function* () {
    const result = yield* effect
    const session = yield* (yield* AppLifecycle).current
    if (session === undefined) return result
    const fresh = takeNew(session)
    if (fresh.length === 0) return result
    const shown = fresh.slice(0, NEW_ERRORS_SHOWN)
    const more = fresh.length - shown.length
    const lines = [...shown.map(lineOf), ...(more > 0 ? [`… ${more} more new error${more === 1 ? "" : "s"}`] : [])]
    return {
      ...result,
      text: `${result.text}\n${lines.join("\n")}`,
      structured: { ...(result.structured ?? {}), newErrors: { count: fresh.length, shown: shown.map((e) => ({ ...e, text: cut(e.text, LINE_CHARS) })) } }
    }
  })
