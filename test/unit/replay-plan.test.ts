/**
 * What `stagewright replay` does with each recorded step (src/cli/replay.ts planStep, readTrace): redacted
 * arguments are skipped and said so, a launch's redacted env values come from --env (or are left unset,
 * named), --app replaces the launch's app, refused calls and the trace plugin's tools are skipped; a file
 * that is not a trace of this schema is refused naming the line.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { planStep, readTrace } from "../../src/cli/replay.js"
import type { TraceCall } from "../../src/plugins/trace/format.js"

const call = (tool: string, args: unknown, extra: Partial<TraceCall> = {}): TraceCall => ({
  type: "call",
  index: 1,
  tool,
  args,
  redacted: false,
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1,
  outcome: "ok",
  chars: 10,
  approxTokens: 3,
  ...extra
})
const none = { env: new Map<string, string>() }

describe("replay's plan of a step", () => {
  it("skips a step whose arguments hold a redaction, anywhere", () => {
    expect(planStep(call("electron_fill", { target: "label=Password", value: "«redacted»" }, { redacted: true }), none)).toEqual({
      run: false,
      reason: "its arguments were redacted (a secret was never recorded)"
    })
    expect(
      planStep(
        call("electron_fill_form", {
          fields: [
            { target: "a", value: "x" },
            { target: "b", value: "Bearer «redacted»" }
          ]
        }),
        none
      ).run
    ).toBe(false)
  })

  it("gives a launch's redacted env values from --env, leaves the others unset and says which; --app replaces its app", () => {
    const plan = planStep(call("electron_launch", { app: "/old/app", env: { A: "«redacted»", B: "«redacted»" } }, { redacted: true }), {
      app: "/new/app",
      env: new Map([["A", "given"]])
    })
    expect(plan).toEqual({ run: true, args: { app: "/new/app", env: { A: "given" } }, notes: ["env B left unset (redacted; give it with --env B=VALUE)"] })
  })

  it("skips calls the budget refused and the trace plugin's own tools, and runs the rest as recorded", () => {
    expect(planStep(call("electron_click", { target: "e3" }, { outcome: "error", code: "CALL_REFUSED" }), none).run).toBe(false)
    expect(planStep(call("electron_trace_report", {}), none).run).toBe(false)
    expect(planStep(call("electron_click", { target: "e3" }), none)).toEqual({ run: true, args: { target: "e3" }, notes: [] })
  })

  it.effect("refuses a file that is not a trace of this schema, naming the line", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(join(tmpdir(), "sw-replay-plan-"))
      const other = join(dir, "other.jsonl")
      writeFileSync(other, `${JSON.stringify({ type: "header", schema: 99 })}\n`)
      expect((yield* Effect.flip(readTrace(other))).message).toMatch(/other\.jsonl:1: not a Stagewright trace header of schema 1/)
      const broken = join(dir, "broken.jsonl")
      writeFileSync(
        broken,
        `${JSON.stringify({ type: "header", schema: 1, stagewright: "0.1.0", startedAt: "x", plugins: [], allowEval: [], tokens: "t" })}\n{oops\n`
      )
      expect((yield* Effect.flip(readTrace(broken))).message).toBe(`${broken}:2: not JSON`)
    })
  )
})
