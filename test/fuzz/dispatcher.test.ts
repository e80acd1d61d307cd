/**
 * Fuzzing the Dispatcher directly, without an app: thousands of valid-shaped and malformed calls to
 * every core tool and both eval tools. Every call must resolve to a result; an error result carries a
 * code from ErrorCodes, its text starts with `CODE: `, and no call ends in INTERNAL_ERROR (a defect).
 * No unhandled rejection may occur during the run.
 *
 * The seed is fixed (FUZZ_SEED overrides it) and printed with the counts, so a failure reproduces.
 */
import { afterAll, beforeAll, describe, expect, it, layer } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { checkResult, FuzzTally, fuzzSeed, nested, planCalls, runCalls, mayDecode, wouldDecode } from "../../src/bench/fuzz/index.js"
import { coreLayer, Dispatcher } from "../../src/index.js"
import { coreTools } from "../../src/server/tools.js"
import { manifestEntry } from "../../src/tools/pipeline/manifest.js"
import { descendants, isAlive } from "../support/processes.js"
import { guardProcess, printTable, type ProcessGuard } from "./support.js"

const SEED = fuzzSeed(20_261_129)
const outputDir = mkdtempSync(join(tmpdir(), "stagewright-fuzz-out-"))
let guard: ProcessGuard

beforeAll(() => {
  guard = guardProcess()
})

afterAll(() => {
  guard.stop()
  rmSync(outputDir, { recursive: true, force: true })
})

const runAgainst = (dispatcher: Dispatcher["Type"], calls: Parameters<typeof runCalls>[0], title: string, seed: number) =>
  Effect.gen(function* () {
    const tally = new FuzzTally()
    const started = Date.now()
    // Defects are counted by the oracle; the Dispatcher's own defect log would only repeat them.
    const invoke = (call: (typeof calls)[number]) => Effect.runPromise(dispatcher.call(call.tool, call.args).pipe(Logger.withMinimumLogLevel(LogLevel.None)))
    yield* Effect.promise(() => runCalls(calls, invoke, tally))
    // Rejections that have already happened are reported by the next turn of the event loop.
    yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
    printTable(tally, `${title}, ${Date.now() - started} ms`, seed)
    return tally
  })

layer(coreLayer({ toolProfile: "full", allowEval: ["renderer", "main"], outputDir }), { excludeTestServices: true })(
  "Dispatcher fuzz without an app (full profile, eval allowed)",
  (it) => {
    it.effect(
      "every valid-shaped and malformed call resolves to a well-formed result with a known code and no defect",
      () =>
        Effect.gen(function* () {
          const dispatcher = yield* Dispatcher
          expect(dispatcher.tools.map((t) => t.name)).toEqual(expect.arrayContaining(coreTools.map((t) => t.name)))
          const calls = planCalls(coreTools, { seed: SEED, validPerTool: 40, malformedPerTool: 5, badNames: 200 })
          expect(calls.length).toBeGreaterThanOrEqual(3_000)
          const before = new Set(descendants(process.pid))
          const tally = yield* runAgainst(dispatcher, calls, "dispatcher, full profile + eval", SEED)
          // No call started a process (a launch or attach that decoded would have).
          expect(descendants(process.pid).filter((pid) => !before.has(pid) && isAlive(pid))).toEqual([])
          // Every tool was reached with valid-shaped calls, except the two that would start or attach to processes.
          const validTools = new Set(calls.filter((c) => c.kind === "valid").map((c) => c.tool))
          expect(
            coreTools
              .filter((t) => !validTools.has(t.name))
              .map((t) => t.name)
              .sort()
          ).toEqual(["electron_attach", "electron_launch"])
          expect(tally.violations.length, tally.report(SEED, 40)).toBe(0)
          // Every code a tool answered without an app is one it declares (the server's own refusals aside).
          const declared = new Map(coreTools.map((tool) => [tool.name, new Set(manifestEntry(tool).errors)]))
          const serverCodes = new Set(["UNKNOWN_TOOL", "TOOL_NOT_IN_PROFILE", "EVAL_NOT_AUTHORIZED", "PLUGIN_NOT_LOADED"])
          const undeclared = [...tally.byTool].flatMap(([tool, codes]) =>
            [...codes.keys()]
              .filter((code) => code !== "OK" && !serverCodes.has(code) && declared.has(tool) && !declared.get(tool)!.has(code))
              .map((code) => `${tool}: ${code}`)
          )
          expect(undeclared, "codes answered but not declared in the tool's errors").toEqual([])
          expect(guard.events()).toEqual([])
        }),
      180_000
    )
  }
)

