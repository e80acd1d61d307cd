/**
 * The `hardened` sample app (test/fixtures/apps/hardened, follows Electron's security checklist) end to end
 * through unmodified playwright-core, launched once for the whole file. Tests run in order and share the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import {
  cleanUp,
  clickThatClosesItsWindow,
  clickMenuItem,
  descendants,
  launchSample,
  openWindow,
  runtime,
  setThemeSource,
  stubDialogs,
  stubOpenExternal,
  text,
  themeOf,
  UI_TIMEOUT,
  waitForExit,
  type Launched
} from "./support.js"

const poll = { timeout: UI_TIMEOUT }

let launched: Launched
let page: Page
let second: Page | undefined
let openedUrls: () => Promise<Array<string>>

const securityLog = (): Promise<Array<string>> => page.getByTestId("security-log").getByRole("listitem").allTextContents()

beforeAll(async () => {
  launched = await launchSample("hardened")
  page = launched.page
  openedUrls = await stubOpenExternal(launched.app)
})

afterAll(async () => {
  await cleanUp(launched)
})

describe(`hardened app on ${runtime.kind}`, () => {
  it("launches and shows its heading once ready", async () => {
    await page.getByRole("heading", { level: 1, name: "Hardened Demo" }).waitFor({ state: "visible" })
    expect(await page.title()).toBe("Hardened Demo")
    expect(await text(page, "notice")).toBe("Ready")
    expect(await securityLog()).toEqual([])
  })

  it("app.getName() is the productName", async () => {
    expect(await launched.app.evaluate(({ app }: any) => [app.getName(), app.getVersion()])).toEqual(["Hardened Demo", "1.0.0"])
  })

  it("electronApp.browserWindow(page) gives the main window's title and bounds", async () => {
    const handle = await launched.app.browserWindow(page)
    const info = await handle.evaluate((w: any) => ({ title: w.getTitle(), bounds: w.getBounds() }))
    expect(info).toMatchObject({ title: "Hardened Demo", bounds: { width: 900, height: 700 } })
    const innerWidth = await page.evaluate(() => window.innerWidth)
    expect(innerWidth).toBeGreaterThan(0)
    expect(innerWidth).toBeLessThanOrEqual(info.bounds.width)
  })

  it("fill and click: Ping shows the reply in ping-result", async () => {
    await page.getByLabel("Message").fill("safe")
    await page.getByRole("button", { name: "Ping", exact: true }).click()
    await expect.poll(() => text(page, "ping-result"), poll).toBe("pong:safe")
  })

  it("IPC round trip: window.api.ping('x') resolves 'pong:x'", async () => {
    expect(await page.evaluate(() => (window as any).api.ping("x"))).toBe("pong:x")
  })

  it("webPreferences are hardened and the page has a CSP meta tag and no Node", async () => {
    const handle = await launched.app.browserWindow(page)
    const prefs = await handle.evaluate((w: any) => w.webContents.getLastWebPreferences())
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false
    })
    expect(prefs.preload).toMatch(/hardened\/preload\.js$/)
    const page_ = await page.evaluate(() => ({
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content"),
      require: typeof (window as any).require,
      process: typeof (window as any).process,
      apiKeys: Object.keys((window as any).api).sort()
    }))
    expect(page_).toEqual({
      csp: "default-src 'self'; script-src 'self'",
      require: "undefined",
      process: "undefined",
      apiKeys: ["onMenuCommand", "onSecurityBlocked", "onThemeUpdated", "openExternal", "openFile", "openSecondWindow", "ping", "showAbout", "toggleTheme"]
    })
  })

  it("navigation away is blocked (will-navigate) and reported in security-log; the page stays", async () => {
    const url = page.url()
    await page.getByTestId("navigate-link").click()
    await expect.poll(securityLog, poll).toEqual(["Blocked navigation: https://example.org/"])
    await page.getByTestId("try-navigate").click()
    await expect.poll(securityLog, poll).toEqual(["Blocked navigation: https://example.org/", "Blocked navigation: https://example.org/elsewhere"])
    expect(await text(page, "security-result")).toBe("Blocked navigation: https://example.org/elsewhere")
    expect(page.url()).toBe(url)
    expect(await page.evaluate(() => document.body.dataset.ready)).toBe("true")
  })

  it("window.open and target=_blank are denied (opened externally instead); no window is created", async () => {
    await page.getByTestId("external-link").click()
    await expect.poll(() => text(page, "security-result"), poll).toBe("Blocked window-open: https://example.com/ (opened in the browser instead)")
    await page.getByTestId("try-window-open").click()
    await expect.poll(() => text(page, "security-result"), poll).toBe("Blocked window-open: https://example.com/popup (opened in the browser instead)")
    expect(await page.evaluate(() => window.open("https://example.com/direct") === null)).toBe(true)
    await expect
      .poll(() => securityLog().then((lines) => lines.slice(2)), poll)
      .toEqual([
        "Blocked window-open: https://example.com/ (opened in the browser instead)",
        "Blocked window-open: https://example.com/popup (opened in the browser instead)",
        "Blocked window-open: https://example.com/direct (opened in the browser instead)"
      ])
    expect(await openedUrls()).toEqual(["https://example.com/", "https://example.com/popup", "https://example.com/direct"])
    expect(launched.app.windows()).toHaveLength(1)
    expect(await launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length)).toBe(1)
  })

  it("a permission request is answered 'denied'", async () => {
    await page.getByTestId("try-permission").click()
    await expect.poll(() => text(page, "security-result"), poll).toBe("Notification permission: denied")
  })

  // Electron routes a page's permission request to session.setPermissionRequestHandler; the app's handler
  // reports it. (The stand-in stores the handler but never calls it: this fails there until it does.)
  it("the permission request reached session.setPermissionRequestHandler (reported in security-log)", async () => {
    await expect.poll(() => securityLog().then((lines) => lines.at(-1)), poll).toBe("Blocked permission: notifications")
  })

  it("the CSP blocks eval()", async () => {
    await page.getByTestId("try-eval").click()
    await expect.poll(() => text(page, "security-result"), poll).toBe("eval blocked: EvalError")
  })

  it("shell.openExternal only for https URLs through IPC", async () => {
    await page.getByTestId("open-external-button").click()
    await expect.poll(() => text(page, "security-result"), poll).toBe("Opened in the browser: https://example.com/docs")
    expect(await page.evaluate(() => (window as any).api.openExternal("file:///etc/passwd"))).toEqual({
      ok: false,
      error: "only https URLs are opened"
    })
    expect(await openedUrls()).toEqual(["https://example.com/", "https://example.com/popup", "https://example.com/direct", "https://example.com/docs"])
  })

  it("View > Say Hello clicked from the main process shows its message", async () => {
    await clickMenuItem(launched.app, "say-hello")
    await expect.poll(() => text(page, "menu-result"), poll).toBe("Hello from the menu")
    expect(await text(page, "last-menu-action")).toBe("Last menu action: say-hello")
  })

  it("replaced dialogs: showOpenDialog (File > Open… from main) and showMessageBox (button)", async () => {
    const calls = await stubDialogs(launched.app, {
      open: { canceled: false, filePaths: ["/srv/hardened/report.pdf"] },
      messageBox: { response: 0 }
    })
    await clickMenuItem(launched.app, "open-file")
    await expect.poll(() => text(page, "dialog-result"), poll).toBe("Opened: /srv/hardened/report.pdf")
    expect(await text(page, "last-menu-action")).toBe("Last menu action: open-file")
    await page.getByRole("button", { name: "About", exact: true }).click()
    await expect.poll(() => text(page, "dialog-result"), poll).toBe("About: OK (response 0)")
    expect((await calls()).map((c) => [c.method, c.options.title])).toEqual([
      ["showOpenDialog", "Open a file"],
      ["showMessageBox", "About Hardened Demo"]
    ])
  })

  it("the button opens a second window (waitForEvent('window')), hardened too; the menu focuses it", async () => {
    second = await openWindow(launched.app, () => page.getByRole("button", { name: "Open second window" }).click())
    await second.getByRole("heading", { level: 1, name: "Second Window" }).waitFor({ state: "visible" })
    expect(await second.title()).toBe("Second Window")
    await expect.poll(() => text(page, "notice"), poll).toBe("Second window opened")
    const handle = await launched.app.browserWindow(second)
    const info = await handle.evaluate((w: any) => ({ bounds: w.getBounds(), prefs: w.webContents.getLastWebPreferences() }))
    expect(info.bounds).toMatchObject({ width: 480, height: 360 })
    expect(info.prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })

    await second.getByLabel("Message").fill("second")
    await second.getByTestId("ping-button").click()
    await expect.poll(() => text(second!, "ping-result"), poll).toBe("pong:second")

    await clickMenuItem(launched.app, "open-second")
    await expect.poll(() => text(page, "last-menu-action"), poll).toBe("Last menu action: open-second")
    expect(await launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length)).toBe(2)
    expect(launched.app.windows()).toHaveLength(2)
  })

  it("the theme follows nativeTheme.themeSource in both windows (main process, then the toggle)", async () => {
    const windows = [page, second!]
    await setThemeSource(launched.app, "dark")
    for (const w of windows) await expect.poll(() => themeOf(w), poll).toEqual({ dark: true, indicator: "Theme: dark", body: "dark" })
    await page.getByRole("button", { name: "Toggle theme" }).click()
    await expect.poll(() => text(page, "notice"), poll).toBe("Theme set to light")
    for (const w of windows) await expect.poll(() => themeOf(w), poll).toEqual({ dark: false, indicator: "Theme: light", body: "light" })
  })

  it("closing every window quits the app (window-all-closed): the process and its children exit", async () => {
    const { app, pid } = launched
    expect(pid).toBe(app.process().pid)
    const children = descendants(pid)
    const s = second!
    const secondClosed = s.waitForEvent("close", { timeout: UI_TIMEOUT })
    await clickThatClosesItsWindow(s.getByTestId("close-window"))
    await secondClosed
    expect(app.windows()).toEqual([page])

    const appClosed = app.waitForEvent("close", { timeout: 30_000 })
    const handle = await app.browserWindow(page)
    await handle.evaluate((w: any) => w.close()).catch(() => undefined) // the app may quit before the reply
    await appClosed
    expect(await waitForExit(pid, children)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
