/**
 * The driver's way of starting a playwright-core call from an Effect (src/layers/driver/shallow.ts): from a
 * microtask, so the call captures a shallow stack; and bounded by a timer of its own instead of Effect.timeout.
 */
import { Effect, Fiber } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { PastBound, shallow, shallowWithin } from "../../src/layers/driver/shallow.js"

afterEach(() => {
  vi.useRealTimers()
})

describe("shallow", () => {
  it("starts the call from a microtask, under a stack shallower than the caller's", async () => {
    const depth = () => (new Error().stack ?? "").split("\n").length
    const nested = (n: number): Promise<number> => (n === 0 ? shallow(async () => depth()) : nested(n - 1))
    let started = false
    const called = shallow(async () => {
      started = true
    })
    expect(started).toBe(false)
    await called
    expect(started).toBe(true)
    const direct = (n: number): number => (n === 0 ? depth() : direct(n - 1))
    expect(await nested(30)).toBeLessThan(direct(30))
  })
})

describe("shallowWithin", () => {
  it("answers what the call answers, and leaves no timer behind", async () => {
    vi.useFakeTimers()
    const answer = shallowWithin(1_000, async () => 42)
    await expect(answer).resolves.toBe(42)
    expect(vi.getTimerCount()).toBe(0)
  })

  it("passes the call's own failure on", async () => {
    await expect(shallowWithin(1_000, () => Promise.reject(new Error("Target closed")))).rejects.toThrow("Target closed")
  })

  it("rejects with PastBound once its bound passes, while the call is still under way", async () => {
    vi.useFakeTimers()
    let finish: (value: number) => void = () => undefined
    const answer = shallowWithin(2_000, () => new Promise<number>((resolve) => (finish = resolve)))
    const outcome = answer.then(
      () => "answered",
      (error: unknown) => error
    )
    await vi.advanceTimersByTimeAsync(1_999)
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    const error = await outcome
    expect(error).toBeInstanceOf(PastBound)
    expect((error as PastBound).message).toBe("no answer within 2000 ms")
    finish(1)
  })

  it("clears its timer when the Effect around it is interrupted (its signal aborts)", async () => {
    vi.useFakeTimers()
    const fiber = Effect.runFork(Effect.tryPromise((signal) => shallowWithin(60_000, () => new Promise<never>(() => undefined), signal)))
    await vi.advanceTimersByTimeAsync(0)
    expect(vi.getTimerCount()).toBe(1)
    await Effect.runPromise(Fiber.interrupt(fiber))
    expect(vi.getTimerCount()).toBe(0)
  })
})
