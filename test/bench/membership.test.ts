/**
 * The profile-membership gate: `npm run manifest:check` refuses a profile whose tools differ from what ADR
 * 0001's latest amendment records, and passes once an amendment records them. The pure parts run on small
 * texts; the command runs on the committed baseline (the real variants are measured, ~4 s a run).
 */
import { describe, expect, it } from "@effect/vitest"
import { NodeContext } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { checkManifest, currentMembership, DEFAULT_ADR, DEFAULT_BASELINE, nextMembershipBlock } from "../../src/bench/manifest/cli.js"
import {
  describeDiff,
  diffMembership,
  formatMembershipBlock,
  isUnchanged,
  latestMembership,
  MEMBERSHIP_MARKER,
  membershipOf,
  type Membership
} from "../../src/bench/manifest/membership.js"
import { DEFAULT_PROFILE } from "../../src/profile/profiles.js"

const small: Membership = membershipOf("wide", { narrow: ["tool_b", "tool_a"], wide: ["tool_a", "tool_b", "tool_c"] })

const adrWith = (...blocks: ReadonlyArray<string>) => ["# ADR 0001", "", "Some prose.", "", ...blocks.flatMap((b) => [b, "Prose between."])].join("\n")

describe("membership record: reading the ADR", () => {
  it("takes the last block in the file as the latest amendment", () => {
    const older = formatMembershipBlock("A1", "2026-01-01", small)
    const newer = formatMembershipBlock("A2", "2026-02-01", membershipOf("narrow", { narrow: ["tool_a"], wide: ["tool_a", "tool_c"] }))
    const latest = latestMembership("adr.md", adrWith(older, newer))
    if (Either.isLeft(latest)) throw latest.left
    expect(latest.right.amendment).toBe("A2")
    expect(latest.right.default).toBe("narrow")
    expect(latest.right.profiles).toEqual({ narrow: ["tool_a"], wide: ["tool_a", "tool_c"] })
  })

  it("refuses a file with no block, a marker with no block after it, unsorted names, an unknown default and a label used twice", () => {
    const tagOf = (text: string) => {
      const result = latestMembership("adr.md", text)
      return Either.isLeft(result) ? result.left._tag : "ok"
    }
    expect(tagOf("# ADR 0001\n\nNo record here.\n")).toBe("AdrMembershipMissing")
    expect(tagOf(adrWith(formatMembershipBlock("A1", "2026-01-01", small), `${MEMBERSHIP_MARKER}\n(to be written)`))).toBe("AdrMembershipInvalid")
    const unsorted = `${MEMBERSHIP_MARKER}\n\`\`\`json\n{"amendment":"A1","date":"2026-01-01","default":"p","profiles":{"p":["tool_b","tool_a"]}}\n\`\`\``
    expect(tagOf(adrWith(unsorted))).toBe("AdrMembershipInvalid")
    const badDefault = `${MEMBERSHIP_MARKER}\n\`\`\`json\n{"amendment":"A1","date":"2026-01-01","default":"q","profiles":{"p":["tool_a"]}}\n\`\`\``
    expect(tagOf(adrWith(badDefault))).toBe("AdrMembershipInvalid")
    const block = formatMembershipBlock("A1", "2026-01-01", small)
    expect(tagOf(adrWith(block, block))).toBe("AdrMembershipInvalid")
    expect(tagOf(adrWith(block))).toBe("ok")
  })

  it("names the invalid block and the field", () => {
    const broken = `${MEMBERSHIP_MARKER}\n\`\`\`json\n{"amendment":"A1","date":"January","default":"p","profiles":{"p":["tool_a"]}}\n\`\`\``
    const result = latestMembership("docs/adr/0001.md", adrWith(formatMembershipBlock("A1", "2026-01-01", small), broken))
    expect(Either.isLeft(result) && result.left.message).toMatch(/block 2 of docs\/adr\/0001\.md[\s\S]*date/)
  })
})

