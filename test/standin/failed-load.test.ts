/**
 * Failed loads and unhandled rejections in the main process, as Electron shows them: loadURL rejects with
 * Electron's error shape (and an ignored promise is no unhandled rejection), did-fail-provisional-load and
 * did-fail-load carry Electron's arguments, the main process warns "Failed to load URL: … with error: …",
 * the window shows an empty page (no Chromium error page), and an app's own unhandled rejection is Node's
 * `warn-with-error-code` warning on the main process's console.
 */
import type { ConsoleMessage, ElectronApplication, Page } from "playwright-core"
import { createServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isAlive } from "../support/processes.js"
import { fixture, launch, loadedFirstWindow, pageWithUrl, runtime } from "./helpers.js"

/** A local port with nothing listening on it. */
const closedPort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

describe(`failed loads and unhandled rejections on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const mainConsole: Array<{ type: string; text: string }> = []
  const stderr: Array<string> = []

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    app.on("console", (message: ConsoleMessage) => mainConsole.push({ type: message.type(), text: message.text() }))
    app.process().stderr?.on("data", (chunk) => stderr.push(String(chunk)))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("rejects loadURL with Electron's error, emits did-fail-provisional-load and did-fail-load with Electron's arguments, warns once, and leaves an ignored promise handled", async () => {
    const port = await closedPort()
    const url = `http://127.0.0.1:${port}/`
    const result = await app.evaluate(async ({ BrowserWindow }, target) => {
      const win = new BrowserWindow({ show: false, title: "failing" })
      const events: Array<unknown> = []
      for (const name of ["did-fail-provisional-load", "did-fail-load"]) {
        win.webContents.on(
          name as any,
          (event: any, code: number, description: string, validatedURL: string, isMainFrame: boolean, processId: number, routingId: number) =>
            events.push([name, code, description, validatedURL, isMainFrame, typeof processId, typeof routingId, typeof event.preventDefault])
        )
      }
      const error = await win.loadURL(target).then(
        () => null,
        (e: any) => ({ message: e.message, code: e.code, errno: e.errno, url: e.url })
      )
      ;(globalThis as any).failingWindowId = win.id
      return { error, events }
    }, url)
    expect(result.error).toEqual({ message: `ERR_CONNECTION_REFUSED (-102) loading '${url}'`, code: "ERR_CONNECTION_REFUSED", errno: -102, url })
    expect(result.events).toEqual([
      ["did-fail-provisional-load", -102, "ERR_CONNECTION_REFUSED", url, true, "number", "number", "function"],
      ["did-fail-load", -102, "ERR_CONNECTION_REFUSED", url, true, "number", "number", "function"]
    ])
    // The warning Electron's WebContents prints (process.emitWarning with type "electron"), on the main console.
    const warning = `electron: Failed to load URL: ${url} with error: ERR_CONNECTION_REFUSED`
    await expect.poll(() => mainConsole.filter((m) => m.text.includes(warning)).length, { timeout: 10_000 }).toBe(1)
    expect(mainConsole.find((m) => m.text.includes(warning))!.type).toBe("error")

    // Ignoring the promise: no unhandled-rejection warning (Electron adds its own catch).
    await app.evaluate(({ BrowserWindow }, target) => {
      const win = BrowserWindow.fromId((globalThis as any).failingWindowId)!
      void win.loadURL(target)
    }, url)
    await expect.poll(() => mainConsole.filter((m) => m.text.includes(warning)).length, { timeout: 10_000 }).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(mainConsole.filter((m) => m.text.includes("UnhandledPromiseRejection"))).toEqual([])
    expect(stderr.join("")).not.toContain("UnhandledPromiseRejection")
  })

  it("shows an empty page with an empty title in the failed window, not Chromium's error page", async () => {
    const failed = await pageWithUrl(app, /^chrome-error:\/\//)
    expect(failed.url()).toBe("chrome-error://chromewebdata/")
    await expect
      .poll(() => failed.evaluate(() => [document.title, document.body ? document.body.innerText.trim() : "", document.querySelectorAll("body *").length]), {
        timeout: 10_000
      })
      .toEqual(["", "", 0])
    const handle = await app.browserWindow(failed)
    await expect(handle.evaluate((win: any) => [win.webContents.getURL(), win.getTitle()])).resolves.toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      "failing"
    ])
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.fromId((globalThis as any).failingWindowId)!.destroy())
  })

  it("reports an unhandled rejection of the app as Node's warn-with-error-code warning on the main console and keeps running", async () => {
    await app.evaluate(() => {
      void Promise.reject(new Error("nobody handles this rejection either"))
    })
    await expect
      .poll(() => mainConsole.find((m) => m.text.includes("UnhandledPromiseRejectionWarning: Error: nobody handles this rejection either")), {
        timeout: 10_000
      })
      .toMatchObject({ type: "error" })
    await expect
      .poll(() => mainConsole.some((m) => /UnhandledPromiseRejectionWarning: Unhandled promise rejection\. .*\(rejection id: \d+\)/s.test(m.text)), {
        timeout: 10_000
      })
      .toBe(true)
    expect(stderr.join("")).toContain("UnhandledPromiseRejectionWarning: Error: nobody handles this rejection either")
    expect(isAlive(app.process().pid!)).toBe(true)
    await expect(page.textContent("#greeting")).resolves.toBe("Welcome")
  })
})
