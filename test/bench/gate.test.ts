/**
 * The manifest budget gate on small in-memory baselines: nothing is tokenized here.
 */
import { describe, expect, it } from "@effect/vitest"
import { NodeContext } from "@effect/platform-node"
import { Effect, Either, Schema } from "effect"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  Baseline,
  BaselineJson,
  BUDGETS,
  compare,
  describeFinding,
  formatBaseline,
  grewTooMuch,
  updateBaseline,
  type BaselineVariant,
  type Snapshot
} from "../../src/bench/manifest/gate.js"
import { manifestCli } from "../../src/bench/manifest/cli.js"

const variant = (bpe: number, names: ReadonlyArray<string>): BaselineVariant => ({
  tools: names.length,
  codePoints: bpe * 4,
  bytes: bpe * 4,
  bpe,
  names: [...names]
})

/** Two variants; tool a = 500, b = 300, c = 150 BPE. */
const baseline: Baseline = {
  encoding: "o200k_base",
  variants: {
    "profile:small:safe": variant(1000, ["tool_a", "tool_b"]),
    "profile:small:eval": variant(1200, ["tool_a", "tool_b", "tool_c"])
  },
  toolBpe: { tool_a: 500, tool_b: 300, tool_c: 150 },
  history: [{ reason: "initial baseline", date: "2026-01-01T00:00:00.000Z", changes: [] }]
}

/** The baseline's figures with some variants replaced or removed. */
const snapshot = (variants: Record<string, BaselineVariant | undefined>, toolBpe: Record<string, number> = {}): Snapshot => {
  const merged: Record<string, BaselineVariant> = {}
  for (const [name, v] of Object.entries({ ...baseline.variants, ...variants })) if (v !== undefined) merged[name] = v
  return { variants: merged, toolBpe: { ...baseline.toolBpe, ...toolBpe } }
}

describe("manifest gate: compare", () => {
  it("passes an unchanged snapshot", () => {
    const result = compare(baseline, snapshot({}))
    expect(result.failures).toEqual([])
    expect(result.rows).toEqual([
      { variant: "profile:small:safe", before: 1000, after: 1000 },
      { variant: "profile:small:eval", before: 1200, after: 1200 }
    ])
  })

  it("fails a variant whose BPE grows 4%, naming the variant, the figures and the tool that grew", () => {
    const result = compare(baseline, snapshot({ "profile:small:safe": variant(1040, ["tool_a", "tool_b"]) }, { tool_a: 540 }))
    expect(result.failures).toHaveLength(1)
    const failure = result.failures[0]!
    expect(failure._tag).toBe("BpeGrew")
    if (failure._tag === "BpeGrew") {
      expect(failure).toMatchObject({ variant: "profile:small:safe", before: 1000, after: 1040 })
      expect(failure.growth).toBeCloseTo(0.04)
      expect(failure.grew).toEqual([{ name: "tool_a", before: 500, after: 540 }])
    }
    const message = describeFinding(failure)
    expect(message).toContain("profile:small:safe")
    expect(message).toContain("1000 -> 1040")
    expect(message).toContain("+4.0%")
    expect(message).toContain("tool_a 500 -> 540 (+40)")
    expect(message).not.toContain("tool_b")
  })

  it("passes a variant whose BPE grows 2%, and exactly 3%", () => {
    expect(compare(baseline, snapshot({ "profile:small:safe": variant(1020, ["tool_a", "tool_b"]) }, { tool_a: 520 })).failures).toEqual([])
    expect(compare(baseline, snapshot({ "profile:small:safe": variant(1030, ["tool_a", "tool_b"]) }, { tool_a: 530 })).failures).toEqual([])
    expect(grewTooMuch(1000, 1030)).toBe(false)
    expect(grewTooMuch(1000, 1031)).toBe(true)
    expect(grewTooMuch(0, 1)).toBe(true)
  })

  it("fails a variant over its absolute budget even when it grew less than the limit, naming the budget", () => {
    const budget = BUDGETS["everything:eval"]!
    const atBudget = { variants: { "everything:eval": variant(budget - 100, ["tool_a"]) }, toolBpe: {} }
    const only = (current: Snapshot) => ({ variants: { "everything:eval": current.variants["everything:eval"]! }, toolBpe: {} })
    expect(compare(atBudget, only(snapshot({ "everything:eval": variant(budget, ["tool_a"]) }))).failures).toEqual([])
    const over = compare(atBudget, only(snapshot({ "everything:eval": variant(budget + 1, ["tool_a"]) }))).failures
    expect(over.map((f) => f._tag)).toEqual(["OverBudget"])
    expect(describeFinding(over[0]!)).toBe(`everything:eval: ${budget + 1} BPE is over its budget of ${budget}`)
  })

  it("passes a variant that shrinks", () => {
    expect(compare(baseline, snapshot({ "profile:small:eval": variant(900, ["tool_a", "tool_b", "tool_c"]) })).failures).toEqual([])
  })

  it("fails a new variant", () => {
    const result = compare(baseline, snapshot({ "plugin:ipc:safe": variant(400, ["tool_ipc"]) }, { tool_ipc: 380 }))
    expect(result.failures.map((f) => f._tag)).toEqual(["VariantAdded"])
    expect(describeFinding(result.failures[0]!)).toMatch(/plugin:ipc:safe: new variant.*1 tools, 400 BPE/)
    expect(result.rows).toContainEqual({ variant: "plugin:ipc:safe", before: null, after: 400 })
  })

  it("fails a variant that disappears", () => {
    const result = compare(baseline, snapshot({ "profile:small:eval": undefined }))
    expect(result.failures.map((f) => f._tag)).toEqual(["VariantRemoved"])
    expect(describeFinding(result.failures[0]!)).toMatch(/profile:small:eval: variant disappeared.*3 tools, 1200 BPE/)
    expect(result.rows).toContainEqual({ variant: "profile:small:eval", before: 1200, after: null })
  })

  it("fails a changed name list even when the BPE does not grow", () => {
    const result = compare(baseline, snapshot({ "profile:small:safe": variant(990, ["tool_a", "tool_d"]) }, { tool_d: 290 }))
    expect(result.failures).toHaveLength(1)
    const failure = result.failures[0]!
    expect(failure._tag).toBe("NamesChanged")
    if (failure._tag === "NamesChanged") {
      expect(failure.added).toEqual(["tool_d"])
      expect(failure.removed).toEqual(["tool_b"])
    }
    expect(describeFinding(failure)).toBe("profile:small:safe: tool names changed: added tool_d; removed tool_b")
  })

  it("reports both a name change and the growth, with the new tool among those that grew", () => {
    const result = compare(baseline, snapshot({ "profile:small:safe": variant(1200, ["tool_a", "tool_b", "tool_c"]) }))
    expect(result.failures.map((f) => f._tag)).toEqual(["NamesChanged", "BpeGrew"])
    expect(describeFinding(result.failures[1]!)).toContain("tool_c (new, 150)")
  })
})

