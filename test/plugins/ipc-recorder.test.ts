/**
 * The ipc plugin's main-process hook on a model of Electron's ipcMain (an EventEmitter with the
 * `_invokeHandlers` map its dispatch reads with has/get): handlers registered before the hook are wrapped,
 * the log is bounded, mocks answer (even without a handler) and leave the app's handlers untouched.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { EventEmitter } from "node:events"
import type { ElectronModule } from "../../src/layers/driver/ElectronDriver.js"
import { installIpcRecorder, type IpcState } from "../../src/plugins/ipc/recorder.js"

class FakeWebContents {
  readonly sent: Array<[string, ...Array<unknown>]> = []
  constructor(readonly id: number) {}
  send(channel: string, ...args: Array<unknown>) {
    this.sent.push([channel, ...args])
  }
}

const fakeElectron = () => {
  const ipcMain = Object.assign(new EventEmitter(), { _invokeHandlers: new Map<string, (...a: Array<unknown>) => unknown>() })
  const first = new FakeWebContents(1)
  const app = new EventEmitter()
  return { ipcMain, app, first, webContents: { getAllWebContents: () => [first] } }
}

/** The model covers only what the hook touches: it stands in for the whole electron module. */
const install = (electron: ReturnType<typeof fakeElectron>) => installIpcRecorder(electron as unknown as ElectronModule)

/** Electron's dispatch of an invoke: has, then get, then call. */
const invoke = async (
  ipcMain: { _invokeHandlers: Map<string, (...a: Array<unknown>) => unknown> },
  sender: FakeWebContents,
  channel: string,
  ...args: Array<unknown>
) => {
  if (!ipcMain._invokeHandlers.has(channel)) throw new Error(`No handler registered for '${channel}'`)
  return await ipcMain._invokeHandlers.get(channel)!({ sender }, ...args)
}

const state = () => (globalThis as { __stagewright_ipc?: IpcState }).__stagewright_ipc!

afterEach(() => {
  delete (globalThis as { __stagewright_ipc?: unknown }).__stagewright_ipc
})

describe("the ipc recorder hook", () => {
  it("wraps handlers registered before it ran, records invoke, send and webContents.send, and keeps 500 entries", async () => {
    const electron = fakeElectron()
    electron.ipcMain._invokeHandlers.set("echo", (_event, value) => ({ echoed: value }))
    install(electron)
    expect(await invoke(electron.ipcMain, electron.first, "echo", "hi")).toEqual({ echoed: "hi" })
    electron.ipcMain.emit("log", { sender: electron.first }, "line")
    const later = new FakeWebContents(7)
    electron.app.emit("web-contents-created", {}, later)
    later.send("update", 1)
    expect(later.sent).toEqual([["update", 1]])
    const [inv, send, out] = state().entries
    expect(inv).toMatchObject({ channel: "echo", dir: "in", kind: "invoke", wc: 1, preview: '["hi"]', result: { preview: '{"echoed":"hi"}' } })
    expect(send).toMatchObject({ channel: "log", dir: "in", kind: "send", wc: 1, listeners: 0 })
    expect(out).toMatchObject({ channel: "update", dir: "out", kind: "send", wc: 7, preview: "[1]" })
    for (let i = 0; i < 600; i++) electron.first.send("tick", i)
    expect(state().entries).toHaveLength(500)
    expect(state().dropped).toBe(103)
    expect(state().entries.at(-1)).toMatchObject({ seq: 603, preview: "[599]" })
  })

  it("answers mocks (even for a channel without a handler) and leaves the app's handlers in place", async () => {
    const electron = fakeElectron()
    const original = () => "real"
    electron.ipcMain._invokeHandlers.set("ping", original)
    install(electron)
    expect(state().setMock("ping", { result: "fake" })).toEqual({ handled: true, replaced: false })
    expect(state().setMock("ghost", { error: "nope" })).toEqual({ handled: false, replaced: false })
    expect(state().handled()).toEqual(["ping"])
    expect(await invoke(electron.ipcMain, electron.first, "ping")).toBe("fake")
    await expect(invoke(electron.ipcMain, electron.first, "ghost")).rejects.toThrow("nope")
    expect(state().entries.map((e) => [e.channel, e.mocked, e.error])).toEqual([
      ["ping", true, undefined],
      ["ghost", true, "Error: nope"]
    ])
    expect(Map.prototype.get.call(electron.ipcMain._invokeHandlers, "ping")).toBe(original)
    expect(state().clearMocks(null)).toEqual([
      { channel: "ping", calls: 1 },
      { channel: "ghost", calls: 1 }
    ])
    expect(await invoke(electron.ipcMain, electron.first, "ping")).toBe("real")
    await expect(invoke(electron.ipcMain, electron.first, "ghost")).rejects.toThrow("No handler registered for 'ghost'")
  })

  it("lets the app register a handler for a channel mocked without one (the mock answers until cleared)", async () => {
    const electron = fakeElectron()
    // Electron's ipcMain.handle refuses a second handler by asking the table.
    const ipcMain = Object.assign(electron.ipcMain, {
      handle(this: typeof electron.ipcMain, channel: string, fn: (...a: Array<unknown>) => unknown) {
        if (this._invokeHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
        this._invokeHandlers.set(channel, fn)
      }
    })
    install(electron)
    state().setMock("late", { result: "mocked" })
    ipcMain.handle("late", () => "app")
    expect(() => ipcMain.handle("late", () => "again")).toThrow("second handler")
    expect(await invoke(ipcMain, electron.first, "late")).toBe("mocked")
    state().clearMocks("late")
    expect(await invoke(ipcMain, electron.first, "late")).toBe("app")
  })
})
