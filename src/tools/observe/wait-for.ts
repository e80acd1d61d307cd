/**
 * electron_wait_for: a condition in the active surface (a target's state, text that appears or goes, the URL),
 * or a window that opens (made active, the other conditions then wait in it). A surface that closes during the
 * wait hands it over, with the time left, to the window active after it (a splash screen's successor, the main
 * window that replaces a login window); the answer names both.
 */
import { Effect, Schedule, Schema } from "effect"
import type { Surface } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument, Timeout, type ToolError } from "../contract/errors.js"
import { callHandle, type CallHandle } from "../contract/handle.js"
import { defineTool } from "../contract/Tool.js"
import { Target, TimeoutMs } from "../contract/shapes.js"
import { answer } from "../contract/respond.js"
import { windowsTold } from "../pipeline/new-windows.js"

/** A wait is handed over at most this many times (windows that each close in turn). */
const MAX_HANDOVERS = 3

const Input = Schema.Struct({
  target: Schema.optional(Target),
  state: Schema.optional(Schema.Literal("visible", "hidden", "attached", "detached")),
  text: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "text that must appear" }),
  textGone: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "text that must disappear" }),
  url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000))).annotations({ description: "URL contains" }),
  window: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
    description: "title or URL part of a window to wait for (an open one counts); it becomes active"
  }),
  timeoutMs: TimeoutMs(10_000)
})
type Input = typeof Input.Type

interface Bound {
  readonly timeout: number
  readonly started: number
}
const left = (bound: Bound) => bound.timeout - (Date.now() - bound.started)

/** The element, text and URL conditions in `entry`, in the time left; what each became. */
const conditionsIn = (call: CallHandle, entry: Surface, input: Input, bound: Bound) =>
  Effect.gen(function* () {
    const conditions: Array<string> = []
    const asTimeout = <A, E extends { readonly _tag: string }, R>(what: string, effect: Effect.Effect<A, E, R>) =>
      effect.pipe(
        Effect.catchIf(
          (e: { readonly _tag: string }) => e._tag === "Timeout" || e._tag === "ElementNotFound",
          () => Effect.fail(new Timeout({ message: `${what} did not happen within ${bound.timeout} ms` }))
        )
      )
    if (input.target !== undefined) {
      const locator = yield* call.locate(entry, input.target)
      const state = input.state ?? "visible"
      yield* asTimeout(
        `${input.target} ${state}`,
        call.waitSliced(`wait for ${input.target}`, (slice) => locator.first().waitFor({ state, timeout: slice }), left(bound))
      )
      conditions.push(`${input.target} is ${state}`)
    }
    if (input.text !== undefined) {
      const text = input.text
      yield* asTimeout(
        `text "${text}"`,
        call.waitSliced("wait for text", (slice) => entry.scope.getByText(text).first().waitFor({ state: "visible", timeout: slice }), left(bound))
      )
      conditions.push(`"${text}" appeared`)
    }
    if (input.textGone !== undefined) {
      const text = input.textGone
      yield* asTimeout(
        `text "${text}" gone`,
        call.waitSliced("wait for text to go", (slice) => entry.scope.getByText(text).first().waitFor({ state: "hidden", timeout: slice }), left(bound))
      )
      conditions.push(`"${text}" is gone`)
    }
    if (input.url !== undefined) {
      const part = input.url
      yield* asTimeout(
        `URL containing "${part}"`,
        call.waitSliced("wait for URL", (slice) => entry.scope.waitForURL((u) => u.href.includes(part), { timeout: slice, waitUntil: "commit" }), left(bound))
      )
      conditions.push(`URL contains "${part}"`)
    }
    return conditions
  })

/**
 * The surface active now that `gone` closed (or, without `gone`, while no window is open): at once when one is
 * (a window left, or a page being registered), else the first window the app opens in the time left (a new
 * window is active while no other is open).
 */
