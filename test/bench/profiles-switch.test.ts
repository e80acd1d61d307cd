/**
 * The essential+switch variant of the profile benchmark: the agent starts in essential with
 * --allow-profile-switch and, on TOOL_NOT_IN_PROFILE naming electron_profile, switches and retries.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { switchHint } from "../../src/bench/profiles/agent.js"
import { parseRunArgs, runBench } from "../../src/bench/profiles/cli.js"
import { ALL_VARIANTS, VARIANTS } from "../../src/bench/profiles/run.js"

describe("profile benchmark: essential+switch", () => {
  it("reads the switch hint and offers the variant beside the eight profile variants", () => {
    expect(switchHint('TOOL_NOT_IN_PROFILE: electron_hover is not in the active tool profile (essential)\nHint: call electron_profile { "profile": "testing" } (the tool list changes), then call electron_hover again')).toBe("testing")
    expect(switchHint("TOOL_NOT_IN_PROFILE: x\nHint: restart with --tool-profile testing")).toBeUndefined()
    expect(ALL_VARIANTS.map((v) => v.name)).toEqual([...VARIANTS.map((v) => v.name), "essential+switch"])
    expect(ALL_VARIANTS.at(-1)).toMatchObject({ profile: "essential", allowEval: false, profileSwitch: true })
  })

  it.live(
    "solves drag-reorder, which essential misses, by switching to testing once",
    () =>
      Effect.gen(function* () {
        const dir = mkdtempSync(join(tmpdir(), "profiles-switch-"))
        const args = yield* parseRunArgs(["--tasks", "drag-reorder", "--variants", "essential+switch", "--no-control", "--out", join(dir, "report.json"), "--task-timeout", "90000"])
        const report = yield* runBench(args)
        const r = report.results[0]!
        expect(r).toMatchObject({ task: "drag-reorder", variant: "essential+switch", success: true })
        expect(r.toolsUsed).toEqual(expect.arrayContaining(["electron_profile", "electron_drag"]))
        // The refused call, the switch and the retry; the new tools/list counts as manifest too.
        expect(r.failedCalls).toBe(1)
        expect(r.totalBpe).toBe(r.manifestBpe + r.responseBpe + r.requestBpe)
        rmSync(dir, { recursive: true, force: true })
      }),
    240_000
  )
})
