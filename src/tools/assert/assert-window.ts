/**
 * electron_expect_window: a window with a title or URL (substring, or a URL regex matched on RE2) is open —
 * or, with `not`, none is — and/or how many windows are open, retried until the timeout.
 */
import { Effect, Schema } from "effect"
import { titleOrDialog } from "../modal/dialogs.js"
import { AssertionFailed, InvalidArgument } from "../contract/errors.js"
import { Not, Timeout } from "./expect-on.js"
import { compileSafePattern } from "../policy/patterns.js"
import { defineTool } from "../contract/Tool.js"
import { DEFAULT_EXPECT_TIMEOUT } from "../contract/shapes.js"
import { callHandle } from "../contract/handle.js"
import { answer } from "../contract/respond.js"

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

export const expectWindow = defineTool({
  name: "electron_expect_window",
  description:
    "Assert a window with the given title, URL (substring) or urlPattern is open, and/or how many windows are open, retrying until timeoutMs; not=true: none is (count: another number).",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    title: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))),
    url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000))),
    urlPattern: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "regex source" }),
    count: Schema.optional(Count),
    not: Not,
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.title === undefined && input.url === undefined && input.urlPattern === undefined && input.count === undefined) {
        return yield* new InvalidArgument({
          message: "give title, url, urlPattern or count",
          hint: 'Example: { "title": "Settings" } or { "urlPattern": "settings\\\\.html$" }.'
        })
      }
      // Matched here on RE2 (linear time), never on a backtracking RegExp.
      const regex = input.urlPattern !== undefined ? yield* compileSafePattern(input.urlPattern) : undefined
      const call = yield* callHandle
      const session = yield* call.session
      const timeout = input.timeoutMs ?? DEFAULT_EXPECT_TIMEOUT
      const negate = input.not === true
      const filtered = input.title !== undefined || input.url !== undefined || regex !== undefined
      const wanted = {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.urlPattern !== undefined ? { urlPattern: `/${input.urlPattern}/` } : {}),
        ...(input.count !== undefined ? { count: input.count } : {})
      }
      const expected = negate ? { not: wanted } : wanted
      const outcome = yield* call.poll(
        Effect.gen(function* () {
          const open = session.windows.filter((w) => !w.page.isClosed())
          const windows = yield* Effect.forEach(open, (w) => Effect.map(titleOrDialog(session, w), (title) => ({ id: w.id, title, url: w.page.url() })), {
            concurrency: "unbounded"
          })
          // A URL longer than the pattern's bound is neither a match nor a non-match: `not` does not pass on it.
          const unmatchable = regex !== undefined && windows.some((w) => !regex.fits(w.url))
          const match = windows.find(
            (w) =>
              (input.title === undefined || w.title.includes(input.title)) &&
              (input.url === undefined || w.url.includes(input.url)) &&
              (regex === undefined || regex.test(w.url))
          )
          const filterOk = negate ? !filtered || (match === undefined && !unmatchable) : !filtered || match !== undefined
          const countOk = input.count === undefined || (windows.length === input.count) !== negate
          return { ok: filterOk && countOk, actual: { count: windows.length, windows: windows.map((w) => `${w.id} "${w.title}" ${w.url}`) } }
        }),
        timeout
      )
      if (!outcome.ok)
        return yield* new AssertionFailed({
          message: `window expectation${negate ? " (not)" : ""} failed after ${timeout} ms`,
          expected,
          actual: outcome.actual
        })
      const urlCheck = regex !== undefined ? `app.windows().some((w) => ${regex.literal}.test(w.url()))` : undefined
      yield* call.record({
        window: session.activeId ?? "",
        code:
          input.count !== undefined && !filtered
            ? `expect(app.windows().length).${negate ? "not." : ""}toBe(${input.count})`
            : urlCheck !== undefined
              ? `expect(${urlCheck}).toBe(${!negate})`
              : `// ${negate ? "no" : "a"} window ${JSON.stringify(wanted)} is open`
      })
      return answer(`Passed${negate ? " (not)" : ""}: ${outcome.actual.count} window(s) open; ${outcome.actual.windows.join("; ")}`, {
        passed: true,
        ...outcome.actual
      })
    })
})