describe("manifest gate: update", () => {
  const grown = snapshot({ "profile:small:safe": variant(1040, ["tool_a", "tool_b"]) }, { tool_a: 540 })
  const date = new Date("2026-02-03T04:05:06.789Z")

  it("an update with a reason rewrites the baseline, records history, and the check passes afterwards", () => {
    expect(compare(baseline, grown).failures).not.toEqual([])
    const result = updateBaseline(baseline, grown, "  longer click description  ", date)
    expect(Either.isRight(result)).toBe(true)
    if (Either.isLeft(result)) return
    const updated = result.right.baseline
    expect(compare(updated, grown).failures).toEqual([])
    expect(updated.variants["profile:small:safe"]!.bpe).toBe(1040)
    expect(updated.toolBpe.tool_a).toBe(540)
    expect(updated.history).toHaveLength(2)
    expect(updated.history[0]).toEqual(baseline.history[0])
    expect(updated.history[1]).toEqual({
      reason: "longer click description",
      date: "2026-02-03T04:05:06.789Z",
      changes: [{ variant: "profile:small:safe", before: 1000, after: 1040 }]
    })
  })

  it("records added and removed variants with null on the missing side, and starts a history from nothing", () => {
    const changed = snapshot({ "profile:small:eval": undefined, "plugin:ipc:safe": variant(400, ["tool_ipc"]) }, { tool_ipc: 380 })
    const result = updateBaseline(baseline, changed, "ipc plugin lands", date)
    if (Either.isLeft(result)) throw result.left
    expect(result.right.entry.changes).toEqual([
      { variant: "plugin:ipc:safe", before: null, after: 400 },
      { variant: "profile:small:eval", before: 1200, after: null }
    ])
    const initial = updateBaseline(undefined, changed, "initial baseline", date)
    if (Either.isLeft(initial)) throw initial.left
    expect(initial.right.baseline.history).toHaveLength(1)
    expect(initial.right.entry.changes.every((c) => c.before === null)).toBe(true)
  })

  it("refuses an update without a reason", () => {
    for (const reason of [undefined, "", "   "]) {
      const result = updateBaseline(baseline, grown, reason, date)
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left._tag).toBe("MissingReason")
        expect(result.left.message).toContain("--reason")
      }
    }
  })

  it.effect("the update command refuses a missing or blank --reason before measuring, and writes nothing", () =>
    Effect.gen(function* () {
      const path = join(mkdtempSync(join(tmpdir(), "stagewright-manifest-")), "baseline.json")
      for (const extra of [[], ["--reason", "  "]]) {
        const result = yield* Effect.either(manifestCli(["node", "manifest", "update", "--baseline", path, ...extra]))
        expect(Either.isLeft(result) && result.left._tag).toBe("MissingReason")
      }
      expect(existsSync(path)).toBe(false)
    }).pipe(Effect.provide(NodeContext.layer))
  )
})

describe("manifest gate: the baseline file", () => {
  it("round-trips through its Schema", () => {
    const text = formatBaseline(baseline)
    expect(text.endsWith("}\n")).toBe(true)
    expect(Schema.decodeUnknownSync(BaselineJson)(text)).toEqual(baseline)
  })

  it("rejects a malformed baseline", () => {
    const decode = (value: unknown) => Schema.decodeUnknownEither(Baseline)(value)
    expect(Either.isRight(decode(baseline))).toBe(true)
    expect(Either.isLeft(decode({ ...baseline, encoding: "cl100k_base" }))).toBe(true)
    const unsorted = { ...baseline, variants: { ...baseline.variants, "profile:small:safe": variant(1000, ["tool_b", "tool_a"]) } }
    expect(Either.isLeft(decode(unsorted))).toBe(true)
    const miscounted = { ...baseline, variants: { ...baseline.variants, "profile:small:safe": { ...variant(1000, ["tool_a", "tool_b"]), tools: 3 } } }
    expect(Either.isLeft(decode(miscounted))).toBe(true)
    const { tool_c: _, ...withoutC } = baseline.toolBpe
    expect(Either.isLeft(decode({ ...baseline, toolBpe: withoutC }))).toBe(true)
    expect(Either.isLeft(decode({ ...baseline, history: [{ reason: " ", date: "2026-01-01T00:00:00.000Z", changes: [] }] }))).toBe(true)
    expect(Either.isLeft(decode({ ...baseline, history: [{ reason: "x", date: "yesterday", changes: [] }] }))).toBe(true)
  })
})
