/**
 * webContents `focus`/`blur` following its window's focus, and `will-redirect` (preventable) for main-frame
 * server redirects, on the bare fixture app (windows and listeners are added from the test with Electron's API).
 */
import type { ElectronApplication } from "playwright-core"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, loadedFirstWindow, runtime } from "./helpers.js"

describe(`webContents focus/blur and will-redirect on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let server: Server
  let origin: string
  const requests: Array<string> = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? "")
      const redirects: Record<string, string> = { "/start": "/final", "/blocked": "/elsewhere" }
      const target = redirects[request.url ?? ""]
      if (target) {
        response.writeHead(302, { location: target })
        response.end()
        return
      }
      response.setHeader("content-type", "text/html")
      response.end(`<title>page ${request.url}</title>`)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    app = await launch(fixture("bare/main.js"))
    await loadedFirstWindow(app, /^data:/)
  })

  afterAll(async () => {
    await app?.close()
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
  })

  it("emits blur on the page of the window that loses focus and focus on the page of the one that gains it", async () => {
    const events = await app.evaluate(async ({ BrowserWindow }) => {
      const first = BrowserWindow.getAllWindows()[0]!
      const log: Array<string> = []
      const watch = (name: string, win: Electron.BrowserWindow) => {
        win.webContents.on("focus", (...args: Array<unknown>) => log.push(`${name} focus ${args.length}`))
        win.webContents.on("blur", (...args: Array<unknown>) => log.push(`${name} blur ${args.length}`))
      }
      watch("first", first)
      first.focus()
      const second = new BrowserWindow({ width: 300, height: 200, show: false })
      watch("second", second)
      second.show()
      const afterShow = [...log]
      first.focus()
      const afterRefocus = log.slice(afterShow.length)
      const focused = [first.webContents.isFocused(), second.webContents.isFocused()]
      second.destroy()
      return { afterShow, afterRefocus, focused }
    })
    expect(events.afterShow).toEqual(["first blur 0", "second focus 0"])
    expect(events.afterRefocus).toEqual(["second blur 0", "first focus 0"])
    expect(events.focused).toEqual([true, false])
  })

  it("emits will-redirect before did-redirect-navigation for a main-frame server redirect, with Electron's details", async () => {
    const result = await app.evaluate(async ({ BrowserWindow }, start) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      const log: Array<unknown> = []
      const onWill = (event: any, url: string, isInPlace: boolean, isMainFrame: boolean) =>
        log.push({
          name: "will-redirect",
          url,
          detailsUrl: event.url,
          isInPlace,
          isMainFrame,
          detailsMainFrame: event.isMainFrame,
          sameFrame: event.frame === contents.mainFrame
        })
      const onDid = (_event: unknown, url: string) => log.push({ name: "did-redirect-navigation", url })
      contents.on("will-redirect", onWill)
      contents.on("did-redirect-navigation", onDid)
      const outcome = await contents.loadURL(start).then(
        () => "loaded",
        (error: any) => error.code
      )
      contents.off("will-redirect", onWill)
      contents.off("did-redirect-navigation", onDid)
      return { outcome, log, url: contents.getURL() }
    }, `${origin}/start`)
    expect(result.outcome).toBe("loaded")
    expect(result.url).toBe(`${origin}/final`)
    expect(result.log).toEqual([
      {
        name: "will-redirect",
        url: `${origin}/final`,
        detailsUrl: `${origin}/final`,
        isInPlace: false,
        isMainFrame: true,
        detailsMainFrame: true,
        sameFrame: true
      },
      { name: "did-redirect-navigation", url: `${origin}/final` }
    ])
  })

  it("will-redirect's preventDefault() cancels the navigation: ERR_ABORTED, the target is never requested", async () => {
    const result = await app.evaluate(async ({ BrowserWindow }, start) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      const log: Array<string> = []
      const onWill = (event: Electron.Event, url: string) => {
        log.push(`will-redirect ${url}`)
        event.preventDefault()
      }
      const onDid = (_event: unknown, url: string) => log.push(`did-redirect-navigation ${url}`)
      const onFail = (_event: unknown, code: number, description: string) => log.push(`did-fail-provisional-load ${code} ${description}`)
      contents.on("will-redirect", onWill)
      contents.on("did-redirect-navigation", onDid)
      contents.on("did-fail-provisional-load", onFail)
      const outcome = await contents.loadURL(start).then(
        () => "loaded",
        (error: any) => `${error.code} ${error.errno}`
      )
      contents.off("will-redirect", onWill)
      contents.off("did-redirect-navigation", onDid)
      contents.off("did-fail-provisional-load", onFail)
      return { outcome, log }
    }, `${origin}/blocked`)
    expect(result.outcome).toBe("ERR_ABORTED -3")
    expect(result.log).toEqual([`will-redirect ${origin}/elsewhere`, "did-fail-provisional-load -3 ERR_ABORTED"])
    expect(requests).toContain("/blocked")
    expect(requests).not.toContain("/elsewhere")
  })
})
