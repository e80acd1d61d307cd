/**
 * The tray menu in the tree (issue 35 item 3), over MCP with the essential profile and the native plugin
 * (whose main-process hook records the app's trays): the snapshot's menubar row names the tasks app's tray,
 * electron_click on its ref lists the tray menu, and on an item's ref clicks it (checked in the page's notice).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { rmSync } from "node:fs"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let userData: string

beforeAll(async () => {
  userData = freshUserData()
  mcp = await inMemoryClient({ toolProfile: "essential", plugins: ["native"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  expect(ready.isError, ready.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
  rmSync(userData, { recursive: true, force: true })
})

describe("the tray menu in the tree", () => {
  it("the menubar row carries the tray; its ref lists the tray menu and an item's ref clicks it", async () => {
    // The tasks app builds its tray at ready, before the hook: the plugin's tool finds it (the tray "when asked").
    const before = await mcp.call("electron_snapshot", { depth: 1 })
    expect(before.text).not.toContain("· tray")
    const asked = await mcp.call("electron_native_tray", {})
    expect(asked.isError, asked.text).toBe(false)
    const snapshot = await mcp.call("electron_snapshot", { depth: 1 })
    const row = snapshot.text.split("\n").find((line) => line.startsWith("- menubar:"))
    expect(row, snapshot.text.slice(0, 300)).toMatch(/ · tray \[ref=(m\d+)\]$/)
    const tray = / · tray \[ref=(m\d+)\]$/.exec(row!)![1]!
    const listed = await mcp.call("electron_click", { target: tray })
    expect(listed.isError, listed.text).toBe(false)
    expect(listed.text).toMatch(/- menuitem "Show Tasks" \[ref=m\d+\]/)
    expect(listed.text).toMatch(/- menuitem "Quit Tasks" \[ref=m\d+\]/)
    const newTask = /- menuitem "New Task" \[ref=(m\d+)\]/.exec(listed.text)![1]!
    const clicked = await mcp.call("electron_click", { target: newTask })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toContain("Clicked tray menu item tray > New Task.")
    const notice = await mcp.call("electron_expect_text", { target: "testid=notice", text: "Ready for a new task" })
    expect(notice.isError, notice.text).toBe(false)
  })
})
