/**
 * The driver's waits, all Effect: a condition read until it holds (backing off 100 ms -> 1 s), and a
 * Playwright wait cut in slices of at most a second. Interrupted, neither makes another call.
 */
import { Clock, Data, Effect, Ref, Schedule } from "effect"
import type { PlaywrightError } from "./errors.js"
import type { Check } from "./shape.js"

/** A condition that does not hold yet (internal to the waits: retried, never returned). */
export class NotYet extends Data.TaggedError("NotYet") {}

/** The longest single Playwright wait: a cancelled call stops driving the page within this. */
const WAIT_SLICE_MS = 1_000

const POLL_SCHEDULE = Schedule.union(Schedule.exponential("100 millis", 1.6), Schedule.spaced("1 second"))

/** Reads `check` until it holds or `timeoutMs` passes; succeeds with the last complete reading. */
export const poll = <A, E>(check: Effect.Effect<Check<A>, E>, timeoutMs: number): Effect.Effect<Check<A>, E> =>
  Effect.gen(function* () {
    const last = yield* Ref.make<Check<A> | undefined>(undefined)
    const held = yield* Effect.tap(check, (outcome) => Ref.set(last, outcome)).pipe(
      Effect.filterOrFail((outcome) => outcome.ok, () => new NotYet()),
      Effect.retry({ schedule: POLL_SCHEDULE, while: (error) => error instanceof NotYet }),
      Effect.timeout(timeoutMs),
      Effect.catchTag("TimeoutException", () => Effect.succeed(undefined)),
      Effect.catchTag("NotYet", () => Effect.succeed(undefined))
    )
    if (held !== undefined) return held
    // The bound passed: the last complete reading decides (one cut short by the bound does not count).
    const seen = yield* Ref.get(last)
    return seen ?? (yield* check)
  }).pipe(Effect.withSpan("ElectronDriver.poll"))

/** `run` makes one Playwright call with the slice's bound; it is retried until success or the deadline. */
export const waitSliced = (
  run: (sliceMs: number) => Effect.Effect<unknown, PlaywrightError>,
  timeoutMs: number
): Effect.Effect<void, PlaywrightError> =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
    const once = Effect.flatMap(Clock.currentTimeMillis, (now) => run(Math.max(1, Math.min(WAIT_SLICE_MS, deadline - now))))
    yield* once.pipe(
      Effect.retry({
        while: (error) => (error._tag === "Timeout" || error._tag === "ElementNotFound") && Date.now() < deadline - 5
      })
    )
  })
