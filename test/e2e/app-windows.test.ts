/**
 * App, window and navigation tools end to end over the in-memory MCP pair, on the `tasks` app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { resolveElectronRuntime } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { callUntil, freshUserData, inMemoryClient, waitForExit, type TestClient } from "../support/mcp.js"
import { startForAttach } from "../support/attach.js"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
})

afterAll(async () => {
  await mcp?.close()
})

describe("app tools", () => {
  it("electron_launch refuses a missing app and runtime-altering env with clear errors", async () => {
    const missing = await mcp.call("electron_launch", { app: "/no/such/app" })
    expect(missing.code).toBe("LAUNCH_FAILED")
    expect(missing.text).toContain("/no/such/app")
    const env = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { NODE_OPTIONS: "--require x" } })
    expect(env.code).toBe("EVAL_NOT_AUTHORIZED")
    expect(env.text).toContain("--allow-eval main")
    const name = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { "NODE_OPTIONS=--require x": "" } })
    expect(name.code).toBe("INVALID_ARGUMENT")
    const closeNothing = await mcp.call("electron_close")
    expect(closeNothing.code).toBe("APP_NOT_RUNNING")
  })

  it("electron_launch starts the app; electron_status and electron_app_info describe it", async () => {
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.structured).toMatchObject({ name: "Tasks", version: "1.4.0", runtime: resolveElectronRuntime().kind })
    expect(launched.structured.windows).toHaveLength(1)
    const status = await mcp.call("electron_status")
    expect(status.structured.app).toMatchObject({ state: "running", kind: "launched", mainProcess: true })
    expect(status.structured.profile).toBe("full")
    expect(status.text).toMatch(/app: running \(pid \d+\)/)
    const info = await mcp.call("electron_app_info")
    expect(info.isError, info.text).toBe(false)
    expect(info.structured).toMatchObject({ name: "Tasks", version: "1.4.0", isPackaged: false })
    expect(info.structured.versions.electron).toBeTruthy()
    expect(info.structured.paths.userData).toBeTruthy()
    const extra = await mcp.call("electron_app_info", { all: true })
    expect(extra.code).toBe("INVALID_ARGUMENT")
    const plugins = await mcp.call("electron_plugins")
    expect(plugins.text).toContain("No plugins loaded.")
  })
})

describe("window tools", () => {
  it("open, list, wait for, select and close windows", async () => {
    await mcp.call("electron_wait_for", { target: "testid=open-settings" })
    const opened = await mcp.call("electron_click", { target: "testid=open-settings" })
    const waited = await mcp.call("electron_wait_for_window", { title: "Settings" })
    // The click's answer tells the window it opened (its IPC made it; the answer waits for its page by event, within
    // a bound a loaded machine can exceed). Then the wait names it itself, and no answer tells it a second time.
    const told = [opened, waited].filter((r) => /\nWindows: opened w2 "Settings"/.test(r.text))
    if (told.length === 0) expect(waited.text, opened.text).toMatch(/^Window \* w2 "Settings"/)
    else {
      expect(told, `${opened.text}\n${waited.text}`).toEqual([opened])
      expect(opened.structured.windowsChanged).toMatchObject({ opened: [{ id: "w2", title: "Settings" }], closed: [] })
    }
    expect(waited.isError, waited.text).toBe(false)
    expect(waited.structured.window).toMatchObject({ id: "w2", title: "Settings", active: true })
    const list = await mcp.call("electron_windows")
    expect(list.structured.windows.map((w: any) => w.id)).toEqual(["w1", "w2"])
    expect(list.structured.windows[0].bounds.width).toBeGreaterThan(0)
    const none = await mcp.call("electron_wait_for_window", { title: "Never opens", timeoutMs: 300 })
    expect(none.code).toBe("TIMEOUT")
    const selected = await mcp.call("electron_select_window", { title: "Tasks" })
    expect(selected.structured.window).toMatchObject({ id: "w1", active: true })
    const missing = await mcp.call("electron_select_window", { window: "w99" })
    expect(missing.code).toBe("WINDOW_NOT_FOUND")
    const closed = await mcp.call("electron_window_close", { window: "w2" })
    expect(closed.isError, closed.text).toBe(false)
    expect(closed.structured.open).toEqual(["w1"])
    const again = await mcp.call("electron_window_close", { window: "w2" })
    expect(again.code).toBe("WINDOW_NOT_FOUND")
  })

  it("electron_window_bounds reads and sets bounds; electron_window_state changes state", async () => {
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    const set = await mcp.call("electron_window_bounds", { width: 900, height: 700 })
    expect(set.isError, set.text).toBe(false)
    expect(set.structured.bounds).toMatchObject({ width: 900, height: 700 })
    const bad = await mcp.call("electron_window_bounds", { width: 0 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    const hidden = await mcp.call("electron_window_state", { action: "hide" })
    expect(hidden.structured.window.visible).toBe(false)
    const shown = await mcp.call("electron_window_state", { action: "show" })
    expect(shown.structured.window.visible).toBe(true)
    const maximized = await mcp.call("electron_window_state", { action: "maximize" })
    expect(maximized.structured.window.maximized).toBe(true)
    const restored = await mcp.call("electron_window_state", { action: "restore" })
    expect(restored.structured.window.maximized).toBe(false)
    const badAction = await mcp.call("electron_window_state", { action: "explode" })
    expect(badAction.code).toBe("INVALID_ARGUMENT")
  })
})

describe("navigation tools", () => {
  it("navigate, go back, reload; refuse relative URLs and javascript: without eval", async () => {
    // On the board, whatever an earlier test left active.
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    const original = (await mcp.call("electron_windows")).structured.windows[0].url as string
    const elsewhere = join(mkdtempSync(join(tmpdir(), "sw-nav-")), "elsewhere.html")
    writeFileSync(elsewhere, "<title>Elsewhere</title><h1>Away</h1>")
    const nav = await mcp.call("electron_navigate", { url: pathToFileURL(elsewhere).href })
    expect(nav.isError, nav.text).toBe(false)
    expect(nav.structured.title).toBe("Elsewhere")
    const back = await mcp.call("electron_history", { direction: "back" })
    expect(back.isError, back.text).toBe(false)
    expect(back.structured.url).toBe(original)
    const forwardNone = await mcp.call("electron_history", { direction: "forward" })
    expect(forwardNone.structured.moved).toBe(true)
    await mcp.call("electron_history", { direction: "back" })
    const reload = await mcp.call("electron_reload")
    expect(reload.isError, reload.text).toBe(false)
    const heading = await mcp.call("electron_expect_visible", { target: 'role=heading[name="Task Board"]' })
    expect(heading.isError, heading.text).toBe(false)
    const relative = await mcp.call("electron_navigate", { url: "index.html" })
    expect(relative.code).toBe("INVALID_ARGUMENT")
    const js = await mcp.call("electron_navigate", { url: "javascript:alert(1)" })
    expect(js.code).toBe("EVAL_NOT_AUTHORIZED")
    expect(js.text).toContain("--allow-eval renderer")
    const data = await mcp.call("electron_navigate", { url: "data:text/html,<title>Elsewhere</title>" })
    expect(data.code).toBe("EVAL_NOT_AUTHORIZED")
  })

  it("electron_close closes the app and its process", async () => {
    const pid = (await mcp.call("electron_status")).structured.app.pid as number
    const closed = await mcp.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    expect(await waitForExit(pid)).toBe(true)
    const status = await mcp.call("electron_status")
    expect(status.structured.app.state).toBe("none")
    const click = await mcp.call("electron_click", { target: "e1" })
    expect(click.code).toBe("APP_NOT_RUNNING")
  })
})

describe("electron_attach", () => {
  it("attaches with and without the Node inspector; main-process tools need it", async () => {
    const app = await startForAttach()
    try {
      const bad = await mcp.call("electron_attach", { cdpUrl: "http://127.0.0.1:1", timeoutMs: 2000 })
      expect(bad.code).toBe("LAUNCH_FAILED")
      const windowsOnly = await mcp.call("electron_attach", { cdpUrl: app.cdp })
      expect(windowsOnly.isError, windowsOnly.text).toBe(false)
      expect(windowsOnly.structured.mainProcess).toBe(false)
      await mcp.call("electron_wait_for", { target: "testid=late-panel" })
      const heading = await mcp.call("electron_get_text", { target: "role=heading[level=1]" })
      expect(heading.text).toBe("Task Board")
      const needsMain = await mcp.call("electron_app_info")
      expect(needsMain.code).toBe("NEEDS_MAIN_PROCESS")
      expect(needsMain.text).toContain("inspectorUrl")
      for (const [tool, args] of [
        ["electron_menu", {}],
        ["electron_menu_click", { id: "new-task" }],
        ["electron_clipboard", { action: "read" }],
        ["electron_dialog_stub", { action: "list" }],
        ["electron_window_state", { action: "focus" }]
      ] as const) {
        const result = await mcp.call(tool, args)
        expect(result.code, `${tool}: ${result.text}`).toBe("NEEDS_MAIN_PROCESS")
      }
      const exported = await mcp.call("electron_export_test")
      expect(exported.code).toBe("INVALID_ARGUMENT")
      const full = await mcp.call("electron_attach", { cdpUrl: app.cdp, inspectorUrl: app.inspector })
      expect(full.structured.mainProcess).toBe(true)
      const info = await mcp.call("electron_app_info")
      expect(info.structured.name).toBe("Tasks")
      // Over the inspector too, the main console's failed-load warning reaches electron_errors, and the core
      // hook sees the context menu the app pops up.
      expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
      expect((await mcp.call("electron_click", { target: "testid=open-offline-button" })).isError).toBe(false)
      const failedWindow = await mcp.call("electron_wait_for_window", { url: "127.0.0.1:2", select: false })
      expect(failedWindow.isError, failedWindow.text).toBe(false)
      const errors = await Effect.runPromise(
        callUntil(mcp, "electron_errors", {}, (r) => (r.structured?.errors ?? []).some((e: { kind: string }) => e.kind === "load-failed"))
      )
      expect(errors.structured.errors).toContainEqual(
        expect.objectContaining({ kind: "load-failed", url: "http://127.0.0.1:2/", window: failedWindow.structured.window.id })
      )
      expect((await mcp.call("electron_click", { target: 'css=[data-testid="task-row"] >> nth=0', button: "right" })).isError).toBe(false)
      const menus = await Effect.runPromise(callUntil(mcp, "electron_menu", {}, (r) => r.structured?.contextMenu != null))
      expect(menus.structured.contextMenu?.items?.[1]?.label, menus.text).toBe("Move to top")
      const moved = await mcp.call("electron_menu_click", { id: "ctx-move-top" })
      expect(moved.structured, moved.text).toMatchObject({ menu: "context", id: "ctx-move-top" })
      const detached = await mcp.call("electron_close")
      expect(detached.isError).toBe(false)
      // Detaching leaves the app running.
      expect(() => process.kill(app.child.pid!, 0)).not.toThrow()
    } finally {
      try {
        process.kill(-app.child.pid!, "SIGKILL")
      } catch {
        // already gone
      }
      await waitForExit(app.child.pid!)
    }
  })
})
