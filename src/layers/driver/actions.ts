/**
 * How an action on an element runs without outliving its call. Playwright's own wait for an element can
 * last its whole timeout and cannot be called off: left running after the call was cancelled or timed
 * out, it would still click when the element appears. So an action is first tried within one slice of
 * at most a second (the element is usually there: no extra round trip); if that attempt only waited, the
 * waiting goes on in slices with a probe that changes nothing (the action with `trial: true`, or a wait
 * for the element), and the action is made once the probe passed, bounded by the smaller of its own
 * timeout and what is left of the call's budget. A cancelled call stops between two slices: no further
 * Playwright call, and no action lands later.
 */
import { Clock, Effect } from "effect"
import { spanned } from "./spans.js"
import { budgetMs } from "./call-context.js"
import { ElementNotFound, Timeout, type PlaywrightError } from "./errors.js"
import { ACTION_BEGUN } from "./playwright-errors.js"
import type { PendingDialog } from "./session.js"
import type { Action } from "./shape.js"
import * as waits from "./waits.js"

/** A failure that says "not ready yet" (no element, hidden, disabled, still moving): worth another slice. */
const notReadyYet = (error: PlaywrightError) =>
  error._tag === "Timeout" || error._tag === "ElementNotFound" || error._tag === "NotInteractable" || error._tag === "RefStale"

/** Playwright's log shows the action under way (pointer events sent, keys typed): it must not be made again. */
const started = (error: PlaywrightError) => {
  const log = typeof error.cause === "string" ? error.cause : String(error.cause ?? "")
  return ACTION_BEGUN.test(log) || /action done/.test(log)
}

/** A slice's failure states the slice's bound: the agent is told the whole wait. */
const withBound = (error: PlaywrightError, ms: number): PlaywrightError => {
  if (error._tag === "ElementNotFound") {
    return new ElementNotFound({
      message: error.message.replace(/within \d+ ms/, `within ${ms} ms`),
      hint: error.hint,
      details: error.details,
      cause: error.cause
    })
  }
  if (error._tag === "Timeout") {
    return new Timeout({
      message: error.message.replace(/Timeout \d+ms exceeded/, `Timeout ${ms}ms exceeded`),
      hint: error.hint,
      details: error.details,
      cause: error.cause
    })
  }
  return error
}

/** The first attempt's bound when the action is tried first: the longest a cancelled call leaves it running. */
const SLICE_MS = 1_000

/**
 * A pointer action (click, dblclick, hover, tap) whose events were sent and taken ("click action done") before
 * the time ran out: what was cut is only Playwright's own wait after it (for navigations the click may have
 * scheduled), which the answer does not need (the change summary and electron_wait_for look at the page). It
 * is the action done, not a failure (a loaded machine made such clicks fail while they had happened).
 */
const pointerDone = (error: PlaywrightError) => {
  if (error._tag !== "OperationFailed" || error.details?.["performed"] !== true || typeof error.cause !== "string") return false
  const [first = "", ...log] = error.cause.split("\n")
  if (!/^(?:locator|elementHandle|page|frame)\.(?:click|dblclick|hover|tap):/.test(first)) return false
  const last = log.filter((line) => /^\s*-\s/.test(line)).at(-1) ?? ""
  return /\b(?:click|dblclick|hover|tap) action done|waiting for scheduled navigations|navigations have finished/.test(last)
}

type Run = <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
/** The modal room's race of a call against web dialogs (./modal-room.ts). */
type RaceModal = (what: string, f: () => Promise<unknown>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>

/** The driver's `runAction`, over its `run` and the modal room's race. */
export const makeRunAction =
  (run: Run, race: RaceModal) =>
  <R>(action: Action<R>): Effect.Effect<PendingDialog | undefined, PlaywrightError> =>
    Effect.gen(function* () {
      const bound = yield* budgetMs(action.timeoutMs)
      const deadline = (yield* Clock.currentTimeMillis) + bound
      const perform = (ms: number, ready: R | undefined) =>
        (action.reportsDialogs === false
          ? Effect.as(
              run(action.what, () => action.perform(ms, ready)),
              undefined
            )
          : race(action.what, () => action.perform(ms, ready))
        ).pipe(Effect.catchIf(pointerDone, () => Effect.succeed(undefined)))
      // Retried until the deadline: a last failure that is a wait's was cut at the deadline, the whole bound.
      const sliced = <A>(attempt: (sliceMs: number) => Effect.Effect<A, PlaywrightError>) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          waits.waitSliced(attempt, Math.max(1, deadline - now), notReadyYet).pipe(Effect.mapError((error) => withBound(error, bound)))
        )
      const probe = action.ready
      if (probe === undefined) return yield* sliced((slice) => perform(slice, undefined))
      const rest = (first: PlaywrightError | undefined) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          if (first !== undefined && (!notReadyYet(first) || started(first))) return yield* Effect.fail(first)
          if (first !== undefined && now >= deadline - 5) return yield* Effect.fail(withBound(first, bound))
          const ready = yield* sliced((slice) => run(action.what, () => probe(slice)))
          return yield* perform(Math.max(1, deadline - (yield* Clock.currentTimeMillis)), ready)
        })
      if (action.tryFirst !== true) return yield* rest(undefined)
      return yield* perform(Math.max(1, Math.min(SLICE_MS, bound)), undefined).pipe(Effect.catchAll((error) => rest(error)))
    }).pipe(spanned("ElectronDriver.runAction", { what: action.what }))
