/**
 * window.open as Electron has it (Electron's docs for `setWindowOpenHandler` and its spec "window.open"): the
 * handler decides synchronously; `allow` returns a window object (not null) whose `closed`, `close()` and
 * `postMessage()` work, and the child's `opener` answers; `deny` returns null. In the fidelity fixture's file:// page.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

const CHILD = "data:text/html,<title>child</title><script>addEventListener('message', (e) => opener.postMessage('got ' + e.data, '*'))</script><p>child</p>"

describe(`window.open on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  beforeAll(async () => {
    app = await launch(fixture("fidelity"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
  })

  const allowOpen = (action: "allow" | "deny") =>
    app.evaluate(({ BrowserWindow }, decided) => {
      const win = BrowserWindow.getAllWindows()[0]!
      win.webContents.setWindowOpenHandler(() => ({ action: decided }))
    }, action)

  it("on allow returns a window object: postMessage reaches the child, whose opener answers; close() closes it", async () => {
    await allowOpen("allow")
    const created = app.evaluate(
      ({ BrowserWindow }) =>
        new Promise<string>((resolve) =>
          BrowserWindow.getAllWindows()[0]!.webContents.once("did-create-window", (child) =>
            child.webContents.once("did-finish-load", () => resolve(child.webContents.getURL()))
          )
        )
    )
    const opened = await page.evaluate((url) => {
      const child = window.open(url, "_blank")
      ;(window as any).child = child
      return { isNull: child === null, type: typeof child, closed: child?.closed, hasClose: typeof child?.close }
    }, CHILD)
    expect(opened).toEqual({ isNull: false, type: "object", closed: false, hasClose: "function" })
    expect(await created).toMatch(/^data:text\/html/)
    const reply = await page.evaluate(
      () =>
        new Promise<{ data: unknown; fromChild: boolean }>((resolve) => {
          const child = (window as any).child as Window
          addEventListener("message", (event) => resolve({ data: event.data, fromChild: event.source === child }), { once: true })
          child.postMessage("hi", "*")
        })
    )
    expect(reply).toEqual({ data: "got hi", fromChild: true })
    const count = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)
    await page.evaluate(() => ((window as any).child as Window).close())
    await page.waitForFunction(() => ((window as any).child as Window).closed === true)
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(count - 1)
  })

  it("on deny returns null and opens nothing", async () => {
    await allowOpen("deny")
    const before = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)
    expect(await page.evaluate((url) => window.open(url, "_blank") === null, CHILD)).toBe(true)
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(before)
  })
})
