import { describe, expect, it } from "@effect/vitest"
import { CORE_GROUPS, CORE_TOOL_NAMES, PROFILES, profilesHolding } from "../../src/profile/profiles.js"
import { coreTools } from "../../src/server/tools.js"

describe("profiles (the TOOLS.md contract)", () => {
  it("have the catalog sizes 19 / 47 / 32 / 52", () => {
    expect(CORE_TOOL_NAMES).toHaveLength(52)
    expect(new Set(CORE_TOOL_NAMES).size).toBe(52)
    expect(PROFILES.essential.size).toBe(19)
    expect(PROFILES.testing.size).toBe(47)
    expect(PROFILES.debug.size).toBe(32)
    expect(PROFILES.full.size).toBe(52)
  })

  it("testing excludes exactly the five deep-debug tools and keeps screenshot, console and errors", () => {
    const excluded = CORE_TOOL_NAMES.filter((name) => !PROFILES.testing.has(name))
    expect(excluded.sort()).toEqual(["electron_inspect", "electron_metrics", "electron_requests", "electron_trace_start", "electron_trace_stop"])
    for (const kept of ["electron_screenshot", "electron_console", "electron_errors"] as const) expect(PROFILES.testing.has(kept)).toBe(true)
  })

  it("debug holds app, windows, navigation, observe, four interactions and the debug group", () => {
    const expected = [
      ...CORE_GROUPS.app, ...CORE_GROUPS.windows, ...CORE_GROUPS.navigation, ...CORE_GROUPS.observe,
      "electron_click", "electron_fill", "electron_type", "electron_press_key", ...CORE_GROUPS.debug
    ]
    expect([...PROFILES.debug].sort()).toEqual([...expected].sort())
  })

  it("every profile holds electron_status and electron_plugins", () => {
    for (const profile of Object.values(PROFILES)) {
      expect(profile.has("electron_status")).toBe(true)
      expect(profile.has("electron_plugins")).toBe(true)
    }
  })

  it("names the smallest profile that holds a tool first", () => {
    expect(profilesHolding("electron_click")[0]).toBe("essential")
    expect(profilesHolding("electron_console")[0]).toBe("debug")
    expect(profilesHolding("electron_hover")[0]).toBe("testing")
    expect(profilesHolding("electron_trace_start")).toEqual(["debug", "full"])
  })

  it("all 52 catalog tools and the 2 eval tools are implemented, each once", () => {
    const names = coreTools.filter((t) => t.evalTarget === undefined).map((t) => t.name)
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual([...CORE_TOOL_NAMES].sort())
    expect(coreTools.filter((t) => t.evalTarget !== undefined).map((t) => [t.name, t.evalTarget])).toEqual([
      ["electron_eval_renderer", "renderer"],
      ["electron_eval_main", "main"]
    ])
  })
})
