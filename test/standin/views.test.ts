/**
 * BaseWindow + WebContentsView (and the older BrowserView): each view's webContents is a page of its own that
 * Playwright sees, with the view's bounds; BrowserWindow.fromWebContents / electronApp.browserWindow(page) give
 * the window the view is shown in.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, loadedFirstWindow, pageWithUrl, runtime } from "./helpers.js"

const html = (title: string) => "data:text/html;charset=utf-8," + encodeURIComponent(`<!doctype html><title>${title}</title><h1 id="h">${title}</h1>`)

describe(`views on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let left: Page
  let right: Page

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    await loadedFirstWindow(app, /index\.html$/)
    await app.evaluate(
      ({ BaseWindow, WebContentsView }, urls) => {
        const g = globalThis as any
        const win = new BaseWindow({ width: 900, height: 600, title: "two views" })
        const leftView = new WebContentsView()
        const rightView = new WebContentsView()
        win.contentView.addChildView(leftView)
        win.contentView.addChildView(rightView)
        leftView.setBounds({ x: 0, y: 0, width: 300, height: 600 })
        rightView.setBounds({ x: 300, y: 0, width: 600, height: 600 })
        void leftView.webContents.loadURL(urls[0])
        void rightView.webContents.loadURL(urls[1])
        Object.assign(g, { viewsWindow: win, leftView, rightView })
      },
      [html("Left view"), html("Right view")]
    )
    left = await pageWithUrl(app, /Left%20view/)
    right = await pageWithUrl(app, /Right%20view/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("makes each WebContentsView's webContents a page of its own, sized to the view's bounds", async () => {
    await expect(left.textContent("#h")).resolves.toBe("Left view")
    await expect(right.textContent("#h")).resolves.toBe("Right view")
    await expect.poll(() => left.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual([300, 600])
    await expect.poll(() => right.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual([600, 600])
    const info = await app.evaluate(({ BaseWindow, BrowserWindow, webContents }) => {
      const g = globalThis as any
      return {
        children: g.viewsWindow.contentView.children.length,
        bounds: [g.leftView.getBounds(), g.rightView.getBounds()],
        types: [g.leftView.webContents.getType(), g.rightView.webContents.getType()],
        owner: BrowserWindow.fromWebContents(g.rightView.webContents) === g.viewsWindow,
        isBaseWindow: g.viewsWindow instanceof BaseWindow,
        isBrowserWindow: g.viewsWindow instanceof BrowserWindow,
        inAll: BaseWindow.getAllWindows().includes(g.viewsWindow),
        inBrowserWindows: BrowserWindow.getAllWindows().includes(g.viewsWindow),
        webContents: webContents.getAllWebContents().includes(g.leftView.webContents)
      }
    })
    expect(info).toEqual({
      children: 2,
      bounds: [
        { x: 0, y: 0, width: 300, height: 600 },
        { x: 300, y: 0, width: 600, height: 600 }
      ],
      // As Electron 45: a WebContentsView's webContents is of type 'window' (only BrowserView's says 'browserView').
      types: ["window", "window"],
      owner: true,
      isBaseWindow: true,
      isBrowserWindow: false,
      inAll: true,
      inBrowserWindows: false,
      webContents: true
    })
  })

  it("maps a view's page to the window it is shown in (electronApp.browserWindow)", async () => {
    const handle = await app.browserWindow(right)
    await expect(handle.evaluate((win: any) => [win.getTitle(), win.getBounds().width, win === (globalThis as any).viewsWindow])).resolves.toEqual([
      "two views",
      900,
      true
    ])
  })

  it("moves and resizes a view with setBounds; removing it from the window leaves its page alive", async () => {
    await app.evaluate(() => {
      const g = globalThis as any
      g.rightView.setBounds({ x: 300, y: 100, width: 500, height: 400 })
    })
    await expect.poll(() => right.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual([500, 400])
    const after = await app.evaluate(() => {
      const g = globalThis as any
      g.viewsWindow.contentView.removeChildView(g.leftView)
      return { children: g.viewsWindow.contentView.children.length, alive: !g.leftView.webContents.isDestroyed() }
    })
    expect(after).toEqual({ children: 1, alive: true })
    await expect(left.textContent("#h")).resolves.toBe("Left view")
  })

  it("shows a BrowserView in a BrowserWindow (setBrowserView, getBrowserView, fromBrowserView) as a page of its own", async () => {
    await app.evaluate(({ BrowserWindow, BrowserView }, url) => {
      const g = globalThis as any
      const win = new BrowserWindow({ width: 800, height: 600, title: "with a BrowserView", show: false })
      const view = new BrowserView()
      win.setBrowserView(view)
      view.setBounds({ x: 0, y: 50, width: 800, height: 550 })
      void view.webContents.loadURL(url)
      Object.assign(g, { bvWindow: win, browserView: view })
    }, html("Browser view"))
    const page = await pageWithUrl(app, /Browser%20view/)
    await expect(page.textContent("#h")).resolves.toBe("Browser view")
    await expect.poll(() => page.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual([800, 550])
    const info = await app.evaluate(({ BrowserWindow }) => {
      const g = globalThis as any
      return {
        got: g.bvWindow.getBrowserView() === g.browserView,
        views: g.bvWindow.getBrowserViews().length,
        from: BrowserWindow.fromBrowserView(g.browserView) === g.bvWindow,
        owner: BrowserWindow.fromWebContents(g.browserView.webContents) === g.bvWindow,
        bounds: g.browserView.getBounds(),
        type: g.browserView.webContents.getType()
      }
    })
    expect(info).toEqual({ got: true, views: 1, from: true, owner: true, bounds: { x: 0, y: 50, width: 800, height: 550 }, type: "browserView" })
    const handle = await app.browserWindow(page)
    await expect(handle.evaluate((win: any) => win.getTitle())).resolves.toBe("with a BrowserView")
    await app.evaluate(() => {
      const g = globalThis as any
      g.bvWindow.setBrowserView(null)
    })
    await expect(app.evaluate(() => (globalThis as any).bvWindow.getBrowserViews().length)).resolves.toBe(0)
  })

  it("closes a BaseWindow with close/closed events; its views' pages close with webContents.close()", async () => {
    const events = await app.evaluate(async () => {
      const g = globalThis as any
      const seen: Array<string> = []
      g.viewsWindow.on("close", () => seen.push("close"))
      await new Promise<void>((resolve) => {
        g.viewsWindow.on("closed", () => {
          seen.push("closed")
          resolve()
        })
        g.viewsWindow.close()
      })
      seen.push(`destroyed=${g.viewsWindow.isDestroyed()}`)
      g.rightView.webContents.close()
      g.leftView.webContents.close()
      return seen
    })
    expect(events).toEqual(["close", "closed", "destroyed=true"])
    await expect.poll(() => app.windows().some((p) => /(Left|Right)%20view/.test(p.url())), { timeout: 10_000 }).toBe(false)
  })
})
