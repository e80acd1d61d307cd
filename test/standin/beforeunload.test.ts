/**
 * `beforeunload` when the app closes a window, as Electron does it (Electron's docs for `will-prevent-unload`,
 * `webContents.close`, and its spec "will-prevent-unload event"): a page whose `beforeunload` handler prevents
 * the unload keeps its window open on `win.close()`, the webContents emits `will-prevent-unload`, and
 * `event.preventDefault()` on it lets the window close; `app.quit()` is cancelled by such a window.
 * Electron asks no user gesture for this (it has no beforeunload dialog), and neither does the stand-in.
 */
import type { ElectronApplication } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

describe(`beforeunload on win.close() and app.quit() on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let closed = false

  beforeAll(async () => {
    app = await launch(fixture("fidelity"))
    app.once("close", () => (closed = true))
    const page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    if (app && !closed) await app.evaluate(({ app: electronApp }) => electronApp.exit(0)).catch(() => undefined)
  })

  /** Opens a window on a page whose beforeunload handler (in the form given) prevents the unload. */
  const openGuarded = (form: "returnValue" | "preventDefault" | "return") =>
    app.evaluate(
      async ({ BrowserWindow }, handler) => {
        const win = new BrowserWindow({ show: false })
        await win.loadURL(`data:text/html,<title>guarded</title><script>${handler}</script>`)
        return win.id
      },
      form === "returnValue"
        ? "addEventListener('beforeunload', (e) => { e.returnValue = 'unsaved'; })"
        : form === "preventDefault"
          ? "addEventListener('beforeunload', (e) => e.preventDefault())"
          : "onbeforeunload = () => false"
    )

  it("win.close() on a page whose beforeunload prevents unload: the window stays, will-prevent-unload is emitted", async () => {
    for (const form of ["returnValue", "preventDefault", "return"] as const) {
      const id = await openGuarded(form)
      const result = await app.evaluate(async ({ BrowserWindow }, windowId) => {
        const win = BrowserWindow.fromId(windowId)!
        const events: Array<string> = []
        win.on("close", () => events.push("close"))
        const gone = new Promise<void>((resolve) => win.once("closed", () => (events.push("closed"), resolve())))
        const prevented = new Promise<void>((resolve) => win.webContents.once("will-prevent-unload", () => (events.push("will-prevent-unload"), resolve())))
        win.close()
        await Promise.race([prevented, gone])
        await new Promise((resolve) => setTimeout(resolve, 200))
        return { events, destroyed: win.isDestroyed() }
      }, id)
      expect({ form, ...result }).toEqual({ form, events: ["close", "will-prevent-unload"], destroyed: false })
    }
  })

  it("preventDefault() on will-prevent-unload lets the window close", async () => {
    const id = await openGuarded("returnValue")
    const events = await app.evaluate(async ({ BrowserWindow }, windowId) => {
      const win = BrowserWindow.fromId(windowId)!
      const seen: Array<string> = []
      win.webContents.once("will-prevent-unload", (event) => (seen.push("will-prevent-unload"), event.preventDefault()))
      const gone = new Promise<void>((resolve) => win.once("closed", () => (seen.push("closed"), resolve())))
      win.close()
      await gone
      return seen
    }, id)
    expect(events).toEqual(["will-prevent-unload", "closed"])
  })

  it("a page without a preventing handler closes without will-prevent-unload", async () => {
    const events = await app.evaluate(async ({ BrowserWindow }) => {
      const win = new BrowserWindow({ show: false })
      await win.loadURL("data:text/html,<script>addEventListener('beforeunload', () => undefined)</script>")
      const seen: Array<string> = []
      win.webContents.on("will-prevent-unload", () => seen.push("will-prevent-unload"))
      const gone = new Promise<void>((resolve) => win.once("closed", () => (seen.push("closed"), resolve())))
      win.close()
      await gone
      return seen
    })
    expect(events).toEqual(["closed"])
  })

  it("app.quit() is cancelled by a window whose page prevents unload: no will-quit, the app keeps running", async () => {
    await openGuarded("returnValue")
    const result = await app.evaluate(async ({ app: electronApp, BrowserWindow }) => {
      const seen: Array<string> = []
      electronApp.once("before-quit", () => seen.push("before-quit"))
      electronApp.once("will-quit", () => seen.push("will-quit"))
      const guarded = BrowserWindow.getAllWindows().find((win) => win.getTitle() === "guarded")!
      const prevented = new Promise<void>((resolve) => guarded.webContents.once("will-prevent-unload", () => (seen.push("will-prevent-unload"), resolve())))
      const quitting = new Promise<void>((resolve) => electronApp.once("will-quit", () => resolve()))
      electronApp.quit()
      await Promise.race([prevented, quitting])
      await new Promise((resolve) => setTimeout(resolve, 300))
      return { seen, windows: BrowserWindow.getAllWindows().length }
    })
    expect(result.seen).toEqual(["before-quit", "will-prevent-unload"])
    expect(result.windows).toBeGreaterThan(0)
    expect(closed).toBe(false)
  })
})