layer(coreLayer({ toolProfile: "essential", outputDir }), { excludeTestServices: true })(
  "Dispatcher fuzz without an app (essential profile, no eval)",
  (it) => {
    it.effect(
      "calls to tools outside the profile and to eval tools resolve with TOOL_NOT_IN_PROFILE / EVAL_NOT_AUTHORIZED, never a defect",
      () =>
        Effect.gen(function* () {
          const dispatcher = yield* Dispatcher
          const calls = planCalls(coreTools, { seed: SEED + 1, validPerTool: 8, malformedPerTool: 1, badNames: 50 })
          const tally = yield* runAgainst(dispatcher, calls, "dispatcher, essential profile, no eval", SEED + 1)
          expect(tally.byCode.get("TOOL_NOT_IN_PROFILE") ?? 0).toBeGreaterThan(0)
          expect(tally.byCode.get("EVAL_NOT_AUTHORIZED") ?? 0).toBeGreaterThan(0)
          expect(tally.violations.length, tally.report(SEED + 1, 40)).toBe(0)
          expect(guard.events()).toEqual([])
        }),
      120_000
    )
  }
)

describe("the generator", () => {
  it("is deterministic for a seed and never lets a process tool's call decode", () => {
    const a = planCalls(coreTools, { seed: 7, validPerTool: 2, malformedPerTool: 2, badNames: 10 })
    const b = planCalls(coreTools, { seed: 7, validPerTool: 2, malformedPerTool: 2, badNames: 10 })
    expect(JSON.stringify(a.map((c) => [c.tool, c.kind]))).toBe(JSON.stringify(b.map((c) => [c.tool, c.kind])))
    const processCalls = a.filter((c) => c.tool === "electron_launch" || c.tool === "electron_attach")
    expect(processCalls.length).toBeGreaterThan(0)
    expect(processCalls.every((c) => c.kind !== "valid" && !mayDecode(coreTools.find((t) => t.name === c.tool)!, c.args))).toBe(true)
  })

  it("derives valid-shaped calls that decode, and malformed ones that mostly do not", () => {
    const calls = planCalls(coreTools, {
      seed: 11,
      validPerTool: 10,
      malformedPerTool: 2,
      badNames: 0,
      kinds: ["wrong-type", "huge-string", "deep-nesting", "missing-required"]
    })
    const toolOf = (name: string) => coreTools.find((t) => t.name === name)!
    const valid = calls.filter((c) => c.kind === "valid")
    expect(valid.length).toBe(10 * (coreTools.length - 2))
    expect(valid.filter((c) => !wouldDecode(toolOf(c.tool), c.args)).map((c) => c.tool)).toEqual([])
    const malformed = calls.filter((c) => c.kind !== "valid")
    // eval's `arg` is Schema.Unknown and fields without maxLength take any string: a few still decode.
    expect(malformed.filter((c) => wouldDecode(toolOf(c.tool), c.args)).length / malformed.length).toBeLessThan(0.1)
  })
})

/**
 * Minimal reproductions of the defects the fuzz run found, one call each, so a fix can be checked
 * directly (and a regression shows by name).
 */
layer(coreLayer({ toolProfile: "full", outputDir }), { excludeTestServices: true })("defects found by fuzzing (minimal reproductions)", (it) => {
  const call = (name: string, args: unknown) =>
    Effect.flatMap(Dispatcher, (d) => Effect.exit(d.call(name, args).pipe(Logger.withMinimumLogLevel(LogLevel.None))))

  it.effect("a deeply nested value in a typed field is INVALID_ARGUMENT, not INTERNAL_ERROR (stack overflow formatting the decode error)", () =>
    Effect.gen(function* () {
      const exit = yield* call("electron_click", { target: nested(10_000, "array") })
      expect(exit._tag).toBe("Success")
      if (exit._tag === "Success") expect(checkResult(exit.value)).toMatchObject({ code: "INVALID_ARGUMENT", problems: [] })
    })
  )

  it.effect("a deeply nested url is INVALID_ARGUMENT, not a rejected call (the failure's javascript: check stringified it)", () =>
    Effect.gen(function* () {
      const exit = yield* call("electron_wait_for", { text: "a", url: nested(10_000, "array") })
      expect(exit._tag).toBe("Success")
      if (exit._tag === "Success") expect(checkResult(exit.value)).toMatchObject({ code: "INVALID_ARGUMENT", problems: [] })
    })
  )

  it.effect("an over-long argument whose JSON form exceeds ~5M characters still resolves (redacting the breadcrumb overflows the stack)", () =>
    Effect.gen(function* () {
      // 1,000,001 NUL characters: one over the field's maxLength; JSON-escaped in the message, 6M characters.
      const exit = yield* call("electron_clipboard", { action: "write", text: "\u0000".repeat(1_000_001) })
      expect(exit._tag).toBe("Success")
      if (exit._tag === "Success") expect(checkResult(exit.value)).toMatchObject({ code: "INVALID_ARGUMENT", problems: [] })
    })
  )
})
