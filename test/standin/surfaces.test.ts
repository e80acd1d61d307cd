/**
 * The `surfaces` sample app (test/fixtures/apps/surfaces) on the chosen runtime: every kind of renderer surface in
 * one BrowserWindow — the window's own page with a same-origin and a cross-origin iframe, a WebContentsView
 * sidebar, a BrowserView banner and a `<webview>` guest — told apart by playwright-core's pages and frames and by
 * main-process facts (getType, ids, the owning window, hostWebContents, the view tree, frames).
 */
import type { ConsoleMessage, ElectronApplication, Page } from "playwright-core"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isStandin, launch, pageWithUrl, runtime } from "./helpers.js"

const appDir = join(import.meta.dirname, "..", "fixtures", "apps", "surfaces")
const poll = { timeout: 15_000 }

let app: ElectronApplication
let userData: string
let main: Page
let sidebar: Page
let banner: Page

const ready = (page: Page) => page.locator('body[data-ready="true"]').waitFor({ state: "attached", timeout: 30_000 })

/** Main-process facts of every webContents, keyed by the file its page shows. */
const surfaces = () =>
  app.evaluate(({ webContents, BrowserWindow }) =>
    webContents.getAllWebContents().map((wc) => ({
      id: wc.id,
      file: wc.getURL().split("?")[0]!.split("/").pop(),
      type: wc.getType(),
      host: wc.hostWebContents ? wc.hostWebContents.id : null,
      window: BrowserWindow.fromWebContents(wc)?.id ?? null,
      same: webContents.fromId(wc.id) === wc
    }))
  )

beforeAll(async () => {
  userData = mkdtempSync(join(tmpdir(), "stagewright-surfaces-"))
  app = await launch(appDir, { env: { SAMPLE_APP_USER_DATA: userData } })
  main = await pageWithUrl(app, /\/index\.html\?login=/)
  sidebar = await pageWithUrl(app, /\/sidebar\.html$/)
  banner = await pageWithUrl(app, /\/banner\.html$/)
  await Promise.all([ready(main), ready(sidebar), ready(banner)])
  await main
    .getByTestId("webview-status")
    .filter({ hasText: /^Guest ready: guest\.html/ })
    .waitFor({ timeout: 30_000 })
})

afterAll(async () => {
  await app?.close()
  if (userData) rmSync(userData, { recursive: true, force: true })
})

