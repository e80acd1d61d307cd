/**
 * New console errors and page errors, told in the answer of the call that saw them come: after a call that
 * drives a page, the errors the app logged or threw since the previous such answer (each told once, one line
 * each, at most NEW_ERRORS_SHOWN), so an agent without electron_console / electron_errors still learns that
 * its click broke something. An error that comes after its action answered (a failed request, say) is told by
 * the next call (the wait or snapshot that follows). The debug tools, which list them, leave them untold.
 * A failed assertion's answer tells them too (the app's error is often why the page is not as expected).
 * Each line ends with where the app's code threw or logged it, through the app's source maps when it ships
 * them (./source-maps.ts): `(at src/cart.ts:12:5 [dist/renderer.js:1:4821])`; a position no map covers is
 * not added.
 */
import { Effect } from "effect"
import { AppLifecycle, sessionLocal, type AppSession } from "../../layers/driver/ElectronDriver.js"
import { AssertionFailed, type ToolError } from "../contract/errors.js"
import { amended, cut } from "../contract/respond.js"
import { mapperFor, type Mapper } from "../debug/source-maps.js"
import type { ToolResult } from "../contract/Tool.js"

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
  /** The app's source position it came from (`original [bundle position]`), when a source map has it. */
  readonly at?: string
}

interface Taken extends NewError {
  /** What to map: the error's stack, or where the console message was logged (`url:line:column`, 1-based). */
  readonly where?: string
}

/** The errors since the last told ones, the cursors moved past them. */
const takeNew = (s: AppSession): ReadonlyArray<Taken> => {
  const cursors = told.of(s)
  const logged = s.console.since(cursors.console).filter(({ value }) => value.level === "error")
  const thrown = s.errors.since(cursors.errors)
  cursors.console = s.console.cursor
  cursors.errors = s.errors.cursor
  const all = [
    ...logged.map(({ value }) => {
      const at = /^(.*):(\d+)$/.exec(value.location ?? "")
      return {
        at: value.at,
        kind: "console",
        window: value.surface ?? value.window ?? null,
        text: value.text,
        where: at === null ? value.text : `${at[1]}:${Number(at[2]) + 1}:${(value.column ?? 0) + 1}`
      }
    }),
    ...thrown.map(({ value }) => ({
      at: value.at,
      kind: value.kind,
      window: value.surface ?? value.window ?? null,
      text: value.url !== undefined ? `${value.url}: ${value.error ?? value.message}` : value.message,
      where: value.stack ?? value.message
    }))
  ]
  return all.sort((a, b) => a.at - b.at).map(({ at: _at, ...e }) => e)
}

/**
 * A mapped position in `text`: `original [bundle position]`, starting a word (after a space or `(`, as the mapper
 * writes it), so an app's long message without spaces is scanned once, not once from each of its characters.
 */
const MAPPED = /(?<![^\s(])([^\s(]+:\d+(?::\d+)?) \[([^\]\s]+)\]/

/** The first position of `e` a source map covers, when there is one. */
const locate = async (mapper: Mapper, e: Taken): Promise<NewError> => {
  const { where, ...rest } = e
  const mapped = where === undefined ? null : MAPPED.exec(await mapper.map(where).catch(() => where))
  return mapped === null ? rest : { ...rest, at: `${mapped[1]} [${mapped[2]}]` }
}

/** The errors taken (how many, the first NEW_ERRORS_SHOWN located through the app's source maps). */
const locateAll = (session: AppSession, fresh: ReadonlyArray<Taken>): Effect.Effect<{ readonly count: number; readonly shown: ReadonlyArray<NewError> }> =>
  Effect.gen(function* () {
    const mapper = yield* mapperFor(session.launch)
    const shown = yield* Effect.promise(() => Promise.all(fresh.slice(0, NEW_ERRORS_SHOWN).map((e) => locate(mapper, e))))
    return { count: fresh.length, shown }
  })

const lineOf = (e: NewError) =>
  `${e.kind === "console" ? "Console error" : (KIND[e.kind] ?? e.kind)}${e.window !== null ? ` (${e.window})` : ""}: ${cut(e.text.replace(/\s+/g, " ").trim(), LINE_CHARS)}${e.at !== undefined ? ` (at ${e.at})` : ""}`

/** The lines telling `count` new errors, `shown` named. */
const linesOf = (count: number, shown: ReadonlyArray<NewError>) => {
  const more = count - shown.length
  return [...shown.map(lineOf), ...(more > 0 ? [`… ${more} more new error${more === 1 ? "" : "s"}`] : [])]
}

const structuredOf = (count: number, shown: ReadonlyArray<NewError>) => ({ count, shown: shown.map((e) => ({ ...e, text: cut(e.text, LINE_CHARS) })) })

/** A successful result with the errors new since the last answer after its text (none new: the result as it is, without fiber work). */
export const resultWithNewErrors = (session: AppSession | undefined, result: ToolResult): Effect.Effect<ToolResult> => {
  if (session === undefined) return Effect.succeed(result)
  const fresh = takeNew(session)
  if (fresh.length === 0) return Effect.succeed(result)
  return Effect.map(locateAll(session, fresh), ({ count, shown }) =>
    amended(result, { after: `\n${linesOf(count, shown).join("\n")}`, structured: { newErrors: structuredOf(count, shown) } })
  )
}

/** A failed assertion with the errors new since the last answer in its message (and `newErrors` in its details); any other error as it is. */
export const failureWithNewErrors = <E extends ToolError>(session: AppSession | undefined, error: E): Effect.Effect<never, E | AssertionFailed> => {
  if (error._tag !== "AssertionFailed" || session === undefined) return Effect.fail(error)
  const fresh = takeNew(session)
  if (fresh.length === 0) return Effect.fail(error)
  return Effect.flatMap(locateAll(session, fresh), ({ count, shown }) =>
    Effect.fail(
      new AssertionFailed({
        message: `${error.message}\nNew errors of the app since the last answer:\n${linesOf(count, shown).join("\n")}`,
        hint: error.hint,
        expected: error.expected,
        actual: error.actual,
        details: { ...(error.details ?? {}), newErrors: structuredOf(count, shown) },
        cause: error.cause
      })
    )
  )
}

/**
 * The result of `effect` with the errors that came while it ran (or since the last answer) added after its text;
 * a failed assertion gets them in its message (and `newErrors` in its details). The session is read after `effect`
 * (it may have started or ended one).
 */
export const withNewErrors = <R>(effect: Effect.Effect<ToolResult, ToolError, R>): Effect.Effect<ToolResult, ToolError, R | AppLifecycle> =>
  Effect.flatMap(AppLifecycle, (lifecycle) =>
    Effect.matchEffect(effect, {
      onFailure: (error) => Effect.flatMap(lifecycle.current, (session) => failureWithNewErrors(session, error)),
      onSuccess: (result) => Effect.flatMap(lifecycle.current, (session) => resultWithNewErrors(session, result))
    })
  )
