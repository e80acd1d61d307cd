/**
 * The `insecure` sample app (test/fixtures/apps/insecure, breaks Electron's security checklist on purpose)
 * end to end through unmodified playwright-core, launched once for the whole file. Tests run in order and
 * share the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { activityLines } from "../support/activity.js"
import {
  cleanUp,
  clickMenuItem,
  descendants,
  isStandin,
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

beforeAll(async () => {
  launched = await launchSample("insecure")
  page = launched.page
  openedUrls = await stubOpenExternal(launched.app)
})

afterAll(async () => {
  await cleanUp(launched)
})

describe(`insecure app on ${runtime.kind}`, () => {
  it("launches and shows its heading once ready", async () => {
    await page.getByRole("heading", { level: 1, name: "Insecure Demo" }).waitFor({ state: "visible" })
    expect(await page.title()).toBe("Insecure Demo")
    expect(await text(page, "notice")).toBe("Ready")
  })

  it("app.getName() is the productName", async () => {
    expect(await launched.app.evaluate(({ app }: any) => [app.getName(), app.getVersion()])).toEqual(["Insecure Demo", "1.0.0"])
  })

  it("electronApp.browserWindow(page) gives the main window's title and bounds", async () => {
    const handle = await launched.app.browserWindow(page)
    const info = await handle.evaluate((w: any) => ({ title: w.getTitle(), bounds: w.getBounds() }))
    expect(info).toMatchObject({ title: "Insecure Demo", bounds: { width: 900, height: 680 } })
    const innerWidth = await page.evaluate(() => window.innerWidth)
    expect(innerWidth).toBeGreaterThan(0)
    expect(innerWidth).toBeLessThanOrEqual(info.bounds.width)
  })

  it("fill and click: Ping shows the reply in ping-result", async () => {
    await page.getByLabel("Message").fill("risky")
    await page.getByRole("button", { name: "Ping", exact: true }).click()
    await expect.poll(() => text(page, "ping-result"), poll).toBe("pong:risky")
  })

  it("IPC round trip: window.api.ping('x') resolves 'pong:x'", async () => {
    expect(await page.evaluate(() => (window as any).api.ping("x"))).toBe("pong:x")
  })

  it("webPreferences break the checklist as set, and the page has no CSP (its inline script ran)", async () => {
    const handle = await launched.app.browserWindow(page)
    expect(await handle.evaluate((w: any) => w.webContents.getLastWebPreferences())).toMatchObject({
      nodeIntegration: true,
      contextIsolation: false,
      sandbox: false,
      webSecurity: false,
      allowRunningInsecureContent: true
    })
    expect(await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]'))).toBeNull()
    expect(await text(page, "inline-script-status")).toBe("ran (no CSP)")
    // The preload assigned window.api directly, with a raw send() to any channel.
    expect(await page.evaluate(() => typeof (window as any).api.send)).toBe("function")
  })

  it(
    isStandin
      ? "node-status is 'unavailable': the stand-in cannot give pages Node (stand-in)"
      : "node-status is 'available (nodeIntegration is on)' on Electron",
    async () => {
      const nodeInPage = await page.evaluate(() => typeof (window as any).require === "function" && typeof (window as any).process === "object")
      if (isStandin) {
        expect(await text(page, "node-status")).toBe("unavailable")
        expect(nodeInPage).toBe(false)
      } else {
        expect(await text(page, "node-status")).toBe("available (nodeIntegration is on)")
        expect(nodeInPage).toBe(true)
      }
    }
  )

  it("the unvalidated shell:open path hands any page URL to shell.openExternal (stubbed in main)", async () => {
    const url = page.getByLabel("URL to open")
    expect(await url.inputValue()).toBe("https://example.com/")
    await url.fill("file:///etc/passwd")
    await page.getByRole("button", { name: "Open URL" }).click()
    // The app records what it handed to the OS; its page shows nothing of it, as a real app's.
    await expect.poll(() => activityLines(launched.userData, "open-external"), poll).toEqual(["open-external file:///etc/passwd"])
    // The raw send() reaches the same channel with any scheme.
    await page.evaluate(() => (window as any).api.send("shell:open", "smb://attacker.example/share"))
    await expect
      .poll(() => activityLines(launched.userData, "open-external"), poll)
      .toEqual(["open-external file:///etc/passwd", "open-external smb://attacker.example/share"])
    expect(await openedUrls()).toEqual(["file:///etc/passwd", "smb://attacker.example/share"])
    expect(await page.locator("body").innerText()).not.toMatch(/passwd|attacker/)
  })

  it("View > Say Hello clicked from the main process shows its message", async () => {
    await clickMenuItem(launched.app, "say-hello")
    await expect.poll(() => text(page, "menu-result"), poll).toBe("Hello from the menu")
    expect(activityLines(launched.userData, "menu")).toEqual(["menu say-hello"])
  })

  it("replaced dialogs: the picked file is shown as a document (button); the About box's answer is logged, not shown (Help > About from main)", async () => {
    const file = join(launched.userData, "secret.txt")
    writeFileSync(file, "the secret is 42\n")
    const calls = await stubDialogs(launched.app, { open: { canceled: false, filePaths: [file] }, messageBox: { response: 0 } })
    await page.getByRole("button", { name: "Open file…" }).click()
    await expect.poll(() => text(page, "document-title"), poll).toBe("secret.txt")
    expect(await text(page, "document-content")).toBe("the secret is 42\n")
    await clickMenuItem(launched.app, "about")
    await expect.poll(() => activityLines(launched.userData, "message-box"), poll).toEqual(["message-box About: OK"])
    expect(activityLines(launched.userData, "menu", "open-dialog")).toEqual(["menu say-hello", `open-dialog ${file}`, "menu about"])
    expect(await page.locator("body").innerText()).not.toMatch(/About: OK|response 0|Opened: /)
    expect((await calls()).map((c) => [c.method, c.options.title])).toEqual([
      ["showOpenDialog", "Open a file"],
      ["showMessageBox", "About Insecure Demo"]
    ])
  })

  it("a file that cannot be read is an error notice; a canceled dialog changes nothing (the log says which)", async () => {
    const missing = join(launched.userData, "gone.txt")
    await stubDialogs(launched.app, { open: { canceled: false, filePaths: [missing] } })
    await clickMenuItem(launched.app, "open-file")
    await expect.poll(() => text(page, "notice"), poll).toBe("Could not open gone.txt: no such file")
    expect(await text(page, "document-title")).toBe("secret.txt")
    await stubDialogs(launched.app, { open: { canceled: true, filePaths: [] } })
    await page.getByRole("button", { name: "Open file…" }).click()
    await expect.poll(() => activityLines(launched.userData, "open-dialog").at(-1), poll).toBe("open-dialog canceled")
    expect(await text(page, "document-title")).toBe("secret.txt")
    expect(await text(page, "notice")).toBe("Could not open gone.txt: no such file")
  })

  it("File > Open Second Window opens a window seen by waitForEvent('window'); the button focuses it", async () => {
    second = await openWindow(launched.app, () => clickMenuItem(launched.app, "open-second"))
    await second.getByRole("heading", { level: 1, name: "Second Window" }).waitFor({ state: "visible" })
    expect(await second.title()).toBe("Second Window")
    await expect.poll(() => text(page, "notice"), poll).toBe("Second window opened")
    expect(await (await launched.app.browserWindow(second)).evaluate((w: any) => w.getBounds())).toMatchObject({ width: 480, height: 360 })
    await second.getByLabel("Message").fill("two")
    await second.getByTestId("ping-button").click()
    await expect.poll(() => text(second!, "ping-result"), poll).toBe("pong:two")

    expect(activityLines(launched.userData, "menu").at(-1)).toBe("menu open-second")
    const focused = () => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getFocusedWindow()?.getTitle())
    await (await launched.app.browserWindow(page)).evaluate((w: any) => w.focus())
    expect(await focused()).toBe("Insecure Demo")
    await page.getByRole("button", { name: "Open second window" }).click()
    await expect.poll(focused, poll).toBe("Second Window")
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

  it("with no window-open handler, the target=_blank link opens a new app window", async () => {
    const before = launched.app.windows().length
    const [popup] = await Promise.all([launched.app.waitForEvent("window", { timeout: 30_000 }), page.getByTestId("unguarded-link").click()])
    expect(launched.app.windows()).toHaveLength(before + 1)
    await expect.poll(() => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length), poll).toBe(before + 1)
    const handle = await launched.app.browserWindow(popup)
    await expect.poll(() => handle.evaluate((w: any) => w.webContents.getURL()), poll).toBe("https://example.com/")
    expect(await openedUrls()).toHaveLength(2) // nothing went to the browser
    const closed = popup.waitForEvent("close", { timeout: UI_TIMEOUT })
    await handle.evaluate((w: any) => w.close())
    await closed
    expect(launched.app.windows()).toHaveLength(before)
  })

  it("closes: the main process and its children exit", async () => {
    const { app, pid } = launched
    expect(pid).toBe(app.process().pid)
    const children = descendants(pid)
    expect(children.length).toBeGreaterThan(0)
    await app.close()
    expect(await waitForExit(pid, children)).toEqual([])
    expect(() => process.kill(pid, 0)).toThrow()
  })
})
