/**
 * The variant list and one real measurement (the only test that tokenizes a tools/list payload).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { PROFILE_NAMES, PROFILES } from "../../src/index.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { DEFAULT_BASELINE } from "../../src/bench/manifest/cli.js"
import { BaselineJson } from "../../src/bench/manifest/gate.js"
import { firstPartyPluginNames, listVariant, listVariantPayload, measureTools, measureVariant } from "../../src/bench/manifest/measure.js"
import { variantsOf } from "../../src/bench/manifest/variants.js"

describe("manifest variants", () => {
  it("covers each profile, each plugin, all plugins and everything, safe and eval: 8 without plugins, 30 with nine", () => {
    expect(variantsOf(PROFILE_NAMES, []).map((v) => v.name)).toEqual([
      "profile:essential:safe",
      "profile:essential:eval",
      "profile:testing:safe",
      "profile:testing:eval",
      "profile:debug:safe",
      "profile:debug:eval",
      "profile:full:safe",
      "profile:full:eval"
    ])
    const nine = ["window-state", "ipc", "storage", "updater", "tray", "protocol", "devtools", "power", "notifications"]
    const variants = variantsOf(PROFILE_NAMES, nine)
    expect(variants).toHaveLength(30)
    expect(new Set(variants.map((v) => v.name)).size).toBe(30)
    expect(variants.find((v) => v.name === "everything:eval")?.config).toEqual({
      toolProfile: "full",
      allowEval: ["renderer", "main"],
      plugins: [...nine].sort()
    })
    expect(variants.find((v) => v.name === "plugin:ipc:eval")?.config).toEqual({ tools: [], allowEval: ["renderer", "main"], plugins: ["ipc"] })
    expect(variants.find((v) => v.name === "plugins:all:safe")?.config).toEqual({ tools: [], allowEval: [], plugins: [...nine].sort() })
    expect(variants.find((v) => v.name === "profile:full:safe")?.config).toEqual({ toolProfile: "full", allowEval: [], plugins: [] })
  })

  it.effect("reads the first-party plugins from the registry", () =>
    Effect.gen(function* () {
      // The nine first-party plugins of the design's catalog (../shared/design/TOOLS.md), trace and clock (issue 26), video (issue 38).
      expect(yield* firstPartyPluginNames).toEqual([
        "a11y",
        "clock",
        "emulation",
        "ipc",
        "native",
        "network",
        "perf",
        "production",
        "storage",
        "trace",
        "video",
        "visual"
      ])
    })
  )

  it("the committed baseline is valid and holds exactly today's variants", () => {
    const baseline = Schema.decodeUnknownEither(BaselineJson)(readFileSync(DEFAULT_BASELINE, "utf8"))
    if (Either.isLeft(baseline)) throw new Error(String(baseline.left))
    const expected = variantsOf(PROFILE_NAMES, Object.keys(firstPartyPlugins)).map((v) => v.name)
    expect(Object.keys(baseline.right.variants), 'a variant appeared or disappeared: npm run manifest:update -- --reason "<why>"').toEqual(expected)
    expect(baseline.right.history.length).toBeGreaterThan(0)
  })
})

describe("manifest measurement", () => {
  it.live("measures profile:essential:safe over a real in-memory MCP pair with consistent figures", () =>
    Effect.gen(function* () {
      const variant = variantsOf(PROFILE_NAMES, []).find((v) => v.name === "profile:essential:safe")!
      const { instructions, tools } = yield* listVariantPayload(variant)
      // What the host receives: the instructions (naming the active profile) counted with the tools.
      expect(instructions).toContain("profile essential")
      const m = measureTools(variant.name, tools, instructions)
      const text = JSON.stringify({ instructions, tools })
      expect(m.tools).toBe(PROFILES.essential.size)
      expect(new Set(m.names)).toEqual(new Set(PROFILES.essential))
      expect(m.names).toEqual([...m.names].sort())
      expect(m.listedSorted).toBe(true)
      expect(m.bytes).toBeGreaterThanOrEqual(m.codePoints)
      expect(m.bytes).toBe(Buffer.byteLength(text, "utf8"))
      expect(m.codePoints).toBe([...text].length)
      expect(m.bpe).toBeGreaterThan(0)
      expect(m.bpe).toBe(countTokens(text))
      expect(m.bpe).toBeLessThan(m.bytes)
      // Rounded to one decimal: at most half a tenth off (toBeCloseTo(…, 1) is strict at exactly 0.05).
      expect(Math.abs(m.bpePerTool - m.bpe / m.tools)).toBeLessThanOrEqual(0.05 + 1e-9)
      expect(m.perTool.map((t) => t.name)).toEqual(m.names)
      for (const t of m.perTool) expect(t.bpe).toBeGreaterThan(0)
      expect(m.largest).toHaveLength(10)
      expect(m.largest.map((t) => t.bpe)).toEqual([...m.largest.map((t) => t.bpe)].sort((a, b) => b - a))
      expect(m.largest[0]!.bpe).toBe(Math.max(...m.perTool.map((t) => t.bpe)))
      // The same figures through measureVariant (a second, independent server).
      expect(yield* measureVariant(variant)).toEqual(m)
    })
  )

  it.live("a plugin variant lists the plugin's tools alone, plus the eval tools in eval mode", () =>
    Effect.gen(function* () {
      // A third-party fixture stands in for a first-party plugin: the variant's configuration is the same.
      const plugin = fileURLToPath(new URL("../fixtures/plugins/sample-plugin.mjs", import.meta.url))
      const [safe, withEval] = variantsOf(PROFILE_NAMES, [plugin]).filter((v) => v.name.startsWith("plugin:"))
      const safeNames = (yield* listVariant(safe!)).map((t) => t.name)
      expect(safeNames).toEqual(["sample_big", "sample_defect", "sample_echo", "sample_hang", "sample_wait"])
      const evalNames = (yield* listVariant(withEval!)).map((t) => t.name)
      expect(evalNames).toEqual([
        "electron_eval_main",
        "electron_eval_renderer",
        "sample_big",
        "sample_defect",
        "sample_echo",
        "sample_eval",
        "sample_hang",
        "sample_wait"
      ])
    })
  )

  it("counts special-token markers as ordinary text instead of rejecting them", () => {
    const m = measureTools("x", [{ name: "t", description: "<|endoftext|> ü" } as { name: string }])
    expect(m.bpe).toBeGreaterThan(1)
    expect(m.bytes).toBe(m.codePoints + 1)
  })
})
