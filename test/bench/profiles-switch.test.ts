/**
 * The essential+switch variant of the profile benchmark: the agent starts in essential with
 * --allow-profile-switch and knows no tool it was not listed. When a step's verb is not listed it switches to
 * the largest profile electron_profile offers, reads the new list and finds the tool by searching it (BM25 over
 * names and descriptions), as a deferring host's model would.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type AgentOptions, makeAgent, switchHint } from "../../src/bench/profiles/agent.js"
import { parseRunArgs, runBench } from "../../src/bench/profiles/cli.js"
import { ALL_VARIANTS, VARIANTS } from "../../src/bench/profiles/run.js"

describe("profile benchmark: essential+switch", () => {
  it("reads the switch hint and offers the variant beside the eight profile variants", () => {
    expect(
      switchHint(
        'TOOL_NOT_IN_PROFILE: electron_hover is not in the active tool profile (essential)\nHint: call electron_profile { "profile": "testing" } (the tool list changes), then call electron_hover again'
      )
    ).toBe("testing")
    expect(switchHint("TOOL_NOT_IN_PROFILE: x\nHint: restart with --tool-profile testing")).toBeUndefined()
    expect(ALL_VARIANTS.map((v) => v.name)).toEqual([...VARIANTS.map((v) => v.name), "essential+switch"])
    expect(ALL_VARIANTS.at(-1)).toMatchObject({ profile: "essential", allowEval: false, profileSwitch: true })
  })

  it("knows no catalog: an unlisted tool is usable only through electron_profile, and eval tools not when eval is off", () => {
    const client = {} as AgentOptions["client"]
    const plain = makeAgent({ client, tools: ["electron_click"], perCallTimeoutMs: 1000 })
    expect(plain.has("electron_click")).toBe(true)
    expect(plain.has("electron_drag")).toBe(false)
    const switching = makeAgent({
      client,
      tools: ["electron_click", "electron_profile"],
      perCallTimeoutMs: 1000,
      instructions: "Active: profile essential; plugins none; eval off."
    })
    expect(switching.has("electron_drag")).toBe(true)
    expect(switching.has("electron_eval_main")).toBe(false)
  })

  it.live(
    "solves import-tasks with a tool essential does not list (electron_dialog_stub) by switching to full once and finding it by search",
    () =>
      Effect.gen(function* () {
        const dir = mkdtempSync(join(tmpdir(), "profiles-switch-"))
        const args = yield* parseRunArgs([
          "--tasks",
          "import-tasks",
          "--variants",
          "essential+switch",
          "--no-control",
          "--out",
          join(dir, "report.json"),
          "--task-timeout",
          "90000"
        ])
        const report = yield* runBench(args)
        const r = report.results[0]!
        expect(r).toMatchObject({ task: "import-tasks", variant: "essential+switch", success: true })
        expect(r.toolsUsed).toEqual(expect.arrayContaining(["electron_profile", "electron_dialog_stub"]))
        // No call to a tool it was not listed: the switch comes first, then the new tools/list (counted as manifest).
        expect(r.failedCalls).toBe(0)
        expect(r.totalBpe).toBe(r.manifestBpe + r.responseBpe + r.requestBpe)
        rmSync(dir, { recursive: true, force: true })
      }),
    240_000
  )
})
