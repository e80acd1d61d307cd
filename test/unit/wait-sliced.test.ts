/**
 * The driver's sliced wait over a fake Playwright call: a call that succeeds at once is made once; one that
 * says "not yet" is made again, each time within a slice of what is left, until it succeeds or the deadline
 * passes; any other failure ends the wait at once. Runs on the live clock (the wait reads the wall clock).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { OperationFailed, Timeout, type PlaywrightError } from "../../src/layers/driver/errors.js"
import { waitSliced } from "../../src/layers/driver/waits.js"

/** A fake call that answers from `outcomes` in turn (the last one repeats) and records each slice it was given. */
const scripted = (outcomes: ReadonlyArray<"ok" | "not yet" | "broken">) => {
  const slices: Array<number> = []
  const run = (sliceMs: number): Effect.Effect<string, PlaywrightError> =>
    Effect.suspend((): Effect.Effect<string, PlaywrightError> => {
      const outcome = outcomes[Math.min(slices.length, outcomes.length - 1)]
      slices.push(sliceMs)
      if (outcome === "ok") return Effect.succeed(`done after ${slices.length}`)
      if (outcome === "not yet") return Effect.fail(new Timeout({ message: "Timeout 1000ms exceeded", hint: "" }))
      return Effect.fail(new OperationFailed({ message: "the page crashed", hint: "" }))
    })
  return { run, slices }
}

describe("waitSliced", () => {
  it.live("a call that succeeds at once is made once, within one slice", () =>
    Effect.gen(function* () {
      const { run, slices } = scripted(["ok"])
      expect(yield* waitSliced(run, 5_000)).toBe("done after 1")
      expect(slices).toHaveLength(1)
      expect(slices[0]).toBeLessThanOrEqual(1_000)
      expect(slices[0]).toBeGreaterThan(900)
    })
  )

  it.live("a call that says 'not yet' is made again until it succeeds", () =>
    Effect.gen(function* () {
      const { run, slices } = scripted(["not yet", "not yet", "ok"])
      expect(yield* waitSliced(run, 5_000)).toBe("done after 3")
      expect(slices).toHaveLength(3)
    })
  )

  it.live("a failure that is not a wait's ends the wait at once, after a 'not yet' too", () =>
    Effect.gen(function* () {
      const first = scripted(["broken", "ok"])
      const exit = yield* Effect.exit(waitSliced(first.run, 5_000))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("OperationFailed")
      expect(first.slices).toHaveLength(1)
      const later = scripted(["not yet", "broken", "ok"])
      const laterExit = yield* Effect.exit(waitSliced(later.run, 5_000))
      expect(Exit.isFailure(laterExit) && laterExit.cause._tag === "Fail" && laterExit.cause.error._tag).toBe("OperationFailed")
      expect(later.slices).toHaveLength(2)
    })
  )

  it.live("a call that never succeeds is given slices of what is left and fails with its last 'not yet' at the deadline", () =>
    Effect.gen(function* () {
      const { run, slices } = scripted(["not yet"])
      const started = Date.now()
      const exit = yield* Effect.exit(waitSliced(run, 60))
      expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("Timeout")
      expect(Date.now() - started).toBeGreaterThanOrEqual(50)
      expect(slices.length).toBeGreaterThan(1)
      expect(slices.every((slice) => slice >= 1 && slice <= 60)).toBe(true)
    })
  )
})