describe(`surfaces app on ${runtime.kind}`, () => {
  it("has one window whose page, WebContentsView and BrowserView are pages of their own; each says which it is", async () => {
    const byFile = (file: string) => app.windows().filter((p) => p.url().split("?")[0]!.endsWith(`/${file}`))
    expect(byFile("index.html")).toEqual([main])
    expect(byFile("sidebar.html")).toEqual([sidebar])
    expect(byFile("banner.html")).toEqual([banner])
    await expect(main.evaluate(() => (window as any).surfaces.which())).resolves.toBe("main")
    await expect(sidebar.evaluate(() => (window as any).surfaces.which())).resolves.toBe("sidebar")
    await expect(banner.evaluate(() => (window as any).surfaces.which())).resolves.toBe("banner")
    const windows = await Promise.all([main, sidebar, banner].map(async (page) => (await app.browserWindow(page)).evaluate((w: any) => w.id)))
    expect(new Set(windows).size).toBe(1)
    await expect(banner.getByTestId("banner-text").textContent()).resolves.toMatch(/^Announcements:/)
  })

  it("tells the surfaces apart in the main process: getType, ids, owner window, host", async () => {
    const all = await surfaces()
    const of = (file: string) => all.filter((s) => s.file === file)
    expect(all).toHaveLength(4)
    const [page, side, bann, guest] = [of("index.html"), of("sidebar.html"), of("banner.html"), of("guest.html")].map((list) => {
      expect(list).toHaveLength(1)
      return list[0]!
    })
    // As Electron 45: a WebContentsView's webContents says 'window'; only the BrowserView shim sets 'browserView'.
    expect([page!.type, side!.type, bann!.type, guest!.type]).toEqual(["window", "window", "browserView", "webview"])
    expect([page!.host, side!.host, bann!.host, guest!.host]).toEqual([null, null, null, page!.id])
    expect(new Set(all.map((s) => s.window))).toEqual(new Set([page!.window]))
    expect(all.every((s) => s.same)).toBe(true)
    expect(new Set(all.map((s) => s.id)).size).toBe(4)
  })

  it("places the views within the window: contentView.children, getBrowserViews, bounds and viewports", async () => {
    const layout = await app.evaluate(({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0]!
      return {
        content: win.getContentBounds(),
        children: win.contentView.children.map((view: any) => ({
          id: view.webContents.id,
          file: view.webContents.getURL().split("/").pop(),
          bounds: view.getBounds()
        })),
        browserViews: win.getBrowserViews().map((view) => ({ id: view.webContents.id, bounds: view.getBounds() })),
        own: win.webContents.id
      }
    })
    expect(layout.content).toMatchObject({ width: 1200, height: 800 })
    expect(layout.children.map((c) => c.file)).toEqual(["sidebar.html", "banner.html"])
    expect(layout.children[0]!.bounds).toEqual({ x: 0, y: 0, width: 220, height: 800 })
    expect(layout.children[1]!.bounds).toEqual({ x: 220, y: 700, width: 980, height: 100 })
    expect(layout.browserViews).toEqual([{ id: layout.children[1]!.id, bounds: { x: 220, y: 700, width: 980, height: 100 } }])
    expect(layout.children.map((c) => c.id)).not.toContain(layout.own)
    await expect.poll(() => main.evaluate(() => [window.innerWidth, window.innerHeight]), poll).toEqual([1200, 800])
    await expect.poll(() => sidebar.evaluate(() => [window.innerWidth, window.innerHeight]), poll).toEqual([220, 800])
    await expect.poll(() => banner.evaluate(() => [window.innerWidth, window.innerHeight]), poll).toEqual([980, 100])
  })

  it("a click in the WebContentsView sidebar changes the window's own page (through the main process)", async () => {
    const logged = sidebar.waitForEvent("console", (m: ConsoleMessage) => m.text() === "[surfaces] sidebar: clicked reports")
    await sidebar.getByTestId("nav-reports").click()
    await logged
    await expect.poll(() => main.getByTestId("main-heading").textContent(), poll).toBe("Surfaces Demo — Reports")
    await expect(sidebar.getByTestId("nav-reports").getAttribute("aria-current")).resolves.toBe("page")
    const handle = await app.browserWindow(main)
    await expect.poll(() => handle.evaluate((w: any) => w.getTitle()), poll).toBe("Surfaces Demo — Reports")
  })

  it("reaches both iframes through page.frames(): the same-origin form and the cross-origin login", async () => {
    const frames = main.frames()
    const form = frames.find((f) => f.url().endsWith("/form-frame.html"))
    const login = frames.find((f) => /^http:\/\/127\.0\.0\.1:\d+\/login\.html$/.test(f.url()))
    expect(frames).toHaveLength(3)
    expect(form?.parentFrame()).toBe(main.mainFrame())
    expect(login?.parentFrame()).toBe(main.mainFrame())
    await form!.getByTestId("profile-name").fill("Ada")
    await form!.getByTestId("profile-save").click()
    await expect.poll(() => form!.getByTestId("profile-result").textContent(), poll).toBe("Saved: Ada")
    const signedIn = main.waitForEvent("console", (m: ConsoleMessage) => m.text() === "[surfaces] login-frame: signed in as ada")
    await login!.getByTestId("login-user").fill("ada")
    await login!.getByTestId("login-password").fill("secret")
    await login!.getByTestId("login-submit").click()
    await signedIn
    await expect(login!.getByTestId("login-result").textContent()).resolves.toBe("Signed in as ada")
  })

  it("shows the frames in the main process: mainFrame.frames, framesInSubtree, origins, frame.executeJavaScript", async () => {
    const tree = await app.evaluate(async ({ BrowserWindow }) => {
      const frame = BrowserWindow.getAllWindows()[0]!.webContents.mainFrame
      return {
        subtree: frame.framesInSubtree.length,
        children: await Promise.all(
          frame.frames.map(async (child) => ({
            file: child.url.split("/").pop(),
            origin: child.origin,
            parentIsMain: child.parent === frame,
            top: child.top === frame,
            title: await child.executeJavaScript("document.title"),
            sameProcess: child.processId === frame.processId
          }))
        )
      }
    })
    expect(tree.subtree).toBe(3)
    expect(tree.children.map((c) => [c.file, c.title, c.parentIsMain, c.top])).toEqual([
      ["form-frame.html", "Profile form", true, true],
      ["login.html", "Sign in", true, true]
    ])
    expect(tree.children[1]!.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // Site isolation: the cross-site login frame has a renderer process of its own, the file frame shares the page's.
    expect(tree.children.map((c) => c.sameProcess)).toEqual([true, false])
  })

  it("reports a frame's console message on the window's webContents with the frame it came from", async () => {
    const seen = app.evaluate(({ BrowserWindow }) => {
      const wc = BrowserWindow.getAllWindows()[0]!.webContents
      return new Promise<{ message: string; frame: string }>((resolve) => {
        const listener = (event: any) => {
          if (!String(event.message).startsWith("[surfaces] login-frame: sign-in failed")) return
          wc.off("console-message", listener)
          resolve({ message: event.message, frame: event.frame?.url ?? "" })
        }
        wc.on("console-message", listener)
      })
    })
    const login = main.frames().find((f) => f.url().endsWith("/login.html"))!
    await login.getByTestId("login-user").fill("")
    await login.getByTestId("login-submit").click()
    await expect(seen).resolves.toEqual({ message: "[surfaces] login-frame: sign-in failed: User name and password are required", frame: login.url() })
  })

  it("attaches the <webview> guest: its own webContents, a guest of the window's page, sized to the element", async () => {
    const status = await main.getByTestId("webview-status").textContent()
    const guestId = Number(/webContents (\d+)\)$/.exec(status ?? "")?.[1])
    const guest = await app.evaluate(async ({ webContents, BrowserWindow }, id) => {
      const wc = webContents.fromId(id)!
      const win = BrowserWindow.getAllWindows()[0]!
      return {
        type: wc.getType(),
        host: wc.hostWebContents === win.webContents,
        owner: BrowserWindow.fromWebContents(wc) === win,
        url: wc.getURL().split("/").pop(),
        title: wc.getTitle(),
        viewport: await wc.executeJavaScript("[innerWidth, innerHeight]"),
        which: await wc.executeJavaScript("window.guest.which()")
      }
    }, guestId)
    expect(guest).toEqual({ type: "webview", host: true, owner: true, url: "guest.html", title: "Guest Page", viewport: [420, 160], which: "guest" })
  })

  it("forwards the guest's sendToHost to the element's ipc-message event", async () => {
    await app.evaluate(({ webContents }) => {
      const guest = webContents.getAllWebContents().find((wc) => wc.getType() === "webview")!
      return guest.executeJavaScript("document.querySelector('[data-testid=\"guest-hello\"]').click()", true)
    })
    await expect.poll(() => main.getByTestId("webview-message").textContent(), poll).toBe("Guest says: hello from the guest")
  })

  it("a new <webview> element: will-attach-webview, did-attach-webview, the guest's dom-ready and did-finish-load; removing it destroys the guest", async () => {
    const events = app.evaluate(({ BrowserWindow }) => {
      const embedder = BrowserWindow.getAllWindows()[0]!.webContents
      return new Promise<Array<string>>((resolve) => {
        const seen: Array<string> = []
        embedder.once("will-attach-webview", (_event, _prefs, params) => seen.push(`will-attach ${params.src.split("/").pop()}`))
        embedder.once("did-attach-webview", (_event, guest) => {
          seen.push(`did-attach-webview ${guest.getType()} ${guest.hostWebContents === embedder}`)
          guest.once("dom-ready", () => seen.push("dom-ready"))
          guest.once("did-finish-load", () => {
            seen.push("did-finish-load")
            ;(globalThis as any).secondGuest = guest
            resolve(seen)
          })
        })
      })
    })
    const elementSaw = main.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const el = document.createElement("webview") as any
          el.setAttribute("src", "guest.html")
          el.dataset.testid = "second-webview"
          el.addEventListener("did-finish-load", () => resolve(`${el.getURL().split("/").pop()} ${el.getWebContentsId()}`))
          document.querySelector("main")!.appendChild(el)
        })
    )
    await expect(events).resolves.toEqual(["will-attach guest.html", "did-attach-webview webview true", "dom-ready", "did-finish-load"])
    const secondId = await app.evaluate(() => (globalThis as any).secondGuest.id as number)
    await expect(elementSaw).resolves.toBe(`guest.html ${secondId}`)
    const destroyed = app.evaluate(() => new Promise<boolean>((resolve) => (globalThis as any).secondGuest.once("destroyed", () => resolve(true))))
    await main.evaluate(() => document.querySelector('[data-testid="second-webview"]')!.remove())
    await expect(destroyed).resolves.toBe(true)
    await expect(app.evaluate(({ webContents }) => webContents.getAllWebContents().filter((wc) => wc.getType() === "webview").length)).resolves.toBe(1)
  })

  it("will-attach-webview prevented (the app refuses foreign URLs): no guest is created", async () => {
    // The listener is in place (this evaluate has returned) before the page adds the element.
    await app.evaluate(({ BrowserWindow, webContents }) => {
      const embedder = BrowserWindow.getAllWindows()[0]!.webContents
      const before = webContents.getAllWebContents().length
      ;(globalThis as any).refusedWebview = new Promise<{ src: string; prevented: boolean; created: number }>((resolve) => {
        // Registered after the app's own listener, so it sees the app's decision.
        embedder.once("will-attach-webview", (event, _prefs, params) => {
          setImmediate(() => resolve({ src: params.src, prevented: event.defaultPrevented, created: webContents.getAllWebContents().length - before }))
        })
      })
    })
    await main.evaluate(() => {
      const el = document.createElement("webview")
      el.setAttribute("src", "https://example.com/")
      document.querySelector("main")!.appendChild(el)
    })
    await expect(app.evaluate(() => (globalThis as any).refusedWebview)).resolves.toEqual({ src: "https://example.com/", prevented: true, created: 0 })
  })

  it(`${isStandin ? "[stand-in limit] the guest is also a playwright-core page" : "the guest is not a playwright-core page"} (on Electron a guest is a 'webview' target that playwright-core does not list)`, async () => {
    const guestPages = app.windows().filter((p) => p.url().endsWith("/guest.html"))
    expect(guestPages).toHaveLength(isStandin ? 1 : 0)
    if (isStandin) {
      const handle = await app.browserWindow(guestPages[0]!)
      await expect(handle.evaluate((w: any) => w.webContents.getURL().split("?")[0].split("/").pop())).resolves.toBe("index.html")
      // Not a frame of the embedder: page.frames() lists only the two iframes.
      expect(main.frames().some((f) => f.url().endsWith("/guest.html"))).toBe(false)
    }
  })
})
