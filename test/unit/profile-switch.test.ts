/**
 * The live profile switch (--allow-profile-switch, electron_profile): off by default (nothing listed,
 * the restart hint stays); with it an excluded tool's hint names electron_profile, a switch sends
 * notifications/tools/list_changed and tools/list follows the new profile.
 */
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { toConfig } from "../../src/cli/flags.js"
import { PROFILES, type ProfileName } from "../../src/profile/profiles.js"
import { inMemoryClient } from "../support/mcp.js"

/** What electron_profile says of a switch, with the counts the named lists make. */
const switchLine = (from: ProfileName, to: ProfileName): string => {
  const only = (a: ProfileName, b: ProfileName) => [...PROFILES[a]].filter((name) => !PROFILES[b].has(name)).length
  return `${from} -> ${to} (${PROFILES[to].size} core tools): ${only(to, from)} added, ${only(from, to)} removed`
}

describe("profile switch", () => {
  it("without --allow-profile-switch: electron_profile is not listed and the restart hint stays", async () => {
    const client = await inMemoryClient({ toolProfile: "essential" })
    try {
      expect(client.client.getServerCapabilities()?.tools?.listChanged).toBeUndefined()
      const names = (await client.client.listTools()).tools.map((t) => t.name)
      expect(names).not.toContain("electron_profile")
      const hover = await client.call("electron_hover", { target: "e1" })
      expect(hover.code).toBe("TOOL_NOT_IN_PROFILE")
      expect(hover.text).toContain("restart with --tool-profile testing")
      expect(hover.text).not.toContain("electron_profile")
      const profile = await client.call("electron_profile", { profile: "testing" })
      expect(profile.code).toBe("UNKNOWN_TOOL")
      expect((await client.client.listTools()).tools.map((t) => t.name)).toEqual(names)
      // The flag alone decides: the same server with it lists electron_profile beside the same tools.
      const switchable = await inMemoryClient({ toolProfile: "essential", allowProfileSwitch: true })
      try {
        expect((await switchable.client.listTools()).tools.map((t) => t.name)).toEqual([...names, "electron_profile"].sort())
      } finally {
        await switchable.close()
      }
    } finally {
      await client.close()
    }
  })

  it("--allow-profile-switch maps to the configuration, off when absent", () => {
    const flags = {
      toolProfile: Option.some("essential" as const),
      allowEval: [],
      plugin: [],
      pluginConfig: Option.none(),
      screenshotDir: Option.none(),
      visualDir: Option.none(),
      outputDir: "out",
      operationTimeoutMs: 60_000,
      appRoot: Option.none(),
      maxResponseChars: 60_000
    }
    expect(Effect.runSync(toConfig({ ...flags, allowProfileSwitch: false })).allowProfileSwitch).toBeUndefined()
    expect(Effect.runSync(toConfig({ ...flags, allowProfileSwitch: true })).allowProfileSwitch).toBe(true)
  })

  it("with it: the hint names electron_profile, a switch notifies and tools/list follows", async () => {
    const client = await inMemoryClient({ toolProfile: "essential", allowProfileSwitch: true })
    try {
      expect(client.client.getServerCapabilities()?.tools?.listChanged).toBe(true)
      let notified = 0
      let resolveNotified: () => void = () => undefined
      const changed = new Promise<void>((resolve) => (resolveNotified = resolve))
      client.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        notified++
        resolveNotified()
      })
      const before = (await client.client.listTools()).tools.map((t) => t.name)
      expect(before).toContain("electron_profile")
      expect(before).not.toContain("electron_hover")

      const hover = await client.call("electron_hover", { target: "e1" })
      expect(hover.code).toBe("TOOL_NOT_IN_PROFILE")
      expect(hover.text).toContain('call electron_profile { "profile": "testing" } (the tool list changes), then call electron_hover again')

      const switched = await client.call("electron_profile", { profile: "testing" })
      expect(switched.isError).toBe(false)
      expect(switched.text).toContain(switchLine("essential", "testing"))
      await changed
      expect(notified).toBe(1)

      const after = (await client.client.listTools()).tools.map((t) => t.name)
      expect(after).toContain("electron_hover")
      expect(after).toContain("electron_profile")
      expect(after.filter((n) => n !== "electron_profile")).toEqual([...PROFILES.testing].sort())

      // It passes the profile check now and fails on what is true: no app runs.
      const again = await client.call("electron_hover", { target: "e1" })
      expect(again.code).toBe("APP_NOT_RUNNING")

      const status = await client.call("electron_status")
      expect(status.text).toContain("profile: testing")

      // The same profile again changes nothing and sends no notification.
      const same = await client.call("electron_profile", { profile: "testing" })
      expect(same.text).toContain("already active")
      await client.client.listTools()
      expect(notified).toBe(1)

      const invalid = await client.call("electron_profile", { profile: "everything" })
      expect(invalid.code).toBe("INVALID_ARGUMENT")
    } finally {
      await client.close()
    }
  })

  it("switching down removes tools: an excluded tool answers TOOL_NOT_IN_PROFILE again", async () => {
    const client = await inMemoryClient({ allowProfileSwitch: true })
    try {
      const down = await client.call("electron_profile", { profile: "essential" })
      expect(down.text).toContain(switchLine("full", "essential"))
      const names = (await client.client.listTools()).tools.map((t) => t.name)
      expect(names).toEqual([...PROFILES.essential, "electron_profile"].sort())
      expect((await client.call("electron_console")).text).toContain('call electron_profile { "profile": "debug" }')
    } finally {
      await client.close()
    }
  })
})
