/**
 * A page served from a custom scheme, as the app and the automation client see it (issue 36 item 2): on Electron
 * `page.url()`, frame URLs, console locations, request URLs, error texts and the page's own `document.URL` name
 * `app://bundle/…`. The stand-in loads such a page at a mapped `https://bundle.app.standin.invalid/…` address (see
 * its README); none of what is read here may name that address. Fixture: test/fixtures/electron-standin-tests/protocols.
 */
import type { ConsoleMessage, ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import { fixture, isStandin, launch, runtime } from "./helpers.js"

const INDEX = "app://bundle/index.html"

describe(`the URL of a custom-scheme page on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  const mainUrl = (): Promise<string> => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL())

  beforeAll(async () => {
    app = await launch(fixture("protocols"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
  })

  afterAll(async () => {
    await app?.close()
  })

  it("page.url(), the frames, document.URL/documentURI/baseURI and webContents.getURL() name app://", async () => {
    const inPage = await page.evaluate(() => ({
      url: document.URL,
      documentURI: document.documentURI,
      baseURI: document.baseURI,
      elementBase: document.body.baseURI,
      origin: window.origin,
      // Compared inside the page: the page's own scripts see the app's URL, not only the client.
      ownScriptSees: document.URL.startsWith("app://bundle/")
    }))
    expect(page.url()).toBe(INDEX)
    expect(page.frames().map((frame) => frame.url())).toEqual([INDEX])
    expect(page.mainFrame().url()).toBe(INDEX)
    expect(inPage).toEqual({ url: INDEX, documentURI: INDEX, baseURI: INDEX, elementBase: INDEX, origin: "app://bundle", ownScriptSees: true })
    expect(await mainUrl()).toBe(INDEX)
  })

  it("a reload's console location, requests and an uncaught error's text name app://", async () => {
    const requests: Array<string> = []
    page.on("request", (request) => requests.push(request.url()))
    const logged = page.waitForEvent("console", (message: ConsoleMessage) => message.text() === "protocols fixture: app.js ran")
    await page.reload()
    const message = await logged
    await page.waitForSelector("body[data-ready=true]")
    expect(message.location().url).toBe("app://bundle/app.js")
    expect(requests).toEqual(expect.arrayContaining([INDEX, "app://bundle/app.js", "app://bundle/style.css", "app://bundle/echo"]))
    const thrown = page.waitForEvent("pageerror")
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error(`boom at ${location.href}`)
      })
    })
    const error = await thrown
    expect(error.message).toBe(`boom at ${INDEX}`)
    expect(JSON.stringify({ requests, location: message.location(), error: [error.message, error.stack] })).not.toContain("standin.invalid")
  })

  it("page.goto() of an app:// URL loads it; page.url(), title and getURL() name it", async () => {
    await page.goto("app://bundle/other.html")
    expect(page.url()).toBe("app://bundle/other.html")
    expect(await page.title()).toBe("Other")
    expect(await page.evaluate(() => document.URL)).toBe("app://bundle/other.html")
    expect(await mainUrl()).toBe("app://bundle/other.html")
  })

  it("a page of a scheme that is not standard: page.url() and document.URL are the URL as loaded", async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.loadURL("legacy:start"))
    await page.waitForSelector("text=legacy page")
    expect(page.url()).toBe("legacy:start")
    expect(await page.evaluate(() => [document.URL, window.origin])).toEqual(["legacy:start", "null"])
    expect(await mainUrl()).toBe("legacy:start")
  })
})

describe("the stand-in's DevTools relay", () => {
  it.skipIf(!isStandin)(
    "[stand-in only] serves Chromium's browser path on a port of its own; a second client gets app:// target URLs and is closed when the app quits",
    async () => {
      const app = await launch(fixture("protocols"))
      try {
        await app.firstWindow()
        const endpoints = await app.evaluate(({ __standin }: any) => __standin.chromium as { wsEndpoint: string; relayEndpoint: string })
        expect(endpoints.relayEndpoint).not.toBe(endpoints.wsEndpoint)
        expect(new URL(endpoints.relayEndpoint).pathname).toBe(new URL(endpoints.wsEndpoint).pathname)
        const client = new WebSocket(endpoints.relayEndpoint, { perMessageDeflate: false })
        const closed = new Promise<number>((resolve) => client.once("close", (code) => resolve(code)))
        await new Promise((resolve, reject) => {
          client.once("open", resolve)
          client.once("error", reject)
        })
        const answer = new Promise<any>((resolve) => client.once("message", (data) => resolve(JSON.parse(String(data)))))
        client.send(JSON.stringify({ id: 1, method: "Target.getTargets" }))
        const { result } = await answer
        const pages = (result.targetInfos as Array<{ type: string; url: string }>).filter((target) => target.type === "page")
        expect(pages.map((target) => target.url)).toContain(INDEX)
        await app.close()
        expect(typeof (await closed)).toBe("number")
        expect(client.readyState).toBe(WebSocket.CLOSED)
      } finally {
        await app.close().catch(() => {})
      }
    }
  )
})