const successor = (call: CallHandle, gone: Surface | undefined, bound: Bound) =>
  call.surface().pipe(
    Effect.retry({ schedule: Schedule.spaced("100 millis"), while: (error) => error._tag === "WindowNotFound" }),
    Effect.timeoutFail({
      duration: Math.max(1, left(bound)),
      onTimeout: () =>
        new Timeout({
          message: `${gone === undefined ? "No window was open" : `${gone.id} closed during the wait`}, and no other window opened within ${bound.timeout} ms`,
          hint: "electron_windows lists the windows; pass a larger timeoutMs if the app opens one later."
        })
    })
  )

interface Waited {
  readonly entry: Surface
  readonly conditions: ReadonlyArray<string>
  /** The surfaces that closed during the wait, in turn. */
  readonly closed: ReadonlyArray<string>
}

/** The conditions in `entry`; when it closes meanwhile, in its successor. */
const inSurface = (call: CallHandle, entry: Surface, input: Input, bound: Bound, closed: ReadonlyArray<string>): Effect.Effect<Waited, ToolError> =>
  conditionsIn(call, entry, input, bound).pipe(
    Effect.map((conditions) => ({ entry, conditions, closed })),
    Effect.catchIf(
      (error) => error._tag === "WindowNotFound" && entry.closed && closed.length < MAX_HANDOVERS && left(bound) > 0,
      () => Effect.flatMap(successor(call, entry, bound), (next) => inSurface(call, next, input, bound, [...closed, entry.id]))
    )
  )

export const waitFor = defineTool({
  name: "electron_wait_for",
  description:
    "Wait until a target reaches a state (visible by default, hidden, attached, detached), text appears or disappears in the window, the URL contains a string, or a window opens. Use it for late UI before acting.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "TIMEOUT", "INVALID_ARGUMENT"],
  input: Input,
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const bound: Bound = { timeout: input.timeoutMs ?? 10_000, started: Date.now() }
      const opened: Array<string> = []
      if (input.window !== undefined) {
        const query = input.window
        // By title or by URL, whichever matches first; then made active, so the other conditions wait in it.
        const found = yield* Effect.race(
          call.waitForSurface({ title: query }, { timeoutMs: bound.timeout, select: false }),
          call.waitForSurface({ url: query }, { timeoutMs: bound.timeout, select: false })
        )
        yield* call.selectSurface({ id: found.id })
        opened.push(`window ${found.id} "${yield* call.title(found)}" is active`)
      } else if (input.target === undefined && input.text === undefined && input.textGone === undefined && input.url === undefined) {
        return yield* new InvalidArgument({
          message: "give target, text, textGone, url or window",
          hint: 'Example: { "text": "Saved" }, { "target": "testid=late-panel" } or { "window": "Settings" }.'
        })
      }
      // With no window open (a splash screen gone before its successor came), the conditions wait in the next one.
      const first = yield* call.surface().pipe(
        Effect.map((entry) => ({ entry, none: false })),
        Effect.catchTag("WindowNotFound", () => Effect.map(successor(call, undefined, bound), (entry) => ({ entry, none: true })))
      )
      const waited = yield* inSurface(call, first.entry, input, bound, [])
      const elapsed = Date.now() - bound.started
      // The answer names the window it ended in and those closed under it: later answers do not tell them again.
      windowsTold(yield* call.session, [waited.entry.id, ...waited.closed])
      const handed = `${first.none ? `No window was open${waited.closed.length === 0 ? `; in ${waited.entry.id}: ` : ", then "}` : ""}${
        waited.closed.length === 0 ? "" : `${waited.closed.join(", ")} closed during the wait; in ${waited.entry.id}: `
      }`
      return answer(`${handed}${[...opened, ...waited.conditions].join("; ")} after ${elapsed} ms.`, {
        window: waited.entry.id,
        elapsedMs: elapsed,
        ...(waited.closed.length === 0 ? {} : { closed: waited.closed }),
        ...(first.none ? { noWindowAtStart: true } : {})
      })
    })
})
