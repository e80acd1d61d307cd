/**
 * The overhead benchmark's turn order (src/bench/overhead/runners.ts, turnOrder): every runner once a turn, the same
 * order run after run, and no runner kept behind the same one (what a call leaves running is paid by the next).
 */
import { describe, expect, it } from "vitest"
import { turnOrder } from "../../src/bench/overhead/runners.js"

describe("turnOrder", () => {
  it("makes every runner take the turn once, in the same order on every run", () => {
    for (let round = 1; round <= 20; round++) {
      for (let type = 0; type < 8; type++) {
        const order = turnOrder(10, round, type)
        expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        expect(turnOrder(10, round, type)).toEqual(order)
      }
    }
  })

  it("puts each runner behind each other one about equally often over a run", () => {
    const runners = 10
    // 40 rounds of 8 call types, as `npm run bench:overhead -- --rounds 40` makes them.
    const behind = Array.from({ length: runners }, () => new Array<number>(runners).fill(0))
    const turns = new Set<string>()
    for (let round = 1; round <= 40; round++) {
      for (let type = 0; type < 8; type++) {
        const order = turnOrder(runners, round, type)
        turns.add(order.join(","))
        for (let k = 1; k < order.length; k++) behind[order[k]!]![order[k - 1]!]! += 1
      }
    }
    // A rotation gives 320 turns of 10 orders and each runner the same predecessor every time (288 of 288).
    expect(turns.size).toBeGreaterThan(300)
    for (let runner = 0; runner < runners; runner++) {
      const counts = behind[runner]!.filter((_, other) => other !== runner)
      // 288 pairs a runner over 9 others: 32 each on average; none is missing or holds a third of them.
      expect(Math.min(...counts)).toBeGreaterThan(10)
      expect(Math.max(...counts)).toBeLessThan(96)
    }
  })
})
