import { describe, expect, it } from "@effect/vitest"
import { CORE_GROUPS, CORE_TOOL_NAMES, EVAL_TOOL_NAMES, PROFILES, profilesHolding } from "../../src/profile/profiles.js"
import { coreTools } from "../../src/server/tools.js"

describe("profiles (the TOOLS.md contract)", () => {
  // The sizes are not pinned here: every count (help, README, docs/TOOLS.md) is computed from these lists,
  // and the lists themselves are what a review checks. What is pinned is how they relate.
  it("the catalog names each tool once; full is the catalog; essential ⊂ testing ⊂ full and debug ⊂ full", () => {
    expect(new Set(CORE_TOOL_NAMES).size).toBe(CORE_TOOL_NAMES.length)
    expect([...PROFILES.full]).toEqual([...CORE_TOOL_NAMES])
    const within = (small: ReadonlySet<string>, big: ReadonlySet<string>) => [...small].filter((name) => !big.has(name))
    expect(within(PROFILES.essential, PROFILES.testing)).toEqual([])
    expect(within(PROFILES.testing, PROFILES.full)).toEqual([])
    expect(within(PROFILES.debug, PROFILES.full)).toEqual([])
    expect(PROFILES.essential.size).toBeLessThan(PROFILES.testing.size)
    expect(EVAL_TOOL_NAMES.filter((name) => (CORE_TOOL_NAMES as ReadonlyArray<string>).includes(name))).toEqual([])
  })

  it("testing excludes exactly the five deep-debug tools and keeps screenshot, console and errors", () => {
    const excluded = CORE_TOOL_NAMES.filter((name) => !PROFILES.testing.has(name))
    expect(excluded.sort()).toEqual(["electron_inspect", "electron_metrics", "electron_requests", "electron_trace_start", "electron_trace_stop"])
    for (const kept of ["electron_screenshot", "electron_console", "electron_errors"] as const) expect(PROFILES.testing.has(kept)).toBe(true)
  })

  it("debug holds app, windows, navigation, observe, four interactions and the debug group", () => {
    const expected = [
      ...CORE_GROUPS.app,
      ...CORE_GROUPS.windows,
      ...CORE_GROUPS.navigation,
      ...CORE_GROUPS.observe,
      "electron_click",
      "electron_fill",
      "electron_type",
      "electron_press_key",
      ...CORE_GROUPS.debug
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

  it("every catalog tool and both eval tools are implemented, each once", () => {
    const names = coreTools.filter((t) => t.evalTarget === undefined).map((t) => t.name)
    expect(new Set(names).size).toBe(names.length)
    expect([...names].sort()).toEqual([...CORE_TOOL_NAMES].sort())
    expect(coreTools.filter((t) => t.evalTarget !== undefined).map((t) => [t.name, t.evalTarget])).toEqual([
      ["electron_eval_renderer", "renderer"],
      ["electron_eval_main", "main"]
    ])
  })
})
