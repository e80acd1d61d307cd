/**
 * CORS as Electron applies it, in the fidelity fixture (test/fixtures/electron-standin-tests/fidelity): a `file://`
 * page is not held to CORS (Electron grants file:// pages universal access by default), and a webRequest
 * `redirectURL` from onBeforeRequest is an internal redirect that a cross-origin `fetch()` follows (Electron's
 * synthetic redirect answers the CORS check itself, as Chromium's extension webRequest does).
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

describe(`CORS from file:// and webRequest redirects on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  let server: string
  let otherOrigin: string

  beforeAll(async () => {
    app = await launch(fixture("fidelity"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
    ;({ server, otherOrigin } = await app.evaluate(() => (globalThis as any).fidelity))
  })

  afterEach(async () => {
    await app.evaluate(({ session }) => session.defaultSession.webRequest.onBeforeRequest(null))
  })

  afterAll(async () => {
    await app?.close()
  })

  const fetchFromPage = (url: string) =>
    page.evaluate(async (href) => {
      try {
        const response = await fetch(href)
        return { status: response.status, json: await response.json() }
      } catch (error) {
        return { error: String(error) }
      }
    }, url)

  it("a file:// page fetches an HTTP API that sends no Access-Control-Allow-Origin", async () => {
    expect(page.url()).toMatch(/^file:\/\//)
    expect(await fetchFromPage(`${server}/plain?from=file`)).toMatchObject({ status: 200, json: { path: "/plain?from=file", method: "GET" } })
  })

  it("a file:// page's fetch() that needs a CORS preflight (PUT, a JSON body, a custom header) reaches the API", async () => {
    expect(page.url()).toMatch(/^file:\/\//)
    const answer = await page.evaluate(async (href) => {
      try {
        const response = await fetch(href, { method: "PUT", headers: { "content-type": "application/json", "x-request-id": "7" }, body: '{"done":true}' })
        return { status: response.status, json: await response.json() }
      } catch (error) {
        return { error: String(error) }
      }
    }, `${server}/plain?preflighted`)
    expect(answer).toMatchObject({ status: 200, json: { path: "/plain?preflighted", method: "PUT", body: '{"done":true}' } })
  })

  it("redirectURL from onBeforeRequest is followed by a cross-origin fetch()", async () => {
    await app.evaluate(({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0]!.loadURL(url), `${otherOrigin}/page`)
    await page.waitForSelector("text=served")
    await app.evaluate(({ session }, target) => {
      session.defaultSession.webRequest.onBeforeRequest({ urls: ["*://*/cors/start*"] }, (_details, callback) => callback({ redirectURL: target }))
    }, `${server}/cors/target`)
    expect(await fetchFromPage(`${server}/cors/start`)).toMatchObject({ status: 200, json: { path: "/cors/target", origin: otherOrigin } })
  })

  it("redirectURL from onBeforeRequest is followed by a fetch() from a file:// page", async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.loadFile("site/index.html"))
    await page.waitForSelector("body[data-ready=true]")
    await app.evaluate(({ session }, target) => {
      session.defaultSession.webRequest.onBeforeRequest({ urls: ["*://*/cors/from-file*"] }, (_details, callback) => callback({ redirectURL: target }))
    }, `${server}/cors/landed`)
    expect(await fetchFromPage(`${server}/cors/from-file`)).toMatchObject({ status: 200, json: { path: "/cors/landed" } })
  })
})
