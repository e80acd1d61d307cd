/**
 * Faults end in a typed error within a bounded time, the server keeps serving, and a fresh launch
 * works afterwards: a renderer crash, a renderer stuck in an infinite loop, a window closed mid-action.
 * (A main-process crash and a vanished client are in lifecycle.test.ts; cancellation in unit/security.)
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import { waitAllGone } from "../support/processes.js"

let mcp: TestClient

const launch = async () => {
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: "testid=ping-button" })).isError).toBe(false)
}

const timed = async <A>(f: () => Promise<A>) => {
  const started = Date.now()
  const value = await f()
  return { value, ms: Date.now() - started }
}

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer", "main"], operationTimeoutMs: 20_000 })
})

afterAll(async () => {
  await mcp?.close()
})

describe("faults", () => {
  it("a renderer stuck in an infinite loop: actions time out, the server keeps serving, close kills the app", async () => {
    await launch()
    const pid = (await mcp.call("electron_status")).structured.app.pid as number
    await mcp.call("electron_eval_renderer", { function: "() => { setTimeout(() => { for (;;) {} }, 0) }" })
    const stuck = await timed(() => mcp.call("electron_click", { target: "testid=ping-button", timeoutMs: 1_000 }))
    expect(["TIMEOUT", "NOT_INTERACTABLE", "ELEMENT_NOT_FOUND"]).toContain(stuck.value.code)
    expect(stuck.ms).toBeLessThan(25_000)
    const status = await timed(() => mcp.call("electron_status"))
    expect(status.value.isError).toBe(false)
    expect(status.ms).toBeLessThan(5_000)
    const closed = await timed(() => mcp.call("electron_close", { timeoutMs: 2_000 }))
    expect(closed.value.isError, closed.value.text).toBe(false)
    expect(closed.ms).toBeLessThan(15_000)
    expect(await waitAllGone([pid])).toEqual([])
  })

  it("a crashed renderer: the window's calls fail with a typed error, electron_errors shows the crash, a new launch works", async () => {
    await launch()
    const crash = await mcp.call("electron_navigate", { url: "chrome://crash", timeoutMs: 5_000 })
    expect(crash.isError).toBe(true)
    const after = await timed(() => mcp.call("electron_get_text", { target: "testid=board-name", timeoutMs: 2_000 }))
    expect(after.value.isError).toBe(true)
    expect(after.value.code).toMatch(/^(APP_CRASHED|TIMEOUT|ELEMENT_NOT_FOUND|WINDOW_NOT_FOUND|OPERATION_FAILED)$/)
    expect(after.ms).toBeLessThan(10_000)
    const errors = await mcp.call("electron_errors")
    expect(errors.text).toMatch(/crash/i)
    expect((await mcp.call("electron_status")).isError).toBe(false)
    await launch()
    expect((await mcp.call("electron_get_text", { target: "testid=board-name" })).text).toBe("My board")
  })

  it("a window closed mid-action ends the action with WINDOW_NOT_FOUND, not a hang", async () => {
    await launch()
    await mcp.call("electron_click", { target: "testid=open-settings" })
    const opened = await mcp.call("electron_wait_for_window", { title: "Settings" })
    expect(opened.isError, opened.text).toBe(false)
    // Main closes the settings window a second from now, while an assertion waits on an element that
    // never appears there (for up to 15 s): the closed window must end the wait at once.
    const scheduled = await mcp.call("electron_eval_main", {
      function:
        "({ BrowserWindow }) => { const w = BrowserWindow.getAllWindows().find((w) => w.getTitle() === 'Settings'); setTimeout(() => w.close(), 1000); return w.id }"
    })
    expect(scheduled.isError, scheduled.text).toBe(false)
    const outcome = await timed(() => mcp.call("electron_expect_visible", { target: "testid=never-there", timeoutMs: 15_000 }))
    expect(outcome.value.code, outcome.value.text).toBe("WINDOW_NOT_FOUND")
    expect(outcome.ms).toBeLessThan(8_000)
    const windows = await mcp.call("electron_windows")
    expect(windows.structured.windows.map((w: { id: string }) => w.id)).toEqual(["w1"])
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    expect((await mcp.call("electron_get_text", { target: "testid=board-name" })).text).toBe("My board")
  }, 120_000)

  it("a main-process read that does not answer in time is given up: the action answers, the next call reads again", async () => {
    await launch()
    // The ping makes the next BrowserWindow.getAllWindows() (the answer's main-process read lists the windows) take 6 s.
    const replaced = await mcp.call("electron_eval_main", {
      function:
        "({ ipcMain, BrowserWindow }) => { const all = BrowserWindow.getAllWindows; BrowserWindow.getAllWindows = function () { if (globalThis.__slowNext) { globalThis.__slowNext = false; const end = Date.now() + 6000; while (Date.now() < end); } return all.call(this) }; ipcMain.removeHandler('app:ping'); ipcMain.handle('app:ping', () => { globalThis.__slowNext = true; return 'slowed' }) }"
    })
    expect(replaced.isError, replaced.text).toBe(false)
    const clicked = await timed(() => mcp.call("electron_click", { target: "testid=ping-button" }))
    expect(clicked.value.isError, clicked.value.text).toBe(false)
    expect(clicked.value.text).toMatch(/^Click testid=ping-button done/)
    // Answered at the read's bound (2 s), while the main process is still busy, not once it is free.
    expect(clicked.ms).toBeLessThan(5_000)
    // The main process answers again once it is free, and the page got its reply.
    const free = await mcp.call("electron_eval_main", { function: "() => 'free'" })
    expect(free.text, free.text).toContain("free")
    expect((await mcp.call("electron_wait_for", { target: "testid=ping-result", text: "slowed" })).isError).toBe(false)
  }, 60_000)
})
