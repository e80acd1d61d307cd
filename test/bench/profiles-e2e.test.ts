/**
 * The profile benchmark end to end, kept small: two tasks on two variants through the real in-memory
 * MCP pair, a real app per task, the independent checks, and the report files.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseRunArgs, runBench } from "../../src/bench/profiles/cli.js"

describe("profile benchmark end to end", () => {
  it.live(
    "runs form-submit and drag-reorder on essential and full: both solve both (essential lists electron_drag, ADR 0001 A4), the control fails both",
    () =>
      Effect.gen(function* () {
        const dir = mkdtempSync(join(tmpdir(), "profiles-e2e-"))
        const out = join(dir, "report.json")
        const args = yield* parseRunArgs([
          "--tasks",
          "form-submit,drag-reorder",
          "--variants",
          "essential,full",
          "--out",
          out,
          "--task-timeout",
          "90000",
          "--repeats",
          "1",
          "--decide-repeats",
          "1"
        ])
        const report = yield* runBench(args)
        const get = (task: string, variant: string) => report.results.find((r) => r.task === task && r.variant === variant)
        expect(report.results).toHaveLength(4)
        expect(get("form-submit", "essential")?.success).toBe(true)
        expect(get("form-submit", "full")?.success).toBe(true)
        expect(get("drag-reorder", "full")?.success).toBe(true)
        expect(get("drag-reorder", "essential")?.success).toBe(true)
        expect(get("drag-reorder", "essential")!.steps?.map((x) => x.tool)).toContain("electron_drag")
        // The manifest is counted once per task and essential lists fewer tools than full.
        expect(get("form-submit", "essential")!.manifestBpe).toBeLessThan(get("form-submit", "full")!.manifestBpe)
        for (const r of report.results) {
          expect(r.totalBpe).toBe(r.manifestBpe + r.responseBpe + r.requestBpe)
          // Both accountings; the agent aimed only at what it had seen.
          expect(r.eagerBpe).toBeGreaterThan(r.manifestBpe)
          expect(r.onDemandBpe).toBeGreaterThan(r.responseBpe)
          expect(r.unseen ?? []).toEqual([])
        }
        expect(get("form-submit", "full")!.onDemandBpe).toBeLessThan(get("form-submit", "full")!.eagerBpe!)
        // Every step the agent took carries its plain-words intent and the tool it used; the proxy ranked them all.
        const steps = get("form-submit", "full")!.steps ?? []
        expect(steps[0]).toEqual({ intent: "open the app", tool: "electron_launch" })
        expect(report.verdicts.filter((v) => v.governs).map((v) => v.accounting)).toEqual(["eager", "on demand"])
        expect(steps.find((x) => x.intent === "press the Add task button")?.tool).toBe("electron_click")
        expect(get("drag-reorder", "full")!.steps?.map((x) => x.tool)).toContain("electron_drag")
        const selection = report.selection!
        expect(selection.summaries.map((x) => x.variant)).toEqual(["essential", "full"])
        for (const x of selection.summaries) {
          expect(x.steps).toBe(report.results.filter((r) => r.variant === x.variant).reduce((n, r) => n + (r.steps?.length ?? 0), 0))
          expect(x.top1).toBeLessThanOrEqual(x.top3)
        }
        expect(readFileSync(join(dir, "report.md"), "utf8")).toContain("## Selection proxy")
        // The idle, read-only and claim controls on each task (neither task names a route): every check fails them.
        expect(report.control).toHaveLength(6)
        expect(report.controlSuccesses).toBe(0)
        expect(JSON.parse(readFileSync(out, "utf8")).results).toHaveLength(4)
        expect(readFileSync(join(dir, "report.md"), "utf8")).toContain("| drag-reorder |")
        expect(existsSync(join(dir, "report.svg"))).toBe(true)
        rmSync(dir, { recursive: true, force: true })
      }),
    240_000
  )
})
