import { describe, expect, it } from "@effect/vitest"
import { Effect, Tracer } from "effect"
import { fileURLToPath } from "node:url"
import { Dispatcher } from "../../src/server/Dispatcher.js"
import { nearMisses } from "../../src/server/resolve.js"
import type { ServerConfigShape } from "../../src/layers/config/ServerConfig.js"
import { coreLayer } from "../../src/server/Stagewright.js"
import { EVAL_TOOL_NAMES, PROFILE_NAMES, PROFILES } from "../../src/profile/profiles.js"
import { coreTools } from "../../src/server/tools.js"

const samplePlugin = fileURLToPath(new URL("../fixtures/plugins/sample-plugin.mjs", import.meta.url))
const asyncInputPlugin = fileURLToPath(new URL("../fixtures/plugins/async-input-plugin.mjs", import.meta.url))

/** Runs `f` with the Dispatcher of a server built from `config` (built for the call, then released). */
// Every core tool unless the test names a profile (the default, essential, is test/cli/default-profile.test.ts's).
const withDispatcher = <A>(config: Partial<ServerConfigShape>, f: (d: Dispatcher["Type"]) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.flatMap(Dispatcher, f).pipe(Effect.provide(coreLayer({ toolProfile: "full", ...config })), Effect.scoped))

const text = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) => result.content.map((c) => c.text ?? "").join("\n")
const code = (result: { structuredContent?: Record<string, unknown> }) => (result.structuredContent?.error as { code?: string } | undefined)?.code

