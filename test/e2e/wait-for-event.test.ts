/**
 * Waiting for app events over MCP (issue 27 item 4), on the workbench app: page events (a custom event on
 * document and on an element) and main-process events (an ipcMain channel, the window's BrowserWindow and
 * webContents, app) come back with their arguments. Main-process listeners are counted before, during and
 * after each wait (electron_eval_main): a wait that fires, times out or is cancelled leaves none behind.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import type { TestClient } from "../support/mcp.js"
import { launchWorkbench } from "./workbench.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await launchWorkbench({ allowEval: ["main"] })
})

afterAll(async () => {
  await mcp?.close()
})

/** How many listeners `emitter` (app, ipcMain, the first window, its webContents) has for `event`. */
const count = async (emitter: "app" | "ipcMain" | "win" | "wc", event: string): Promise<number> => {
  const result = await mcp.call("electron_eval_main", {
    function: `({ app, ipcMain, BrowserWindow }, [emitter, event]) => { const win = BrowserWindow.getAllWindows().find((w) => w.getTitle().startsWith("Workbench")); return ({ app, ipcMain, win, wc: win && win.webContents })[emitter].listenerCount(event) }`,
    arg: [emitter, event]
  })
  expect(result.isError, result.text).toBe(false)
  return result.structured.value as number
}

/** Waits until the emitter has `expected` listeners for the event (the wait's listener is installed, or gone). */
const untilListeners = (emitter: "app" | "ipcMain" | "win" | "wc", event: string, expected: number) =>
  Effect.runPromise(
    Effect.promise(() => count(emitter, event)).pipe(
      Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (n) => n === expected }),
      Effect.timeout("10 seconds")
    )
  )

const heartbeat = async (on: boolean) => {
  const state = await mcp.call("electron_get_text", { target: "testid=heartbeat-button" })
  if ((state.text === "Stop heartbeat") !== on) expect((await mcp.call("electron_click", { target: "testid=heartbeat-button" })).isError).toBe(false)
}

describe("electron_wait_for_event in the page", () => {
  it("returns a custom event on document with its detail, and one on an element", async () => {
    await heartbeat(true)
    try {
      const onDocument = await mcp.call("electron_wait_for_event", { on: "document", event: "heartbeat" })
      expect(onDocument.isError, onDocument.text).toBe(false)
      expect(onDocument.text).toMatch(/^document heartbeat fired after \d+ ms: /)
      expect(onDocument.structured.fired).toMatchObject({ type: "heartbeat", target: "document", isTrusted: false, detail: { label: "beat" } })
      expect(onDocument.structured.fired.detail.n).toBeGreaterThan(0)
      const onElement = await mcp.call("electron_wait_for_event", { on: "element", target: "testid=heartbeat", event: "pulse" })
      expect(onElement.isError, onElement.text).toBe(false)
      expect(onElement.structured.fired).toMatchObject({ type: "pulse", target: "p[data-testid=heartbeat]" })
      expect(onElement.structured.fired.detail.n).toBeGreaterThan(onDocument.structured.fired.detail.n)
    } finally {
      await heartbeat(false)
    }
  })

  it("times out with TIMEOUT when no event comes", async () => {
    const none = await mcp.call("electron_wait_for_event", { on: "window", event: "never-happens", timeoutMs: 200 })
    expect(none.code).toBe("TIMEOUT")
    expect(none.text).toContain("no window never-happens event within 200 ms")
  })
})

