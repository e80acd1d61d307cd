/**
 * Custom protocols: `app://` (privileged standard + secure + fetch) served by protocol.handle and `legacy:`
 * by the deprecated registerStringProtocol, in the fixture app test/fixtures/electron-standin-tests/protocols
 * (Electron's real API only). On the stand-in a navigation to a custom scheme loads a mapped https URL (see
 * the stand-in README), so these tests read URLs from the main process, where both runtimes report `app://`.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

type Fixture = { requests: Array<{ url: string; method: string; legacy?: boolean }>; events: Array<{ name: string; url: string }> }

describe(`protocol.handle and register*Protocol on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const state = (): Promise<Fixture> => app.evaluate(() => (globalThis as any).protocolFixture)
  const mainUrl = (): Promise<string> => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL())

  beforeAll(async () => {
    app = await launch(fixture("protocols"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
  })

  it("serves the first window's HTML, script, style and fetch() from the handler, as a secure context", async () => {
    expect(await mainUrl()).toBe("app://bundle/index.html")
    expect(await page.textContent("#status")).toBe("echo app://bundle/echo")
    const urls = (await state()).requests.map((request) => request.url)
    expect(urls).toEqual(expect.arrayContaining(["app://bundle/index.html", "app://bundle/style.css", "app://bundle/app.js", "app://bundle/echo"]))
    expect(await page.evaluate(() => [isSecureContext, getComputedStyle(document.querySelector("h1")!).color])).toEqual([true, "rgb(0, 128, 0)"])
  })

  it("a relative link stays on the scheme and the navigation events carry app:// URLs", async () => {
    // The main process learns of the navigation from Chromium's own event, which may come after the page
    // shows the new document: wait for that event (did-navigate) before reading the URL there.
    await app.evaluate(({ BrowserWindow }) => {
      const wc = BrowserWindow.getAllWindows()[0]!.webContents
      ;(globalThis as any).otherNavigated = new Promise<void>((resolve) => {
        const onNavigate = (_event: unknown, url: string) => {
          if (url !== "app://bundle/other.html") return
          wc.off("did-navigate", onNavigate)
          resolve()
        }
        wc.on("did-navigate", onNavigate)
      })
    })
    await Promise.all([page.waitForSelector("text=Other page"), page.click("#other")])
    await app.evaluate(() => (globalThis as any).otherNavigated)
    expect(await mainUrl()).toBe("app://bundle/other.html")
    const events = (await state()).events.filter((event) => event.url === "app://bundle/other.html").map((event) => event.name)
    expect(events).toEqual(expect.arrayContaining(["will-navigate", "did-start-navigation", "did-navigate"]))
  })

  it("registerStringProtocol serves a page of a non-standard scheme; loadURL resolves", async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.loadURL("legacy:start"))
    await page.waitForSelector("text=legacy page")
    expect(await page.title()).toBe("Legacy")
    expect(await mainUrl()).toBe("legacy:start")
    expect((await state()).requests.filter((request) => request.legacy)).toEqual([{ url: "legacy:start", method: "GET", legacy: true }])
  })

  it("isProtocolHandled, a second handle() throws, unhandle() makes loads fail", async () => {
    const result = await app.evaluate(async ({ protocol, BrowserWindow }) => {
      const handled = protocol.isProtocolHandled("app")
      let second = ""
      try {
        protocol.handle("app", () => new Response("again"))
      } catch (error) {
        second = String((error as Error).message)
      }
      protocol.unhandle("legacy" as string)
      const after = protocol.isProtocolHandled("legacy")
      const error = await BrowserWindow.getAllWindows()[0]!
        .loadURL("legacy:again")
        .then(
          () => "loaded",
          (failure: Error) => failure.message
        )
      return { handled, second, after, error }
    })
    expect(result).toMatchObject({ handled: true, second: "Failed to register protocol: app", after: false })
    expect(result.error).toMatch(/^ERR_/)
  })
})
