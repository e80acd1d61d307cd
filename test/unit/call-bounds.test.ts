/**
 * One bound per tool call (src/tools/contract/call-bounds.ts): the operation timeout and a reason given from a
 * callback end the call with that failure, after the call's own finalizers ran; a result or a failure of
 * its own passes through; an interrupted caller stops the call.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, FiberRef, Ref } from "effect"
import { CurrentCall, withinCallBound } from "../../src/tools/contract/call-bounds.js"

describe("withinCallBound", () => {
  it.effect("passes a result and a failure of the call through", () =>
    Effect.gen(function* () {
      expect(yield* withinCallBound(Effect.succeed(42), 1_000, () => "timeout")).toBe(42)
      const failed = yield* Effect.exit(withinCallBound(Effect.fail("own"), 1_000, () => "timeout"))
      expect(failed).toStrictEqual(Exit.fail("own"))
    })
  )

  it.live("ends a call that runs past the bound with the timeout's error, after its finalizers", () =>
    Effect.gen(function* () {
      const finalized = yield* Ref.make(false)
      const started = Date.now()
      const exit = yield* Effect.exit(withinCallBound(Effect.never.pipe(Effect.ensuring(Ref.set(finalized, true))), 50, () => "timed out"))
      expect(exit).toStrictEqual(Exit.fail("timed out"))
      expect(yield* Ref.get(finalized)).toBe(true)
      expect(Date.now() - started).toBeLessThan(5_000)
    })
  )

  it.live("code inside the call ends it with its reason, from a callback outside any fiber", () =>
    Effect.gen(function* () {
      const call = Effect.gen(function* () {
        const control = yield* FiberRef.get(CurrentCall)
        expect(control).toBeDefined()
        setTimeout(() => control!.endWith("dialog opened"), 10)
        return yield* Effect.never
      })
      expect(yield* Effect.exit(withinCallBound(call, 5_000, () => "timed out"))).toStrictEqual(Exit.fail("dialog opened"))
      // Outside a bounded call there is none.
      expect(yield* FiberRef.get(CurrentCall)).toBeUndefined()
    })
  )

  it.live("the first reason wins, and a reason after the call ended changes nothing", () =>
    Effect.gen(function* () {
      let end: ((error: unknown) => void) | undefined
      const call = Effect.flatMap(FiberRef.get(CurrentCall), (control) =>
        Effect.sync(() => {
          end = control!.endWith
          return "done"
        })
      )
      expect(yield* withinCallBound(call, 5_000, () => "timed out")).toBe("done")
      end!("too late")
      const twice = Effect.flatMap(FiberRef.get(CurrentCall), (control) =>
        Effect.zipRight(
          Effect.sync(() => {
            control!.endWith("first")
            control!.endWith("second")
          }),
          Effect.never
        )
      )
      expect(yield* Effect.exit(withinCallBound(twice, 5_000, () => "timed out"))).toStrictEqual(Exit.fail("first"))
    })
  )

  it.live("interrupting the caller interrupts the call", () =>
    Effect.gen(function* () {
      const stopped = yield* Deferred.make<void>()
      const running = yield* Deferred.make<void>()
      const call = Effect.zipRight(Deferred.succeed(running, undefined), Effect.never).pipe(Effect.onInterrupt(() => Deferred.succeed(stopped, undefined)))
      const fiber = yield* Effect.fork(withinCallBound(call, 60_000, () => "timed out"))
      yield* Deferred.await(running)
      yield* Fiber.interrupt(fiber)
      yield* Deferred.await(stopped).pipe(Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => "the call kept running" }))
    })
  )

  it.live("an interrupted caller returns only once the call's finalizers have run", () =>
    Effect.gen(function* () {
      const running = yield* Deferred.make<void>()
      const finalized = yield* Ref.make(false)
      const call = Effect.zipRight(Deferred.succeed(running, undefined), Effect.never).pipe(
        Effect.ensuring(Effect.zipRight(Effect.sleep("50 millis"), Ref.set(finalized, true)))
      )
      const fiber = yield* Effect.fork(withinCallBound(call, 60_000, () => "timed out"))
      yield* Deferred.await(running)
      yield* Fiber.interrupt(fiber)
      expect(yield* Ref.get(finalized)).toBe(true)
    })
  )

  it.effect("the call runs with the caller's services and fiber-locals, in a fiber it owns (a fiber it forks is not)", () => {
    class Marker extends Context.Tag("test/Marker")<Marker, string>() {}
    const local = FiberRef.unsafeMake("default")
    return Effect.gen(function* () {
      const seen = yield* withinCallBound(
        Effect.gen(function* () {
          const control = yield* FiberRef.get(CurrentCall)
          const own = yield* Effect.withFiberRuntime((fiber) => Effect.succeed(control?.ownedBy(fiber)))
          const forked = yield* Fiber.join(yield* Effect.fork(Effect.withFiberRuntime((fiber) => Effect.succeed(control?.ownedBy(fiber)))))
          return { marker: yield* Marker, local: yield* FiberRef.get(local), own, forked }
        }),
        1_000,
        () => "timeout"
      ).pipe(Effect.provideService(Marker, "given"), Effect.locally(local, "set by the caller"))
      expect(seen).toStrictEqual({ marker: "given", local: "set by the caller", own: true, forked: false })
      // Outside the call, the caller's fiber is not the call's.
      expect(yield* FiberRef.get(CurrentCall)).toBeUndefined()
    })
  })
})
