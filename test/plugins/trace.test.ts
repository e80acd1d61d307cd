/**
 * The trace plugin without an app: the trace file is streamed (header first, a line per call as it ends),
 * the report says where the tokens went, and the token budget warns past its soft limit and refuses the
 * call that would pass the hard one with CALL_REFUSED, while the plugin's own tools stay callable.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient | undefined
afterEach(async () => {
  await mcp?.close()
  mcp = undefined
})

const tokensOf = (raw: any): number => raw._meta.size.approxTokens

const linesOf = (path: string) =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l))
    : []

/** The file's lines once it has `count` of them (records are appended off the call's fiber). */
const linesWhen = (path: string, count: number) =>
  Effect.sync(() => linesOf(path)).pipe(
    Effect.filterOrFail(
      (lines) => lines.length >= count,
      () => "not yet" as const
    ),
    Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds"))),
    Effect.orElse(() => Effect.sync(() => linesOf(path)))
  )

describe("the trace plugin", () => {
  it.live("streams the trace file: the header first, then each call appended as it ends", () =>
    Effect.gen(function* () {
      const outputDir = mkdtempSync(join(tmpdir(), "sw-trace-"))
      mcp = yield* Effect.promise(() => inMemoryClient({ plugins: ["trace"], outputDir, pluginConfig: { trace: { file: "streamed" } } }))
      const path = join(outputDir, "streamed.jsonl")
      const [header] = linesOf(path)
      expect(header).toMatchObject({ type: "header", schema: 1, plugins: ["trace"], allowEval: [] })
      expect(header.tokens).toMatch(/estimated/)
      const status = yield* Effect.promise(() => mcp!.call("electron_status"))
      const afterOne = yield* linesWhen(path, 2)
      expect(afterOne).toHaveLength(2)
      expect(afterOne[1]).toMatchObject({ type: "call", index: 1, tool: "electron_status", outcome: "ok", redacted: false, approxTokens: tokensOf(status.raw) })
      yield* Effect.promise(() => mcp!.call("electron_click", { target: "testid=x" }))
      const afterTwo = yield* linesWhen(path, 3)
      expect(afterTwo[2]).toMatchObject({ index: 2, tool: "electron_click", args: { target: "testid=x" }, outcome: "error", code: "APP_NOT_RUNNING" })
      const report = yield* Effect.promise(() => mcp!.call("electron_trace_report"))
      expect(report.isError, report.text).toBe(false)
      expect(report.text).toMatch(/^2 calls, ~\d+ answer tokens .*estimated.*, 1 error\./)
      expect(report.text).toContain(`Trace file: ${path} (2 calls written)`)
      expect(report.structured.byTool.map((t: any) => t.tool).sort()).toEqual(["electron_click", "electron_status"])
      expect(report.structured.approxTokens).toBe(afterTwo.slice(1).reduce((n: number, l: any) => n + l.approxTokens, 0))
    })
  )

  it.live("a hard budget of N tokens refuses the call that would pass it, with the figures; its own tools still answer", () =>
    Effect.gen(function* () {
      const hard = 1_000
      mcp = yield* Effect.promise(() => inMemoryClient({ plugins: ["trace"], pluginConfig: { trace: { record: false, hardTokens: hard } } }))
      const answered: Array<number> = []
      let refusal: any
      for (let i = 0; i < 30 && refusal === undefined; i++) {
        const result = yield* Effect.promise(() => mcp!.call("electron_plugins"))
        if (result.isError) refusal = result
        else answered.push(tokensOf(result.raw))
      }
      expect(refusal?.code, "no call was refused").toBe("CALL_REFUSED")
      const used = answered.reduce((a, b) => a + b, 0)
      // electron_plugins answers the same every time: the refused call would have taken the total past N.
      expect(used).toBeLessThanOrEqual(hard)
      expect(used + answered[0]!).toBeGreaterThan(hard)
      expect(refusal.text).toMatch(
        new RegExp(
          `^CALL_REFUSED: electron_plugins would pass the token budget: ~${used.toLocaleString("en-US")} used \\+ ~${answered[0]!.toLocaleString("en-US")} for this call .*> hard limit 1,000`
        )
      )
      expect(refusal.text).toMatch(/\nHint: Wrap up .*electron_trace_report.*ask the operator to raise hardTokens/)
      expect(refusal.structured.error).toMatchObject({ by: "trace", tool: "electron_plugins", usedTokens: used, hardTokens: hard })
      const report = yield* Effect.promise(() => mcp!.call("electron_trace_report"))
      expect(report.isError, report.text).toBe(false)
      expect(report.structured.budget).toMatchObject({ hard, refused: 1 })
      const raise = yield* Effect.promise(() => mcp!.call("electron_trace_budget", { hardTokens: 5_000 }))
      expect(raise.code).toBe("INVALID_ARGUMENT")
      expect(raise.text).toContain("above the operator's limit 1,000")
    })
  )

  it.live("past the soft limit answers carry a short warning; a budget set by the tool applies at once", () =>
    Effect.gen(function* () {
      mcp = yield* Effect.promise(() => inMemoryClient({ plugins: ["trace"], pluginConfig: { trace: { record: false } } }))
      const first = yield* Effect.promise(() => mcp!.call("electron_status"))
      expect(first.text).not.toContain("Note:")
      const set = yield* Effect.promise(() => mcp!.call("electron_trace_budget", { softTokens: 1 }))
      expect(set.isError, set.text).toBe(false)
      expect(set.structured).toMatchObject({ softTokens: 1, hardTokens: null })
      const warned = yield* Effect.promise(() => mcp!.call("electron_status"))
      expect(warned.isError).toBe(false)
      expect(warned.text).toMatch(/\nNote: ~[\d,]+ tokens used, past the soft budget 1; see electron_trace_report\.$/)
      expect(warned.structured.notes).toHaveLength(1)
      const hard = yield* Effect.promise(() => mcp!.call("electron_trace_budget", { softTokens: 0, hardTokens: 1 }))
      expect(hard.structured).toMatchObject({ softTokens: null, hardTokens: 1 })
      const refused = yield* Effect.promise(() => mcp!.call("electron_status"))
      expect(refused.code).toBe("CALL_REFUSED")
      expect(refused.text).toMatch(/Hint: .*raise hardTokens with electron_trace_budget\.$/)
    })
  )
})
