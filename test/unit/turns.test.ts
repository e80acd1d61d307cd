/**
 * The line of calls that change the app (src/server/turns.ts): one at a time, in the order they came, the turn
 * handed on directly (a call arriving meanwhile does not take it first), a call interrupted while it waits leaves
 * the line, and one handed the turn as it is interrupted hands it on.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { makeTurns, type Ticket } from "../../src/server/turns.js"

const ticket = (): Ticket => ({ waiting: false })

describe("turns", () => {
  it.effect("runs calls one at a time in the order they came, and says who holds the turn", () =>
    Effect.gen(function* () {
      const turns = makeTurns()
      const log: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const first = turns.inTurn(
        "first",
        ticket(),
        Effect.zipRight(
          Effect.sync(() => log.push("first starts")),
          Deferred.await(gate)
        )
      )
      const a = yield* Effect.fork(first)
      yield* Effect.yieldNow()
      expect(turns.holder()?.tool).toBe("first")
      const tickets = [ticket(), ticket(), ticket()]
      const rest = yield* Effect.forEach(["second", "third", "fourth"], (name, i) =>
        Effect.fork(
          turns.inTurn(
            name,
            tickets[i]!,
            Effect.sync(() => log.push(name))
          )
        )
      )
      yield* Effect.yieldNow()
      expect(tickets.map((t) => t.waiting)).toEqual([true, true, true])
      expect(log).toEqual(["first starts"])
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(a)
      yield* Effect.forEach(rest, Fiber.join)
      expect(log).toEqual(["first starts", "second", "third", "fourth"])
      expect(tickets.map((t) => t.waiting)).toEqual([false, false, false])
      expect(turns.holder()).toBeUndefined()
    })
  )

  it.effect("hands the turn to the next in line, not to a call that arrives as it is released", () =>
    Effect.gen(function* () {
      const turns = makeTurns()
      const log: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const a = yield* Effect.fork(turns.inTurn("a", ticket(), Deferred.await(gate)))
      yield* Effect.yieldNow()
      const b = yield* Effect.fork(
        turns.inTurn(
          "b",
          ticket(),
          Effect.sync(() => log.push("b"))
        )
      )
      yield* Effect.yieldNow()
      // Released and, in the same step, a newcomer asks: the waiting call goes first.
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(a)
      yield* turns.inTurn(
        "late",
        ticket(),
        Effect.sync(() => log.push("late"))
      )
      yield* Fiber.join(b)
      expect(log).toEqual(["b", "late"])
    })
  )

  it.effect("a call interrupted while it waits leaves the line; the others keep their order", () =>
    Effect.gen(function* () {
      const turns = makeTurns()
      const log: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const a = yield* Effect.fork(turns.inTurn("a", ticket(), Deferred.await(gate)))
      yield* Effect.yieldNow()
      const leaving = ticket()
      const b = yield* Effect.fork(
        turns.inTurn(
          "b",
          leaving,
          Effect.sync(() => log.push("b"))
        )
      )
      const c = yield* Effect.fork(
        turns.inTurn(
          "c",
          ticket(),
          Effect.sync(() => log.push("c"))
        )
      )
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(b)
      expect(leaving.waiting).toBe(false)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(a)
      yield* Fiber.join(c)
      expect(log).toEqual(["c"])
      expect(turns.holder()).toBeUndefined()
    })
  )

  it.effect("a failing or interrupted call in its turn hands the turn on", () =>
    Effect.gen(function* () {
      const turns = makeTurns()
      const failed = yield* Effect.either(turns.inTurn("fails", ticket(), Effect.fail("no")))
      expect(failed._tag).toBe("Left")
      const never = yield* Effect.fork(turns.inTurn("hangs", ticket(), Effect.never))
      yield* Effect.yieldNow()
      expect(turns.holder()?.tool).toBe("hangs")
      yield* Fiber.interrupt(never)
      expect(yield* turns.inTurn("next", ticket(), Effect.succeed("ran"))).toBe("ran")
    })
  )
})
