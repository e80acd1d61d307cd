/**
 * The tray icon itself over MCP on the `tasks` app: click, right-click and double-click reach the app as
 * Electron's Tray events with their arguments (its listeners show the window, pop up the tray menu, start a
 * task), the answer says how many listeners ran and which menu the app popped up; a tray that is not there is
 * refused with the trays that are.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp } from "./support.js"

let mcp: TestClient

type Called = Awaited<ReturnType<TestClient["call"]>>
const ok = (result: Called) => {
  expect(result.isError, result.text).toBe(false)
  return result
}
const appEvent = async (text: string) => ok(await mcp.call("electron_expect_text", { target: "testid=app-event-result", text, exact: true }))

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["native"] })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("tray icon", () => {
  it("click shows the hidden window: the app's click listener gets (event, bounds, position)", async () => {
    ok(await mcp.call("electron_window_state", { action: "hide" }))
    const hidden = ok(await mcp.call("electron_windows"))
    expect(hidden.structured.windows[0]).toMatchObject({ visible: false })
    const click = ok(await mcp.call("electron_native_tray", { icon: "click" }))
    expect(click.text).toMatch(/^Sent click to tray \d+'s icon \(bounds 0,0 0x0\): 1 listener ran\.$/)
    expect(click.structured).toMatchObject({ icon: "click", listeners: 1, defaultPrevented: false })
    await appEvent("tray click at 0,0")
    const shown = ok(await mcp.call("electron_windows"))
    expect(shown.structured.windows[0]).toMatchObject({ visible: true })
  })

  it("right-click: the app pops up its tray menu, and the answer lists it", async () => {
    const right = ok(await mcp.call("electron_native_tray", { icon: "right-click" }))
    expect(right.text).toMatch(
      /^Sent right-click to tray \d+'s icon \(bounds 0,0 0x0\): 1 listener ran; the app popped up its menu: Show Tasks, New Task, Check for Updates…, Open Data Folder, Reveal Tasks File, Move Export to Trash, Stop API Server, Quit Tasks\.$/
    )
    expect(right.structured.popped).toContain("Quit Tasks")
    await appEvent("tray right-click: menu shown (icon 0x0)")
  })

  it("double-click: the app starts a new task", async () => {
    const tray = ok(await mcp.call("electron_native_tray")).structured.trays[0].tray
    const double = ok(await mcp.call("electron_native_tray", { icon: "double-click", tray }))
    expect(double.text).toBe(`Sent double-click to tray ${tray}'s icon (bounds 0,0 0x0): 1 listener ran.`)
    await appEvent("tray double-click: new task")
    ok(await mcp.call("electron_expect_text", { target: "testid=notice", text: "Ready for a new task", exact: true }))
  })

  it("refuses a tray that is not there and an icon with a menu item", async () => {
    const missing = await mcp.call("electron_native_tray", { icon: "click", tray: 9999 })
    expect(missing.code).toBe("ELEMENT_NOT_FOUND")
    expect(missing.text).toMatch(/No live tray 9999[\s\S]*Give tray: tray \d+\.$/)
    const both = await mcp.call("electron_native_tray", { icon: "click", id: "tray-show" })
    expect(both.code).toBe("INVALID_ARGUMENT")
    const trayAlone = await mcp.call("electron_native_tray", { tray: 1 })
    expect(trayAlone.code).toBe("INVALID_ARGUMENT")
  })
})
