/**
 * Custom schemes as Electron has them, in the fidelity fixture (test/fixtures/electron-standin-tests/fidelity):
 * `vscode-file:` registered with registerFileProtocol but not as standard (Electron keeps such URLs as they are
 * written: `vscode-file://index.html` has no path), and the privileged `api:` scheme fetched from its own page
 * with a POST body (`supportFetchAPI`). What the app sees — handler URLs, getURL(), getTitle(), load errors —
 * names the app's URL, never a stand-in address.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

type Fidelity = { fileRequests: Array<string>; apiRequests: Array<{ url: string; method: string; body: string }> }

describe(`custom schemes on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const state = (): Promise<Fidelity> => app.evaluate(() => (globalThis as any).fidelity)

  beforeAll(async () => {
    app = await launch(fixture("fidelity"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
  })

  it("fetch() of a supportFetchAPI scheme from the file:// page reaches protocol.handle (a simple request)", async () => {
    expect(page.url()).toMatch(/^file:\/\//)
    const answer = await page.evaluate(() => fetch("api://bundle/echo", { method: "POST", body: "from file" }).then((response) => response.json()))
    expect(answer).toEqual({ url: "api://bundle/echo", method: "POST", body: "from file" })
  })

  it("a scheme not registered as standard: the handler gets the URL as loaded, getURL() and getTitle() name it", async () => {
    const result = await app.evaluate(async ({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0]!
      await win.loadURL("vscode-file://untitled.html")
      return { url: win.webContents.getURL(), title: win.webContents.getTitle(), windowTitle: win.getTitle() }
    })
    await page.waitForSelector("#untitled")
    expect((await state()).fileRequests).toContain("vscode-file://untitled.html")
    expect(result.url).toBe("vscode-file://untitled.html")
    expect(result.title).toBe("vscode-file://untitled.html")
    expect(result.windowTitle).not.toContain("standin.invalid")
    expect(page.url()).toBe("vscode-file://untitled.html")
    expect(await page.evaluate(() => [document.URL, document.baseURI])).toEqual(["vscode-file://untitled.html", "vscode-file://untitled.html"])
  })

  it("a file the handler cannot find fails with ERR_FILE_NOT_FOUND naming the app's URL", async () => {
    const failure = await app.evaluate(async ({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0]!
      const events: Array<unknown> = []
      win.webContents.once("did-fail-load", (_event, code, description, url) => events.push([code, description, url]))
      const message = await win.loadURL("vscode-file://missing.html").then(
        () => "loaded",
        (error: Error & { code?: string; errno?: number; url?: string }) => ({ message: error.message, code: error.code, errno: error.errno, url: error.url })
      )
      return { message, events, title: win.webContents.getTitle() }
    })
    expect(failure.message).toEqual({
      message: "ERR_FILE_NOT_FOUND (-6) loading 'vscode-file://missing.html'",
      code: "ERR_FILE_NOT_FOUND",
      errno: -6,
      url: "vscode-file://missing.html"
    })
    expect(failure.events).toEqual([[-6, "ERR_FILE_NOT_FOUND", "vscode-file://missing.html"]])
    expect(JSON.stringify(failure)).not.toContain("standin.invalid")
  })

  it("fetch() of a supportFetchAPI scheme with a POST body reaches protocol.handle", async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.loadURL("api://bundle/page"))
    await page.waitForSelector("#api-page")
    const answer = await page.evaluate(async () => {
      const response = await fetch("api://bundle/echo?x=1", { method: "POST", body: "hello body", headers: { "content-type": "text/plain" } })
      return { status: response.status, json: await response.json(), url: response.url }
    })
    expect(answer).toEqual({ status: 200, json: { url: "api://bundle/echo?x=1", method: "POST", body: "hello body" }, url: "api://bundle/echo?x=1" })
    expect((await state()).apiRequests).toContainEqual({ url: "api://bundle/echo?x=1", method: "POST", body: "hello body" })
  })
})
