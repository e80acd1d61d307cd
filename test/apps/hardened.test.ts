/**
 * The `hardened` sample app (test/fixtures/apps/hardened, follows Electron's security checklist) end to end
 * through unmodified playwright-core, launched once for the whole file. Tests run in order and share the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { activityLines } from "../support/activity.js"
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
    const before = await text(page, "security-result")
    await page.getByTestId("open-external-button").click()
    // The app records what it handed to the browser; its page shows nothing of it, as a real app's.
    const opened = ["https://example.com/", "https://example.com/popup", "https://example.com/direct", "https://example.com/docs"]
    await expect.poll(() => activityLines(launched.userData, "open-external"), poll).toEqual(opened.map((url) => `open-external ${url}`))
    expect(await text(page, "security-result")).toBe(before)
    expect(await page.evaluate(() => (window as any).api.openExternal("file:///etc/passwd"))).toEqual({
      ok: false,
      error: "only https URLs are opened"
    })
    expect(await openedUrls()).toEqual(opened)
  })

  it("View > Say Hello clicked from the main process shows its message", async () => {
    await clickMenuItem(launched.app, "say-hello")
    await expect.poll(() => text(page, "menu-result"), poll).toBe("Hello from the menu")
    expect(activityLines(launched.userData, "menu")).toEqual(["menu say-hello"])
  })

  it("replaced dialogs: File > Open… (from main) shows the picked file as a document; the About box's answer is logged, not shown", async () => {
    const file = join(launched.userData, "report.txt")
    writeFileSync(file, "Quarterly report\nAll checks passed.\n")
    const calls = await stubDialogs(launched.app, { open: { canceled: false, filePaths: [file] }, messageBox: { response: 0 } })
    await clickMenuItem(launched.app, "open-file")
    await expect.poll(() => text(page, "document-title"), poll).toBe("report.txt")
    await page.getByRole("heading", { level: 2, name: "report.txt" }).waitFor({ state: "visible" })
    expect(await text(page, "document-content")).toBe("Quarterly report\nAll checks passed.\n")
    await page.getByRole("button", { name: "About", exact: true }).click()
    await expect.poll(() => activityLines(launched.userData, "message-box"), poll).toEqual(["message-box About: OK"])
    expect(activityLines(launched.userData, "menu", "open-dialog")).toEqual(["menu say-hello", "menu open-file", `open-dialog ${file}`])
    expect(await page.locator("body").innerText()).not.toMatch(/About: OK|response 0|Opened: /)
    expect((await calls()).map((c) => [c.method, c.options.title])).toEqual([
      ["showOpenDialog", "Open a file"],
      ["showMessageBox", "About Hardened Demo"]
    ])
  })

  it("a canceled open dialog and an About box closed with Cancel change nothing on the page; the log tells them apart", async () => {
    await stubDialogs(launched.app, { open: { canceled: true, filePaths: [] }, messageBox: { response: 1 } })
    await page.getByRole("button", { name: "Open file…" }).click()
    // The click returns once the page handled it; the main process answers its IPC after: wait for the dialog's
    // record before the menu's, or the two race (CI saw the About box's first).
    await expect.poll(() => activityLines(launched.userData, "open-dialog").at(-1), poll).toBe("open-dialog canceled")
    await clickMenuItem(launched.app, "about")
    await expect
      .poll(() => activityLines(launched.userData, "open-dialog", "message-box").slice(-2), poll)
      .toEqual(["open-dialog canceled", "message-box About: Cancel"])
    expect(await text(page, "document-title")).toBe("report.txt")
    expect(await text(page, "notice")).toBe("Ready")
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
    await expect.poll(() => activityLines(launched.userData, "menu").at(-1), poll).toBe("menu open-second")
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
