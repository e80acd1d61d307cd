/**
 * The operation timeout of a tool call: `withinCallBound` runs the call in a child fiber, interrupts it when the
 * timeout fires (or code inside ends it through `CurrentCall`) and then fails it with that reason, and it
 * sets the call's deadline (CallDeadline) so each Playwright call inside is bounded by what is left of it.
 * Web dialogs do not end a call here: tools/pipeline/guard.ts races a page-touching call against them.
 */
import { Cause, Effect, Exit, Fiber, FiberId, FiberRef, FiberRefs, Runtime } from "effect"
import { globalValue } from "effect/GlobalValue"
import { CallDeadline } from "../../layers/driver/ElectronDriver.js"

/** The running call, for code inside it that may have to end it (from a callback outside any fiber). */
export interface CallControl {
  /** Ends the call with `error` (the first reason wins; after the call ended it does nothing). */
  readonly endWith: (error: unknown) => void
  /** Whether `fiber` is the call's own (the bound's): what ends with it ends with the call. */
  readonly ownedBy: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => boolean
}

/** The call the current fiber runs in, if it runs under `withinCallBound`. */
export const CurrentCall = globalValue("stagewright/CurrentCall", () => FiberRef.unsafeMake<CallControl | undefined>(undefined))

/**
 * Runs `effect` as one call (not respond.ts's `bounded`, which cuts a list): `onTimeout()` ends it after `timeoutMs`, and code inside it can end it
 * through `CurrentCall`. Its waits end by `waitsMs` (CallDeadline; default `timeoutMs`). An ended call fails with its reason once its fiber has stopped (finalizers run).
 *
 * The call runs in a fiber of its own, awaited (never joined): what that fiber sets is its own and ends with it, so
 * its state (`CurrentCall`, `CallDeadline`, and what the stages inside set: guard.ts) is set there, not scoped
 * around it, and its timer is cleared when it ends (an observer of the fiber, no finalizer). The fiber is started at
 * once, with the caller's services and fiber-locals and the call's own set as it is made (not scheduled to start
 * later, as a fork is); interrupting the caller interrupts it and waits for it to stop.
 */
export const withinCallBound = <A, E, R, E2>(
  effect: Effect.Effect<A, E, R>,
  timeoutMs: number,
  onTimeout: () => E2,
  waitsMs: number = timeoutMs
): Effect.Effect<A, E | E2, R> =>
  // The runtime is taken while the caller is interruptible (the call's fiber gets its flags); the fiber is made and
  // the caller's interruption hooked up with none in between.
  Effect.flatMap(Effect.runtime<R>(), (runtime) =>
    Effect.uninterruptibleMask((restore) => {
      let reason: { readonly error: unknown } | undefined
      let fiber: Fiber.RuntimeFiber<A, E> | undefined
      let own: FiberId.Runtime | undefined
      const control: CallControl = {
        endWith: (error) => {
          if (reason !== undefined) return
          reason = { error }
          // Before the fiber is known (it runs at once, until its first wait), it is interrupted once it is.
          fiber?.unsafeInterruptAsFork(FiberId.none)
        },
        ownedBy: (other) => own !== undefined && other.id() === own
      }
      // The deadline lets the driver bound each Playwright call by what is left of the call (call-context.ts): `waitsMs`,
      // which leaves the rest of the bound for the answer (a wait without a bound of its own ends there, not at the cut).
      const deadline = Date.now() + waitsMs
      const child = Runtime.runFork(runtime)(effect, {
        updateRefs: (refs, id) => {
          own = id
          return FiberRefs.updateAs(FiberRefs.updateAs(refs, { fiberId: id, fiberRef: CurrentCall, value: control }), {
            fiberId: id,
            fiberRef: CallDeadline,
            value: deadline
          })
        }
      })
      fiber = child
      if (reason !== undefined) child.unsafeInterruptAsFork(FiberId.none)
      const timer = setTimeout(() => control.endWith(onTimeout()), timeoutMs)
      child.addObserver(() => clearTimeout(timer))
      return Effect.onInterrupt(
        restore(
          Effect.flatMap(
            Fiber.await(child),
            (exit): Effect.Effect<A, E | E2> =>
              Exit.isFailure(exit) && reason !== undefined && Cause.isInterruptedOnly(exit.cause) ? Effect.fail(reason.error as E2) : exit
          )
        ),
        () => Fiber.interrupt(child)
      )
    })
  )
