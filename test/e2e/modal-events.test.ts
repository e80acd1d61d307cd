/**
 * Issue 35, modal states the tasks app does not show, end to end over MCP with `--tool-profile essential`
 * only, on the modals fixture app (test/fixtures/apps/modals): a native message box the main process opens
 * over IPC after work of its own (just after the click returns) is in that click's answer; a beforeunload
 * the page's own reload runs shows Leave/Stay rows answered by click; a Sync message box (which cannot
 * wait) is answered by policy and the answer says so; a per-window menu (`win.setMenu`) is in the menubar row.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { activityLines } from "../support/activity.js"
import { freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

const app = join(packageRoot(), "test", "fixtures", "apps", "modals")
const userData = freshUserData()
let mcp: TestClient

/** The ref of the row `- <role> "<name>" … [ref=dN]` in an answer. */
const refOf = (result: ToolCallOutcome, role: string, name: string): string => {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  const match = new RegExp(`- ${role} "${escaped}"[^\\n]*\\[ref=(d\\d+)\\]`).exec(result.text)
  expect(match, `no ${role} "${name}" row in:\n${result.text}`).not.toBeNull()
  return match![1]!
}

const textIs = async (testid: string, text: string) => {
  const result = await mcp.call("electron_expect_text", { target: `testid=${testid}`, text })
  expect(result.isError, result.text).toBe(false)
}

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "essential" })
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: userData } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("modal states in the answer of the action that opened them (essential)", () => {
  it("a message box the main process opens over IPC after a read of its own is in the click's answer", async () => {
    const clicked = await mcp.call("electron_click", { target: "testid=late-box" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toMatch(/- dialog "message box: Late box[^"]*" \[modal\] \(in w1; held: answers its default in \d+ s\):/)
    const answered = await mcp.call("electron_click", { target: refOf(clicked, "button", "Discard") })
    expect(answered.text).toContain('"Discard" (response 1)')
    // The app does what Discard means (the draft is emptied) and shows nothing else of the answer.
    const emptied = await mcp.call("electron_expect_value", { target: "testid=draft", value: "" })
    expect(emptied.isError, emptied.text).toBe(false)
    expect(activityLines(userData, "message-box")).toEqual(["message-box Late box: Discard"])
    await textIs("result", "none")
  })

  it("a Sync message box is answered by policy at once, and the click's answer says so", async () => {
    const clicked = await mcp.call("electron_click", { target: "testid=sync-box" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toContain('showMessageBoxSync "Sync box" answered at once by policy (response 1): a Sync dialog cannot wait for the agent')
    // Cancel: the app writes nothing and shows nothing; its activity log says the box was answered Cancel.
    await expect
      .poll(() => activityLines(userData, "message-box"), { timeout: 15_000 })
      .toEqual(["message-box Late box: Discard", "message-box Sync box: Cancel"])
    expect(existsSync(join(userData, "notes.txt"))).toBe(false)
    await textIs("result", "none")
    // Told once: the next answer does not repeat it.
    expect((await mcp.call("electron_snapshot")).text).not.toContain("answered at once by policy")
  })

  it("a beforeunload the page's own reload runs: Stay keeps the page, Leave reloads it", async () => {
    await textIs("loads", "loads 1")
    expect((await mcp.call("electron_check", { target: "testid=guard" })).isError).toBe(false)
    const asked = await mcp.call("electron_click", { target: "testid=reload" })
    expect(asked.isError, asked.text).toBe(false)
    expect(asked.text).toMatch(/- dialog "leave page\?[^"]*" \[modal\] \(in w1; its page is blocked\):/)
    const stay = await mcp.call("electron_click", { target: refOf(asked, "button", "Stay") })
    expect(stay.isError, stay.text).toBe(false)
    expect(stay.text).toContain("Stayed on the page (dismissed its beforeunload)")
    await textIs("loads", "loads 1")

    const again = await mcp.call("electron_click", { target: "testid=reload" })
    expect(again.text).toMatch(/- dialog "leave page\?/)
    const leave = await mcp.call("electron_click", { target: refOf(again, "button", "Leave") })
    expect(leave.isError, leave.text).toBe(false)
    expect(leave.text).toContain("Left the page (accepted its beforeunload)")
    await textIs("loads", "loads 2")
  })
})

describe("a per-window menu in the menubar row (essential)", () => {
  it("win.setMenu's menu is read next to the application menu; its item is clicked by ref", async () => {
    const before = await mcp.call("electron_snapshot")
    expect(before.text.split("\n").find((line) => line.startsWith("- menubar:"))).toMatch(/^- menubar: File \[ref=m\d+\]$/)
    await mcp.call("electron_click", { target: "testid=board-mode" })
    await textIs("result", "board mode: true")
    const snapshot = await mcp.call("electron_snapshot")
    const row = snapshot.text.split("\n").find((line) => line.startsWith("- menubar:"))
    expect(row, snapshot.text.slice(0, 400)).toMatch(/^- menubar: File \[ref=m\d+\] · w1 Board \[ref=m\d+\]$/)
    const board = await mcp.call("electron_click", { target: /w1 Board \[ref=(m\d+)\]/.exec(row!)![1]! })
    expect(board.isError, board.text).toBe(false)
    expect(board.text).toMatch(/- menuitem "Archive" \[disabled\] \[ref=m\d+\]/)
    const item = /- menuitem "Refresh board" \[ref=(m\d+)\] F5/.exec(board.text)
    expect(item, board.text).not.toBeNull()
    const clicked = await mcp.call("electron_click", { target: item![1]! })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toContain("Clicked menu item w1 Board > Refresh board")
    await textIs("result", "menu: refreshed 1")
  })
})
