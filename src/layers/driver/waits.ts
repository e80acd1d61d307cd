/**
 * The driver's waits, all Effect: a condition read until it holds (backing off 100 ms -> 1 s), and a
 * Playwright wait cut in slices of at most a second. Interrupted, neither makes another call.
 * `describing` names what a call is waiting for, for its progress notifications (src/server/progress.ts).
 */
import { Clock, Data, Duration, Effect, FiberRef, Ref, Schedule } from "effect"
import { spanned } from "./spans.js"
import { globalValue } from "effect/GlobalValue"
import type { PlaywrightError } from "./errors.js"
import type { Check } from "./shape.js"

/**
 * What the running call is doing now, read by its progress heartbeat (another fiber, hence a Ref). Set
 * only while a client asked for progress; outside such a call it is undefined and `describing` costs a read.
 */
export const CallActivity = globalValue("stagewright/CallActivity", () => FiberRef.unsafeMake<Ref.Ref<string | undefined> | undefined>(undefined))

/** Runs `effect` with `what` ("waiting for testid=save") as the call's activity, restoring the previous one after. */
export const describing = <A, E, R>(what: string, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(CallActivity), (activity) =>
    activity === undefined
      ? effect
      : Effect.acquireUseRelease(
          Ref.getAndSet(activity, what),
          () => effect,
          (previous) => Ref.set(activity, previous)
        )
  )

/** A condition that does not hold yet (internal to the waits: retried, never returned). */
export class NotYet extends Data.TaggedError("NotYet") {}

/** The longest single Playwright wait: a cancelled call stops driving the page within this. */
const WAIT_SLICE_MS = 1_000

const FIRST_INTERVAL = Duration.millis(100)
const POLL_SCHEDULE = Schedule.union(Schedule.exponential(FIRST_INTERVAL, 1.6), Schedule.spaced("1 second"))

/**
 * Reads `check` until it holds or `timeoutMs` passes; succeeds with the last complete reading. A check
 * that holds at once costs one reading and nothing else (no timer, no fiber): the common case.
 */
export const poll = <A, E, R>(check: Effect.Effect<Check<A>, E, R>, timeoutMs: number): Effect.Effect<Check<A>, E, R> =>
  Effect.flatMap(Clock.currentTimeMillis, (started) =>
    Effect.flatMap(check, (first) =>
      first.ok ? Effect.succeed(first) : Effect.flatMap(Clock.currentTimeMillis, (now) => retry(check, first, timeoutMs - (now - started)))
    )
  )

/** The rest of a poll whose first reading did not hold. */
const retry = <A, E, R>(check: Effect.Effect<Check<A>, E, R>, first: Check<A>, remainingMs: number): Effect.Effect<Check<A>, E, R> =>
  Effect.gen(function* () {
    const last = yield* Ref.make<Check<A>>(first)
    const reading = Effect.tap(check, (outcome) => Ref.set(last, outcome)).pipe(
      Effect.filterOrFail(
        (outcome) => outcome.ok,
        () => new NotYet()
      ),
      Effect.retry({ schedule: POLL_SCHEDULE, while: (error) => error instanceof NotYet })
    )
    // The second reading waits the schedule's first interval, as every later one waits its own.
    const held = yield* Effect.zipRight(Effect.sleep(FIRST_INTERVAL), reading).pipe(
      Effect.timeout(Math.max(0, remainingMs)),
      Effect.catchTag("TimeoutException", () => Effect.succeed(undefined)),
      Effect.catchTag("NotYet", () => Effect.succeed(undefined))
    )
    // Past the bound the last complete reading decides (one cut short by the bound does not count).
    return held ?? (yield* Ref.get(last))
  }).pipe(spanned("PageOps.poll"))

/** A wait's failures that say "not yet" (the element is not there, or not ready): worth another slice. */
const stillWaiting = (error: PlaywrightError) => error._tag === "Timeout" || error._tag === "ElementNotFound"

/**
 * `run` makes one Playwright call with the slice's bound; it is retried, while its failure is one of
 * `retryable`'s (by default: a timeout, no element yet), until it succeeds or the deadline passes. A call
 * that succeeds at once (the usual action) costs that call and nothing else: the retry's schedule is set
 * up only after a failure worth another slice.
 */
export const waitSliced = <A>(
  run: (sliceMs: number) => Effect.Effect<A, PlaywrightError>,
  timeoutMs: number,
  retryable: (error: PlaywrightError) => boolean = stillWaiting
): Effect.Effect<A, PlaywrightError> =>
  Effect.gen(function* () {
    const deadline = (yield* Clock.currentTimeMillis) + timeoutMs
    const once = Effect.flatMap(Clock.currentTimeMillis, (now) => run(Math.max(1, Math.min(WAIT_SLICE_MS, deadline - now))))
    const again = (error: PlaywrightError) => retryable(error) && Date.now() < deadline - 5
    return yield* Effect.catchIf(once, again, () => Effect.retry(once, { while: again }))
  })