describe("electron_wait_for_event in the main process", () => {
  it("returns an ipcMain channel's arguments and the sender, and removes its listener", async () => {
    const before = await count("ipcMain", "work:heartbeat")
    await heartbeat(true)
    try {
      const fired = await mcp.call("electron_wait_for_event", { on: "ipcMain", event: "work:heartbeat" })
      expect(fired.isError, fired.text).toBe(false)
      expect(fired.text).toMatch(/^ipcMain work:heartbeat fired after \d+ ms: \[\{"n":\d+\}\] \(sender \{"webContents":\d+,"url":"file:/)
      expect(fired.structured.args[0].n).toBeGreaterThan(0)
      const title = await mcp.call("electron_wait_for_event", { on: "BrowserWindow", event: "page-title-updated" })
      expect(title.isError, title.text).toBe(false)
      expect(title.structured.args[0]).toMatch(/^Workbench Demo — beat \d+$/)
      const message = await mcp.call("electron_wait_for_event", { on: "webContents", event: "ipc-message" })
      expect(message.isError, message.text).toBe(false)
      expect(message.structured.args[0]).toBe("work:heartbeat")
    } finally {
      await heartbeat(false)
    }
    expect(await count("ipcMain", "work:heartbeat")).toBe(before)
    expect(await count("win", "page-title-updated")).toBe(0)
  })

  it("returns an app event caused while it waits (a window created), with the window named", async () => {
    const before = await count("app", "browser-window-created")
    const waiting = mcp.call("electron_wait_for_event", { on: "app", event: "browser-window-created", timeoutMs: 30_000 })
    await untilListeners("app", "browser-window-created", before + 1)
    // The window is made from the main process, not by a click: what is under test is the wait, not a click
    // that opens a window (whose answer, on a loaded machine, can race the new window).
    const opened = await mcp.call("electron_eval_main", {
      function: '({ BrowserWindow }) => { new BrowserWindow({ width: 300, height: 200, title: "Probe Window", show: false }); return true }'
    })
    expect(opened.isError, opened.text).toBe(false)
    const fired = await waiting
    expect(fired.isError, fired.text).toBe(false)
    expect(fired.structured.args).toEqual([{ BrowserWindow: expect.any(Number), title: "Probe Window" }])
    expect(await count("app", "browser-window-created")).toBe(before)
    const closed = await mcp.call("electron_eval_main", {
      function: '({ BrowserWindow }) => { for (const w of BrowserWindow.getAllWindows()) if (w.getTitle() === "Probe Window") w.destroy(); return true }'
    })
    expect(closed.isError, closed.text).toBe(false)
  })

  it("returns a call of a channel the app serves with ipcMain.handle (ipcRenderer.invoke), and gives the handler back", async () => {
    const handler = async () => {
      const read = await mcp.call("electron_eval_main", {
        function:
          // The stored entry (Map.prototype.get: the held-dialog hooks follow invokes through the map's own get).
          '({ ipcMain }) => { const h = Map.prototype.get.call(ipcMain._invokeHandlers, "window:open-second"); return h ? (h.__stagewright_wait ? "wrapped" : "own") : "none" }'
      })
      expect(read.isError, read.text).toBe(false)
      return read.structured.value as string
    }
    expect(await handler()).toBe("own")
    const waiting = mcp.call("electron_wait_for_event", { on: "ipcMain", event: "window:open-second", timeoutMs: 30_000 })
    await Effect.runPromise(
      Effect.promise(handler).pipe(Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (h) => h === "wrapped" }), Effect.timeout("10 seconds"))
    )
    expect((await mcp.call("electron_click", { target: "testid=open-second-button" })).isError).toBe(false)
    const fired = await waiting
    expect(fired.isError, fired.text).toBe(false)
    expect(fired.text).toMatch(/^ipcMain window:open-second fired after \d+ ms: \[\] \(sender \{"webContents":\d+/)
    // The app's handler ran (the second window opened) and is the app's own again.
    expect(await handler()).toBe("own")
    const closed = await mcp.call("electron_eval_main", {
      function:
        '({ BrowserWindow }) => { const extra = BrowserWindow.getAllWindows().filter((w) => !w.getTitle().startsWith("Workbench Demo")); for (const w of extra) w.destroy(); return extra.length }'
    })
    expect(closed.isError, closed.text).toBe(false)
    expect(closed.structured.value).toBeGreaterThan(0)
  })

  it("a wait that times out removes its listener", async () => {
    const before = await count("app", "open-url")
    const none = await mcp.call("electron_wait_for_event", { on: "app", event: "open-url", timeoutMs: 300 })
    expect(none.code).toBe("TIMEOUT")
    expect(none.text).toContain("no app open-url event within 300 ms")
    expect(await count("app", "open-url")).toBe(before)
  })

  it("a cancelled wait removes its listener from the main process", async () => {
    const before = await count("ipcMain", "never:sent")
    const controller = new AbortController()
    const waiting = mcp.client
      .callTool({ name: "electron_wait_for_event", arguments: { on: "ipcMain", event: "never:sent", timeoutMs: 60_000 } }, undefined, {
        signal: controller.signal,
        timeout: 120_000
      })
      .catch((error: unknown) => error)
    await untilListeners("ipcMain", "never:sent", before + 1)
    controller.abort()
    await waiting
    await untilListeners("ipcMain", "never:sent", before)
    expect(await count("ipcMain", "never:sent")).toBe(before)
  })

  it("refuses events whose listener would change the app, and checks its arguments", async () => {
    const quit = await mcp.call("electron_wait_for_event", { on: "app", event: "window-all-closed" })
    expect(quit.code).toBe("INVALID_ARGUMENT")
    expect(quit.text).toContain("stops the app from quitting")
    const bad = await mcp.call("electron_wait_for_event", { on: "app", event: "x); process.exit(1" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    const noTarget = await mcp.call("electron_wait_for_event", { on: "element", event: "click" })
    expect(noTarget.code).toBe("INVALID_ARGUMENT")
    expect(noTarget.text).toContain("needs a target")
  })
})
