/**
 * The operation timeout of a tool call: `withinCallBound` runs the call in a child fiber, interrupts it when the
 * timeout fires (or code inside ends it through `CurrentCall`) and then fails it with that reason, and it
 * sets the call's deadline (CallDeadline) so each Playwright call inside is bounded by what is left of it.
 * Web dialogs do not end a call here: tools/pipeline/guard.ts races a page-touching call against them.
 */
import { Cause, Effect, Exit, Fiber, FiberId, FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"
import { CallDeadline } from "../../layers/driver/ElectronDriver.js"

/** The running call, for code inside it that may have to end it (from a callback outside any fiber). */
export interface CallControl {
  /** Ends the call with `error` (the first reason wins; after the call ended it does nothing). */
  readonly endWith: (error: unknown) => void
}

/** The call the current fiber runs in, if it runs under `withinCallBound`. */
export const CurrentCall = globalValue("stagewright/CurrentCall", () => FiberRef.unsafeMake<CallControl | undefined>(undefined))

/**
 * Runs `effect` as one call (not respond.ts's `bounded`, which cuts a list): `onTimeout()` ends it after `timeoutMs`, and code inside it can end it
 * through `CurrentCall`. An ended call fails with its reason once its fiber has stopped (finalizers run).
 *
 * The call runs in a fiber of its own, awaited (never joined): what that fiber sets is its own and ends with it, so
 * its state (`CurrentCall`, `CallDeadline`, and what the stages inside set: guard.ts) is set there, not scoped
 * around it, and its timer is cleared when it ends (an observer of the fiber, no finalizer).
 */
export const withinCallBound = <A, E, R, E2>(effect: Effect.Effect<A, E, R>, timeoutMs: number, onTimeout: () => E2): Effect.Effect<A, E | E2, R> =>
  Effect.suspend(() => {
    let reason: { readonly error: unknown } | undefined
    let fiber: Fiber.RuntimeFiber<A, E> | undefined
    const control: CallControl = {
      endWith: (error) => {
        if (reason !== undefined || fiber === undefined) return
        reason = { error }
        fiber.unsafeInterruptAsFork(FiberId.none)
      }
    }
    // The deadline lets the driver bound each Playwright call by what is left of the call (call-context.ts).
    const run = Effect.zipRight(Effect.zipRight(FiberRef.set(CurrentCall, control), FiberRef.set(CallDeadline, Date.now() + timeoutMs)), effect)
    return Effect.flatMap(Effect.fork(run), (child) => {
      fiber = child
      const timer = setTimeout(() => control.endWith(onTimeout()), timeoutMs)
      child.addObserver(() => clearTimeout(timer))
      return Effect.flatMap(
        Fiber.await(child),
        (exit): Effect.Effect<A, E | E2> =>
          Exit.isFailure(exit) && reason !== undefined && Cause.isInterruptedOnly(exit.cause) ? Effect.fail(reason.error as E2) : exit
      )
    })
  })
