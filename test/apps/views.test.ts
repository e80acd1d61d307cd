/**
 * The `views` sample app (test/fixtures/apps/views): one BaseWindow made of two WebContentsViews. Each view is a
 * page of its own for playwright-core, sized to its view's bounds, and both map to the same window.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { cleanUp, launchSample, runtime, text, UI_TIMEOUT, waitForExit, waitForReady, type Launched } from "./support.js"

const poll = { timeout: UI_TIMEOUT }

let launched: Launched
let sidebar: Page
let content: Page

const pageAt = async (file: string): Promise<Page> => {
  const deadline = Date.now() + UI_TIMEOUT
  for (;;) {
    const page = launched.app.windows().find((p) => p.url().endsWith(file))
    if (page) {
      await waitForReady(page)
      return page
    }
    if (Date.now() > deadline)
      throw new Error(
        `no page at ${file}; pages: ${launched.app
          .windows()
          .map((p) => p.url())
          .join(", ")}`
      )
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

beforeAll(async () => {
  launched = await launchSample("views")
  sidebar = await pageAt("/sidebar.html")
  content = await pageAt("/content.html")
})

afterAll(async () => {
  await cleanUp(launched)
})

describe(`views app on ${runtime.kind}`, () => {
  it("shows two pages, the sidebar and the content pane, each sized to its view's bounds", async () => {
    expect(launched.app.windows()).toHaveLength(2)
    await expect(text(sidebar, "app-name")).resolves.toBe("Views Demo")
    await expect(text(content, "content-title")).resolves.toBe("Inbox")
    const bounds = await launched.app.evaluate(({ BaseWindow }: any) => {
      const win = BaseWindow.getAllWindows()[0]
      return win.contentView.children.map((view: any) => view.getBounds())
    })
    expect(bounds).toHaveLength(2)
    expect(bounds[0]).toMatchObject({ x: 0, y: 0, width: 240 })
    expect(bounds[1].x).toBe(240)
    await expect.poll(() => sidebar.evaluate(() => [window.innerWidth, window.innerHeight]), poll).toEqual([bounds[0].width, bounds[0].height])
    await expect.poll(() => content.evaluate(() => [window.innerWidth, window.innerHeight]), poll).toEqual([bounds[1].width, bounds[1].height])
  })

  it("maps both pages to the same BaseWindow (electronApp.browserWindow) and tells the views apart over IPC", async () => {
    const a = await launched.app.browserWindow(sidebar)
    const b = await launched.app.browserWindow(content)
    const ids = [await a.evaluate((w: any) => w.id), await b.evaluate((w: any) => w.id)]
    expect(ids[0]).toBe(ids[1])
    await expect(a.evaluate((w: any) => [w.getTitle(), w.webContents === undefined])).resolves.toEqual(["Views Demo — Inbox", true])
    await expect(sidebar.evaluate(() => (window as any).api.which())).resolves.toBe("sidebar")
    await expect(content.evaluate(() => (window as any).api.which())).resolves.toBe("content")
  })

  it("a click in the sidebar view changes the content view (through the main process) and the window title", async () => {
    await sidebar.getByTestId("nav-calendar").click()
    await expect.poll(() => text(content, "content-title"), poll).toBe("Calendar")
    await expect(content.getByTestId("content-items").locator("li").allTextContents()).resolves.toEqual([
      "Mon 09:00 Stand-up",
      "Wed 14:00 Design review",
      "Fri 12:30 Team lunch"
    ])
    expect(await text(sidebar, "sidebar-status")).toBe("Selected: Calendar")
    expect(await sidebar.getByTestId("nav-calendar").getAttribute("aria-current")).toBe("page")
    const handle = await launched.app.browserWindow(content)
    await expect.poll(() => handle.evaluate((w: any) => w.getTitle()), poll).toBe("Views Demo — Calendar")
  })

  it("fills and clicks in the content view: its Ping shows the main process's reply", async () => {
    await content.getByTestId("ping-input").fill("views")
    await content.getByTestId("ping-button").click()
    await expect.poll(() => text(content, "ping-result"), poll).toBe("pong:views")
  })

  it("resizing the window lays the views out again (the content page follows)", async () => {
    const width = await launched.app.evaluate(({ BaseWindow }: any) => {
      const win = BaseWindow.getAllWindows()[0]
      win.setContentSize(1200, 700)
      return win.contentView.children[1].getBounds().width
    })
    expect(width).toBe(1200 - 240)
    await expect.poll(() => content.evaluate(() => window.innerWidth), poll).toBe(960)
  })

  it("closes: the window's views close with it and the app quits", async () => {
    const { app, pid } = launched
    await app.evaluate(({ BaseWindow }: any) => BaseWindow.getAllWindows()[0].close())
    await expect.poll(() => launched.isClosed(), poll).toBe(true)
    expect(await waitForExit(pid)).toEqual([])
  })
})
