/**
 * The overhead report's ratio paired by round (src/bench/overhead/report.ts): a slow spell that moves both runners in a
 * round leaves it where the ratio of whole-run medians moves.
 */
import { describe, expect, it } from "vitest"
import { pairedByRound } from "../../src/bench/overhead/report.js"
import { median } from "../../src/bench/overhead/runners.js"

const timings = (runs: Record<string, Record<string, ReadonlyArray<number>>>) =>
  new Map(Object.entries(runs).map(([runner, calls]) => [runner, new Map(Object.entries(calls))]))

describe("pairedByRound", () => {
  it("is the median over rounds of a round's sum over the reference's sum in it", () => {
    const t = timings({
      direct: { fill: [10, 10, 10], click: [30, 30, 30] },
      ours: { fill: [12, 14, 11], click: [36, 30, 29] }
    })
    // Rounds: 48/40 = 1.2, 44/40 = 1.1, 40/40 = 1.0.
    expect(pairedByRound(t, ["fill", "click"], "ours", "direct")).toBeCloseTo(1.1, 10)
    expect(pairedByRound(t, ["fill"], "ours", "direct")).toBeCloseTo(1.2, 10)
  })

  it("is not moved by a slow spell that moves both runners of a round, where the ratio of medians is", () => {
    // The machine slows down from round 3 on. Through `ours` a call costs 1.1x the direct one of its round, except in
    // round 3, where the direct call met the start of the slow spell and ours did not.
    const direct = [60, 60, 90, 90, 90]
    const t = timings({ direct: { click: direct }, ours: { click: [66, 66, 55, 99, 99] } })
    expect(pairedByRound(t, ["click"], "ours", "direct")).toBeCloseTo(1.1, 10)
    expect(median([66, 66, 55, 99, 99]) / median(direct)).not.toBeCloseTo(1.1, 1)
  })
})