describe("Dispatcher", () => {
  it("lists the profile's implemented tools sorted by name, without eval tools by default", async () => {
    const names = await withDispatcher({ toolProfile: "essential" }, (d) => Effect.succeed(d.list().map((t) => t.name)))
    expect(names).toEqual([...names].sort())
    expect(names).toEqual([...PROFILES.essential].sort())
  })

  it("lists exactly each profile's tools, each once", async () => {
    for (const profile of PROFILE_NAMES) {
      const names = await withDispatcher({ toolProfile: profile }, (d) => Effect.succeed(d.list().map((t) => t.name)))
      expect(names, profile).toEqual([...PROFILES[profile]].sort())
    }
  })

  it("adds each eval tool only for its allowed target", async () => {
    const renderer = await withDispatcher({ allowEval: ["renderer"] }, (d) => Effect.succeed(d.list().map((t) => t.name)))
    expect(renderer).toContain("electron_eval_renderer")
    expect(renderer).not.toContain("electron_eval_main")
    const both = await withDispatcher({ toolProfile: "essential", allowEval: ["renderer", "main"] }, (d) => Effect.succeed(d.list().map((t) => t.name)))
    expect(both.filter((n) => n.startsWith("electron_eval_"))).toEqual(["electron_eval_main", "electron_eval_renderer"])
    expect(both).toEqual([...PROFILES.essential, ...EVAL_TOOL_NAMES].sort())
  })

  it("answers an excluded core tool with TOOL_NOT_IN_PROFILE and the restart hint, before looking at arguments", async () => {
    const result = await withDispatcher({ toolProfile: "essential" }, (d) => d.call("electron_console", { nonsense: 1 }))
    expect(result.isError).toBe(true)
    expect(code(result)).toBe("TOOL_NOT_IN_PROFILE")
    expect(text(result)).toContain("restart with --tool-profile debug")
    expect(result.structuredContent?.error).toMatchObject({ tool: "electron_console", activeProfile: "essential", profiles: ["debug", "testing", "full"] })
  })

  it("answers an eval tool whose target is not allowed with EVAL_NOT_AUTHORIZED naming the flag", async () => {
    const result = await withDispatcher({ allowEval: ["renderer"] }, (d) => d.call("electron_eval_main", { function: "() => 1" }))
    expect(code(result)).toBe("EVAL_NOT_AUTHORIZED")
    expect(text(result)).toContain("--allow-eval main")
    expect(result.structuredContent?.error).toMatchObject({ flag: "--allow-eval main", target: "main" })
  })

  it("traces each call as a Dispatcher.call span naming its tool under an installed tracer", async () => {
    const native = Effect.runSync(Effect.tracer)
    const seen: Array<{ readonly name: string; readonly attributes: unknown }> = []
    const recording = Tracer.make({
      span: (name, parent, context, links, startTime, kind, options) => {
        seen.push({ name, attributes: options?.attributes })
        return native.span(name, parent, context, links, startTime, kind, options)
      },
      context: (f, fiber) => native.context(f, fiber)
    })
    const result = await withDispatcher({}, (d) => d.call("electron_status", {}).pipe(Effect.withTracer(recording)))
    expect(result.isError, text(result)).toBeFalsy()
    expect(seen.filter((span) => span.name === "Dispatcher.call")).toEqual([{ name: "Dispatcher.call", attributes: { tool: "electron_status" } }])
  })

  it("decodes an input only an asynchronous check can decide (a plugin's effectful filter): passed, refused, and other faults still found", async () => {
    const passed = await withDispatcher({ plugins: [asyncInputPlugin] }, (d) => d.call("later_echo", { text: "fine" }))
    expect(passed.isError, text(passed)).toBeFalsy()
    expect(text(passed)).toContain("later: fine")
    const refused = await withDispatcher({ plugins: [asyncInputPlugin] }, (d) => d.call("later_echo", { text: "bad" }))
    expect(code(refused)).toBe("INVALID_ARGUMENT")
    expect(text(refused)).toContain("the word bad is refused")
    const excess = await withDispatcher({ plugins: [asyncInputPlugin] }, (d) => d.call("later_echo", { text: "fine", more: 1 }))
    expect(code(excess)).toBe("INVALID_ARGUMENT")
    expect(text(excess)).toContain("more")
  })

  it("suggests near misses for an unknown name", async () => {
    const result = await withDispatcher({}, (d) => d.call("electron_clik", {}))
    expect(code(result)).toBe("UNKNOWN_TOOL")
    expect(text(result)).toContain("electron_click")
    expect(
      nearMisses(
        "screenshot",
        coreTools.map((t) => t.name)
      )
    ).toContain("electron_screenshot")
  })

  it("rejects bad arguments with INVALID_ARGUMENT naming the path and the expected form", async () => {
    const wrongType = await withDispatcher({}, (d) => d.call("electron_click", { target: 5 }))
    expect(code(wrongType)).toBe("INVALID_ARGUMENT")
    expect(text(wrongType)).toMatch(/target: Expected string, actual 5/)
    const nested = await withDispatcher({}, (d) => d.call("electron_fill_form", { fields: [{ target: "e1", value: { x: 1 } }] }))
    expect(text(nested)).toMatch(/fields\.0\.value/)
    const extra = await withDispatcher({}, (d) => d.call("electron_status", { verbose: true }))
    expect(code(extra)).toBe("INVALID_ARGUMENT")
    expect(text(extra)).toContain("verbose")
    const literal = await withDispatcher({}, (d) => d.call("electron_window_state", { action: "explode" }))
    expect(text(literal)).toMatch(/action: Expected "minimize" \| "maximize"/)
    for (const [args, form] of [
      [5, "number"],
      ["abc", "string"],
      [[1], "an array"],
      [true, "boolean"]
    ] as const) {
      for (const tool of ["electron_status", "electron_click"]) {
        const result = await withDispatcher({}, (d) => d.call(tool, args))
        expect(code(result)).toBe("INVALID_ARGUMENT")
        expect(text(result)).toContain(`arguments must be a JSON object, not ${form}`)
      }
    }
    const absent = await withDispatcher({}, (d) => d.call("electron_status", undefined))
    expect(absent.isError ?? false).toBe(false)
    expect(text(absent)).toMatch(/^server: started/)
  })

  it("fails app tools without an app with APP_NOT_RUNNING and records it as the last error", async () => {
    const [click, status] = await withDispatcher({}, (d) =>
      Effect.all([d.call("electron_click", { target: "e1" }), Effect.flatMap(Effect.void, () => d.call("electron_status", {}))], { concurrency: 1 })
    )
    expect(code(click)).toBe("APP_NOT_RUNNING")
    expect(text(status)).toMatch(/last_error: \S+ electron_click APP_NOT_RUNNING/)
    expect((status.structuredContent?.server as { lastError: { code: string } }).lastError.code).toBe("APP_NOT_RUNNING")
  })

  it("serves plugin tools, lists them whatever the profile, and gates a plugin tool's eval target", async () => {
    const names = await withDispatcher({ toolProfile: "essential", plugins: [samplePlugin] }, (d) => Effect.succeed(d.list().map((t) => t.name)))
    expect(names).toContain("sample_echo")
    expect(names).not.toContain("sample_eval")
    const echo = await withDispatcher({ plugins: [samplePlugin] }, (d) => d.call("sample_echo", { text: "hi" }))
    expect(text(echo)).toBe("echo: hi")
    const gated = await withDispatcher({ plugins: [samplePlugin] }, (d) => d.call("sample_eval", { code: "1" }))
    expect(code(gated)).toBe("EVAL_NOT_AUTHORIZED")
    const allowed = await withDispatcher({ plugins: [samplePlugin], allowEval: ["renderer"] }, (d) => d.call("sample_eval", { code: "1" }))
    expect(allowed.isError).toBeUndefined()
  })

  it("turns a defect into INTERNAL_ERROR and keeps serving", async () => {
    const [defect, after] = await withDispatcher({ plugins: [samplePlugin] }, (d) =>
      Effect.all([d.call("sample_defect", {}), d.call("sample_echo", { text: "still here" })], { concurrency: 1 })
    )
    expect(code(defect)).toBe("INTERNAL_ERROR")
    expect(text(after)).toBe("echo: still here")
  })

  it("ends a call that never settles at the operation timeout with a retryable TIMEOUT", async () => {
    const started = Date.now()
    const result = await withDispatcher({ plugins: [samplePlugin], operationTimeoutMs: 300 }, (d) => d.call("sample_hang", {}))
    expect(code(result)).toBe("TIMEOUT")
    expect(result.structuredContent?.error).toMatchObject({ retryable: true })
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it("reports each result's size in _meta", async () => {
    const result = await withDispatcher({ plugins: [samplePlugin] }, (d) => d.call("sample_echo", { text: "abc" }))
    const size = (result._meta as { size: { chars: number; approxTokens: number } }).size
    expect(size.chars).toBe("echo: abc".length + JSON.stringify({ text: "abc" }).length)
    expect(size.approxTokens).toBe(Math.ceil(size.chars / 4))
  })
})
