/**
 * The native plugin end to end over MCP on the `tasks` app: its tray (update flow, shell actions),
 * notifications, shell calls, power handling and app events, each seen in the app's own window.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { activityLines } from "../support/activity.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp, textUntil } from "./support.js"

let mcp: TestClient
const userData = freshUserData()

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["native"] })
  await launchApp(mcp, "tasks", { env: { SAMPLE_APP_USER_DATA: userData } })
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

const status = (testid: string, expected: string) => textUntil(mcp, testid, (t) => t === expected)

describe("native plugin", () => {
  it("its recorders are installed only while the plugin is loaded", async () => {
    const bare = await inMemoryClient({ toolProfile: "full", allowEval: ["main"] })
    try {
      await launchApp(bare)
      const seen = await bare.call("electron_eval_main", { function: "() => [typeof globalThis.__stagewright_native, typeof globalThis.__stagewright]" })
      expect(seen.structured.value).toEqual(["undefined", "object"])
    } finally {
      await bare.close()
    }
  })

  it("electron_native_updater drives the app's update UI; the tray menu follows and its items click", async () => {
    // The tray was built at ready, before the plugin's hook: found among the live objects, its menu inferred.
    const early = await mcp.call("electron_native_tray")
    expect(early.isError, early.text).toBe(false)
    expect(early.structured.trays).toHaveLength(1)
    expect(early.structured.trays[0]).toMatchObject({ inferred: true })
    expect(early.text).toContain("Check for Updates… [id=check-updates]")
    const checking = await mcp.call("electron_native_updater", { event: "checking-for-update" })
    expect(checking.isError, checking.text).toBe(false)
    expect(checking.structured.listeners).toBe(1)
    expect(await status("update-result", "Checking for updates…")).toBe("Checking for updates…")

    const trays = await mcp.call("electron_native_tray")
    expect(trays.isError, trays.text).toBe(false)
    expect(trays.text).toContain("Check for Updates… [id=check-updates, disabled]")
    expect(trays.structured.trays[0].inferred).toBeUndefined()
    expect(trays.structured.trays[0].menu.map((i: any) => i.id).filter(Boolean)).toContain("stop-server")
    const disabled = await mcp.call("electron_native_tray", { id: "check-updates" })
    expect(disabled.code).toBe("NOT_INTERACTABLE")

    expect((await mcp.call("electron_native_updater", { event: "update-available" })).isError).toBe(false)
    expect(await status("update-result", "Update available: downloading…")).toBe("Update available: downloading…")
    const downloaded = await mcp.call("electron_native_updater", { event: "update-downloaded", releaseName: "2.0.0", releaseNotes: "Faster" })
    expect(downloaded.isError, downloaded.text).toBe(false)
    expect(await status("update-result", "Update 2.0.0 ready: restart to install")).toBe("Update 2.0.0 ready: restart to install")
    const ready = await mcp.call("electron_native_tray")
    expect(ready.text).toContain("Restart to Update (2.0.0) [id=install-update]")
    // quitAndInstall is recorded, not run: the app stays up.
    const install = await mcp.call("electron_native_tray", { path: ["Restart to Update (2.0.0)"] })
    expect(install.isError, install.text).toBe(false)
    const failed = await mcp.call("electron_native_updater", { event: "error", message: "network down" })
    expect(failed.text).toContain("quitAndInstall")
    expect(await status("update-result", "Update failed: network down")).toBe("Update failed: network down")
    expect((await mcp.call("electron_native_tray", { id: "check-updates" })).isError).toBe(false)
    const none = await mcp.call("electron_native_updater", { event: "update-not-available" })
    expect(none.structured.calls.map((c: any) => c.method)).toEqual(["quitAndInstall", "checkForUpdates"])
    expect(await status("update-result", "Tasks is up to date")).toBe("Tasks is up to date")

    expect((await mcp.call("electron_native_tray", { id: "no-such-item" })).code).toBe("ELEMENT_NOT_FOUND")
    expect((await mcp.call("electron_native_tray", { id: "x", path: ["y"] })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_native_updater", { event: "update-available", releaseName: "1" })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_native_updater", { event: "downloaded" })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_native_shell_calls records openExternal, openPath, showItemInFolder and trashItem without running them", async () => {
    expect((await mcp.call("electron_click", { target: "testid=open-docs-button" })).isError).toBe(false)
    // The app shows nothing of a URL it hands to the browser: the recorded call is the effect to wait for.
    const opened = await Effect.runPromise(
      callUntil(mcp, "electron_native_shell_calls", {}, (r) => (r.structured?.calls ?? []).some((c: any) => c.method === "openExternal"))
    )
    expect(opened.structured.calls.map((c: any) => c.method)).toEqual(["openExternal"])
    for (const id of ["open-data-folder", "reveal-tasks-file", "trash-export"]) {
      const clicked = await mcp.call("electron_native_tray", { id })
      expect(clicked.isError, clicked.text).toBe(false)
    }
    const calls = await mcp.call("electron_native_shell_calls", { clear: true })
    expect(calls.isError, calls.text).toBe(false)
    expect(calls.structured.calls.map((c: any) => c.method)).toEqual(["openExternal", "openPath", "showItemInFolder", "trashItem"])
    expect(calls.structured.calls[0].url).toBe("https://example.com/help")
    expect(calls.structured.calls[2].path).toMatch(/tasks\.json$/)
    expect((await mcp.call("electron_native_shell_calls")).text).toBe("No shell calls since launch.")
    expect((await mcp.call("electron_native_shell_calls", { clear: "yes" })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_native_notifications lists what the app showed and clicks one (its handler runs)", async () => {
    expect((await mcp.call("electron_click", { target: "testid=notify-button" })).isError).toBe(false)
    // The desktop shows it: the page says nothing, the app's activity log records it.
    await expect.poll(() => activityLines(userData, "notification-shown"), { timeout: 15_000 }).toEqual(["notification-shown Tasks"])
    expect((await mcp.call("electron_get_text", { target: "testid=notify-result" })).text).not.toMatch(/Notification/)
    const listed = await mcp.call("electron_native_notifications")
    expect(listed.isError, listed.text).toBe(false)
    const [shown] = listed.structured.notifications
    expect(shown).toMatchObject({ title: "Tasks", body: expect.stringMatching(/^You have \d+ open tasks\.$/) })
    expect(Math.abs(shown.at - Date.now())).toBeLessThan(60_000)
    const clicked = await mcp.call("electron_native_notifications", { click: shown.id })
    expect(clicked.isError, clicked.text).toBe(false)
    await expect.poll(() => activityLines(userData, "notification-click"), { timeout: 15_000 }).toEqual(["notification-click Tasks"])
    expect((await mcp.call("electron_native_notifications", { click: 99_999 })).code).toBe("ELEMENT_NOT_FOUND")
  })

  it("electron_native_power emits powerMonitor events the app handles", async () => {
    const expected: Record<string, string> = {
      suspend: "Suspended: sync paused",
      resume: "Resumed: syncing again",
      "lock-screen": "Screen locked",
      "unlock-screen": "Screen unlocked",
      "on-battery": "On battery: saving power",
      "on-ac": "On AC power"
    }
    for (const [event, text] of Object.entries(expected)) {
      const emitted = await mcp.call("electron_native_power", { event })
      expect(emitted.isError, emitted.text).toBe(false)
      expect(emitted.structured.listeners).toBe(1)
      expect(await status("power-result", text)).toBe(text)
    }
    expect((await mcp.call("electron_native_power", { event: "hibernate" })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_native_app_event emits open-url, open-file, second-instance and activate with Electron's arguments", async () => {
    const url = await mcp.call("electron_native_app_event", { event: "open-url", url: "tasks://open?id=7" })
    expect(url.isError, url.text).toBe(false)
    expect(url.structured).toMatchObject({ listeners: 1, defaultPrevented: true })
    expect(await status("app-event-result", "open-url tasks://open?id=7")).toBe("open-url tasks://open?id=7")
    expect((await mcp.call("electron_native_app_event", { event: "open-file", path: "/tmp/board.json" })).isError).toBe(false)
    expect(await status("app-event-result", "open-file /tmp/board.json")).toBe("open-file /tmp/board.json")
    expect((await mcp.call("electron_native_app_event", { event: "second-instance", argv: ["tasks", "--open", "board.json"] })).isError).toBe(false)
    expect(await status("app-event-result", 'second-instance ["--open","board.json"]')).toBe('second-instance ["--open","board.json"]')
    expect((await mcp.call("electron_native_app_event", { event: "activate" })).isError).toBe(false)
    expect(await status("app-event-result", "activate (visible windows: true)")).toBe("activate (visible windows: true)")
    expect((await mcp.call("electron_native_app_event", { event: "open-url" })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_native_app_event", { event: "activate", url: "x://y" })).code).toBe("INVALID_ARGUMENT")
  })
})