describe("membership record: comparing with the code", () => {
  it("finds nothing when the lists match, whatever their order in the code", () => {
    expect(isUnchanged(diffMembership(small, membershipOf("wide", { narrow: ["tool_a", "tool_b"], wide: ["tool_c", "tool_b", "tool_a"] })))).toBe(true)
  })

  it("names the tools added and removed per profile, a new or gone profile, and a new default", () => {
    const current = membershipOf("narrow", { narrow: ["tool_a", "tool_d"], extra: ["tool_e"] })
    const diff = diffMembership(small, current)
    expect(diff.profiles).toEqual([
      { profile: "narrow", kind: "changed", added: ["tool_d"], removed: ["tool_b"] },
      { profile: "extra", kind: "new", added: ["tool_e"], removed: [] },
      { profile: "wide", kind: "gone", added: [], removed: ["tool_a", "tool_b", "tool_c"] }
    ])
    expect(describeDiff(diff)).toEqual([
      "narrow: added tool_d; removed tool_b",
      "extra (a new profile): added tool_e",
      "wide (no longer a profile): removed tool_a, tool_b, tool_c",
      "default: wide -> narrow"
    ])
  })
})

describe("the committed ADR 0001", () => {
  it("records, in its latest amendment, the profiles src/profile holds now and the default", () => {
    const latest = latestMembership(DEFAULT_ADR, readFileSync(DEFAULT_ADR, "utf8"))
    if (Either.isLeft(latest)) throw latest.left
    const diff = diffMembership(latest.right, currentMembership())
    expect(describeDiff(diff)).toEqual([])
    expect(latest.right.profiles.essential).toContain("electron_launch")
    expect(latest.right.default).toBe(DEFAULT_PROFILE)
    expect(DEFAULT_PROFILE).toBe("essential") // amendment A5: the benchmark's rule made essential the default
  })
})

describe("npm run manifest:check holds the profiles to ADR 0001", () => {
  /** The code's membership with electron_wait_for_window moved into essential and electron_check out of it. */
  const changed = (): Membership => {
    const now = currentMembership()
    const essential = [...now.profiles.essential!.filter((t) => t !== "electron_check"), "electron_wait_for_window"]
    return membershipOf(now.default, { ...now.profiles, essential })
  }

  it.effect(
    "fails a changed membership without an amendment, naming the tools; passes once an amendment records it",
    () =>
      Effect.gen(function* () {
        const adr = join(mkdtempSync(join(tmpdir(), "stagewright-adr-")), "0001.md")
        const committed = readFileSync(DEFAULT_ADR, "utf8")
        writeFileSync(adr, committed)
        const paths = { baseline: DEFAULT_BASELINE, adr }

        const recorded = latestMembership(adr, committed)
        if (Either.isLeft(recorded)) throw recorded.left
        const label = recorded.right.amendment
        const next = `A${Number(label.slice(1)) + 1}`
        const unchanged = yield* Effect.either(checkManifest(paths))
        expect(Either.isRight(unchanged) && unchanged.right).toContain(
          `Profile membership OK: 4 profiles and the default (${DEFAULT_PROFILE}) as ADR 0001 amendment ${label}`
        )

        const refused = yield* Effect.either(checkManifest(paths, changed()))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("ProfileMembershipNotAmended")
        const message = Either.isLeft(refused) ? refused.left.message : ""
        expect(message).toContain("essential: added electron_wait_for_window; removed electron_check")
        expect(message).toContain("add an amendment")
        expect(message).not.toContain("budget check also failed")

        // The amendment: prose and the block the membership command prints, appended at the end.
        const amendment = `\n### The next amendment (test): electron_wait_for_window into essential\n\nWhy, with evidence.\n\n${nextMembershipBlock(committed, adr, new Date("2026-12-31T00:00:00Z"), changed())}`
        writeFileSync(adr, committed + amendment)
        const accepted = yield* Effect.either(checkManifest(paths, changed()))
        expect(Either.isRight(accepted) && accepted.right).toContain(`as ADR 0001 amendment ${next} (2026-12-31) records them`)

        // The amended record no longer fits the unchanged code: the gate holds both ways.
        const back = yield* Effect.either(checkManifest(paths))
        expect(Either.isLeft(back) && back.left.message).toContain("essential: added electron_check; removed electron_wait_for_window")
      }).pipe(Effect.provide(NodeContext.layer)),
    120_000
  )
})
