/**
 * session.webRequest hooks, `login` (HTTP Basic authentication) and webContents.sendInputEvent, on a page
 * served by a local HTTP server of this test (the protocols fixture app's window is pointed at it).
 */
import type { ElectronApplication, Page } from "playwright-core"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

const PAGE = `<!doctype html><title>Server page</title><input id="field"><button id="button" style="position:absolute;left:20px;top:80px;width:120px;height:40px">Press</button>
<p id="clicks">0</p><script>document.getElementById('button').addEventListener('click', () => { const p = document.getElementById('clicks'); p.textContent = String(Number(p.textContent) + 1) })</script>`

describe(`session.webRequest, login and sendInputEvent on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  let server: Server
  let origin = ""
  const seenHeaders: Array<Record<string, string | string[] | undefined>> = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      seenHeaders.push(request.headers)
      if (request.url === "/secret") {
        if (request.headers.authorization !== `Basic ${Buffer.from("ada:lovelace").toString("base64")}`) {
          response.writeHead(401, { "WWW-Authenticate": 'Basic realm="Fixture realm"', "Content-Type": "text/plain" })
          response.end("denied")
          return
        }
        response.writeHead(200, { "Content-Type": "text/html" })
        response.end("<title>Secret</title><p>secret ok</p>")
        return
      }
      if (request.url?.startsWith("/data")) {
        response.writeHead(200, { "Content-Type": "text/plain" })
        response.end(`data ${request.url}`)
        return
      }
      response.writeHead(200, { "Content-Type": "text/html" })
      response.end(PAGE)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    app = await launch(fixture("protocols"))
    page = await app.firstWindow()
    await page.waitForSelector("body[data-ready=true]")
    await app.evaluate(({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0]!.loadURL(url), `${origin}/page`)
    await page.waitForSelector("#button")
  })

  afterAll(async () => {
    await app?.close()
    await new Promise((resolve) => server?.close(resolve))
  })

  const fetchText = (path: string): Promise<string> =>
    page.evaluate(
      (p) =>
        fetch(p).then(
          (r) => r.text(),
          (e: Error) => `failed: ${e.message}`
        ),
      path
    )

  it("onBeforeRequest {cancel} blocks a matching URL (onErrorOccurred: net::ERR_BLOCKED_BY_CLIENT) and leaves others", async () => {
    await app.evaluate(({ session }, o) => {
      const g = globalThis as any
      g.errors = []
      session.defaultSession.webRequest.onBeforeRequest({ urls: [`${o}/data/blocked*`] }, (_details, callback) => callback({ cancel: true }))
      session.defaultSession.webRequest.onErrorOccurred((details) =>
        g.errors.push({ url: details.url, error: details.error, resourceType: details.resourceType })
      )
    }, origin)
    expect(await fetchText("/data/blocked")).toMatch(/^failed: /)
    expect(await fetchText("/data/free")).toBe("data /data/free")
    expect(await app.evaluate(() => (globalThis as any).errors)).toEqual([
      { url: `${origin}/data/blocked`, error: "net::ERR_BLOCKED_BY_CLIENT", resourceType: "xhr" }
    ])
  })

  it("onBeforeRequest {redirectURL} redirects; onBeforeSendHeaders adds a request header the server sees", async () => {
    await app.evaluate(({ session }, o) => {
      const web = session.defaultSession.webRequest
      web.onBeforeRequest({ urls: [`${o}/data/old`] }, (_details, callback) => callback({ redirectURL: `${o}/data/new` }))
      web.onBeforeSendHeaders({ urls: [`${o}/data/*`] }, (details, callback) => callback({ requestHeaders: { ...details.requestHeaders, "X-Hooked": "yes" } }))
      web.onErrorOccurred(null)
    }, origin)
    expect(await fetchText("/data/old")).toBe("data /data/new")
    expect(seenHeaders.at(-1)).toMatchObject({ "x-hooked": "yes" })
  })

  it("onHeadersReceived changes response headers; onCompleted reports status and headers", async () => {
    await app.evaluate(({ session }, o) => {
      const g = globalThis as any
      g.completed = []
      g.completedOnce = new Promise((resolve) => (g.onCompletedSeen = resolve))
      const web = session.defaultSession.webRequest
      web.onBeforeRequest(null)
      web.onBeforeSendHeaders(null)
      web.onHeadersReceived({ urls: [`${o}/data/*`] }, (details, callback) => callback({ responseHeaders: { ...details.responseHeaders, "X-Added": ["1"] } }))
      // Only this request: a completion of the previous test's request may still arrive.
      web.onCompleted(
        { urls: [`${o}/data/h`] },
        (details) =>
          g.completed.push({
            url: details.url,
            statusCode: details.statusCode,
            added: details.responseHeaders?.["X-Added"] ?? details.responseHeaders?.["x-added"]
          }) && g.onCompletedSeen()
      )
    }, origin)
    const header = await page.evaluate(() => fetch("/data/h").then((r) => r.headers.get("x-added")))
    expect(header).toBe("1")
    // onCompleted follows the end of the body, which may come after the page saw the headers: wait for it.
    await app.evaluate(() => (globalThis as any).completedOnce)
    expect(await app.evaluate(() => (globalThis as any).completed)).toEqual([{ url: `${origin}/data/h`, statusCode: 200, added: ["1"] }])
    await app.evaluate(({ session }) => {
      session.defaultSession.webRequest.onHeadersReceived(null)
      session.defaultSession.webRequest.onCompleted(null)
    })
  })

  it("'login' gets the auth info; callback(username, password) answers the server's Basic challenge", async () => {
    await app.evaluate(({ BrowserWindow }) => {
      const g = globalThis as any
      g.logins = []
      BrowserWindow.getAllWindows()[0]!.webContents.on("login", (event, details, authInfo, callback) => {
        event.preventDefault()
        g.logins.push({ url: details.url, authInfo })
        callback("ada", "lovelace")
      })
    })
    await app.evaluate(({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0]!.loadURL(url), `${origin}/secret`)
    expect(await page.textContent("p")).toBe("secret ok")
    const logins = await app.evaluate(() => (globalThis as any).logins)
    expect(logins).toEqual([
      { url: `${origin}/secret`, authInfo: { isProxy: false, scheme: "basic", host: "127.0.0.1", port: Number(new URL(origin).port), realm: "Fixture realm" } }
    ])
  })

  it("sendInputEvent: char events type into the focused field, mouseDown/mouseUp click", async () => {
    await app.evaluate(({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0]!.loadURL(url), `${origin}/page`)
    await page.focus("#field")
    await app.evaluate(async ({ BrowserWindow }) => {
      const wc = BrowserWindow.getAllWindows()[0]!.webContents
      for (const keyCode of ["h", "i"]) {
        wc.sendInputEvent({ type: "keyDown", keyCode })
        wc.sendInputEvent({ type: "char", keyCode })
        wc.sendInputEvent({ type: "keyUp", keyCode })
      }
      wc.sendInputEvent({ type: "mouseDown", x: 60, y: 100, button: "left", clickCount: 1 })
      wc.sendInputEvent({ type: "mouseUp", x: 60, y: 100, button: "left", clickCount: 1 })
    })
    await page.waitForFunction(() => document.getElementById("clicks")!.textContent === "1")
    expect(await page.inputValue("#field")).toBe("hi")
  })
})
