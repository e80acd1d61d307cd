/**
 * Launching apps through unmodified playwright-core `_electron.launch({ executablePath })`: a CommonJS app
 * folder, an ES-module app folder and a bare main script; the first window, app identity, the
 * BrowserWindow handle, click and fill.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, isStandin, launch, loadedFirstWindow, runtime } from "./helpers.js"

describe(`CommonJS app folder on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page
  let launchMs = 0

  beforeAll(async () => {
    const started = Date.now()
    app = await launch(fixture("cjs-app"))
    page = await loadedFirstWindow(app, /index\.html$/)
    launchMs = Date.now() - started
  })

  afterAll(async () => {
    await app?.close()
  })

  it("opens the first window on the app's page, shown after ready-to-show", async () => {
    expect(launchMs).toBeGreaterThan(0)
    expect(page.url()).toMatch(/cjs-app\/index\.html$/)
    await expect(page.title()).resolves.toBe("Fixture Home")
    await expect(page.textContent("#greeting")).resolves.toBe("Welcome")
    // The main process hears of the load on its own connection, a moment after Playwright may.
    await expect
      .poll(() => app.evaluate(() => (globalThis as any).fixtureState), { timeout: 10_000 })
      .toMatchObject({ readyToShow: 1, lifecycle: expect.arrayContaining(["dom-ready", "did-finish-load"]) })
  })

  it("reports the package's productName and version", async () => {
    const identity = await app.evaluate(({ app }) => ({
      name: app.getName(),
      property: app.name,
      version: app.getVersion(),
      packaged: app.isPackaged,
      ready: app.isReady(),
      appPath: app.getAppPath()
    }))
    expect(identity).toEqual({
      name: "Standin Fixture",
      property: "Standin Fixture",
      version: "1.4.2",
      packaged: false,
      ready: true,
      appPath: fixture("cjs-app")
    })
  })

  it("answers app.getPath for the usual names and userData under appData/<name>", async () => {
    const paths = await app.evaluate(({ app }) => {
      const names = ["home", "appData", "userData", "sessionData", "temp", "exe", "module", "desktop", "documents", "downloads", "logs", "crashDumps"]
      return Object.fromEntries(names.map((name) => [name, app.getPath(name as any)]))
    })
    for (const value of Object.values(paths)) expect(value).toMatch(/^\//)
    expect(paths.userData).toBe(`${paths.appData}/Standin Fixture`)
    expect(paths.sessionData).toBe(paths.userData)
    expect(paths.logs).toBe(`${paths.userData}/logs`)
    const error = await app.evaluate(({ app }) => {
      try {
        app.getPath("no-such-path" as any)
        return null
      } catch (e) {
        return String((e as Error).message)
      }
    })
    expect(error).toBe("Failed to get 'no-such-path' path")
  })

  it("gives browserWindow(page) for the page, with its title, bounds and state", async () => {
    const win = await app.browserWindow(page)
    const facts = await win.evaluate((w) => ({
      id: w.id,
      title: w.getTitle(),
      bounds: w.getBounds(),
      size: w.getSize(),
      content: w.getContentSize(),
      visible: w.isVisible(),
      focused: w.isFocused(),
      normal: w.isNormal(),
      url: w.webContents.getURL()
    }))
    expect(facts).toMatchObject({ id: 1, title: "Fixture Home", visible: true, normal: true, size: [900, 640] })
    expect(facts.bounds).toMatchObject({ width: 900, height: 640 })
    expect(facts.url).toBe(page.url())
    // The page's viewport is the window's content area (a real Electron on Linux may take a menu bar from it).
    await expect.poll(() => page.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual(facts.content)
    // Real focus depends on the window manager; the stand-in focuses a window when it is shown.
    if (isStandin) expect(facts.focused).toBe(true)
  })

  it("moves and resizes the window, emitting resize and move", async () => {
    const win = await app.browserWindow(page)
    await win.evaluate((w) => {
      const events: Array<string> = []
      ;(globalThis as any).boundsEvents = events
      w.once("resize", () => events.push("resize"))
      w.once("move", () => events.push("move"))
      w.setBounds({ x: 20, y: 30, width: 800, height: 500 })
    })
    await expect.poll(() => app.evaluate(() => [...(globalThis as any).boundsEvents].sort()), { timeout: 10_000 }).toEqual(["move", "resize"])
    const result = await win.evaluate((w) => ({ bounds: w.getBounds(), size: w.getSize(), position: w.getPosition(), content: w.getContentSize() }))
    expect(result.size).toEqual([800, 500])
    expect(result.bounds).toMatchObject({ width: 800, height: 500 })
    if (isStandin) {
      expect(result.bounds).toEqual({ x: 20, y: 30, width: 800, height: 500 })
      expect(result.position).toEqual([20, 30])
    }
    await expect.poll(() => page.evaluate(() => [window.innerWidth, window.innerHeight]), { timeout: 10_000 }).toEqual(result.content)
  })

  it("follows the page title into the window title (page-title-updated)", async () => {
    const win = await app.browserWindow(page)
    await page.evaluate(() => {
      document.title = "Renamed by the page"
    })
    await expect.poll(() => win.evaluate((w) => w.getTitle()), { timeout: 10_000 }).toBe("Renamed by the page")
    const updates: Array<string> = await app.evaluate(() => (globalThis as any).fixtureState.titleUpdates)
    expect(updates.slice(-2)).toEqual(["Fixture Home", "Renamed by the page"])
    await expect(app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getTitle())).resolves.toBe("Renamed by the page")
  })

  it("fills and clicks in the page; the preload's IPC round trip answers", async () => {
    await page.fill("#name", "Ada")
    await page.click("#greet")
    await expect.poll(() => page.textContent("#greeting"), { timeout: 10_000 }).toBe("Hello, Ada!")
  })

  it("shows Electron's process facts to the preload (process.versions, platform, type)", async () => {
    const facts = await page.evaluate(() => {
      const fixtureApi = (window as any).fixture
      return { versions: fixtureApi.versions, platform: fixtureApi.platform, type: fixtureApi.processType, isolated: fixtureApi.contextIsolated }
    })
    expect(facts.platform).toBe(process.platform)
    expect(facts.type).toBe("renderer")
    expect(facts.isolated).toBe(true)
    expect(facts.versions.chrome).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    expect(facts.versions.electron).toBeTruthy()
    const main = await app.evaluate(() => ({ type: (process as any).type, versions: process.versions }))
    expect(main.type).toBe("browser")
    expect(main.versions.chrome).toBe(facts.versions.chrome)
    expect(main.versions.electron).toBe(facts.versions.electron)
  })

  it.skipIf(!isStandin)("[stand-in only] marks process.versions.electron as the stand-in and matches Chromium's version", async () => {
    const versions = await app.evaluate(({ __standin }: any) => ({
      electron: process.versions.electron,
      chrome: process.versions.chrome,
      chromium: __standin.chromium.version
    }))
    expect(versions.electron).toBe("0.0.0-standin")
    expect(versions.chrome).toBe(versions.chromium)
  })

  it("reports real process metrics for the main process and Chromium's processes", async () => {
    const metrics: Array<any> = await app.evaluate(({ app }) => app.getAppMetrics())
    const mainPid = app.process().pid
    const main = metrics.find((m: any) => m.pid === mainPid)
    expect(main?.type).toBe("Browser")
    expect(main!.memory.workingSetSize).toBeGreaterThan(1000)
    expect(metrics.some((m: any) => m.type === "Tab")).toBe(true)
    for (const metric of metrics) expect(metric.creationTime).toBeGreaterThan(Date.now() - 3_600_000)
  })
})

describe(`other app shapes on ${runtime.kind}`, () => {
  it("runs an ES-module main (import from 'electron', top-level await whenReady)", async () => {
    const app = await launch(fixture("esm-app"))
    try {
      const page = await loadedFirstWindow(app, /esm-app\/index\.html$/)
      await expect(page.textContent("#title")).resolves.toBe("ES module app")
      const facts = await app.evaluate(({ app }) => ({ name: app.getName(), version: app.getVersion(), state: (globalThis as any).fixtureState }))
      expect(facts).toEqual({ name: "standin-esm-fixture", version: "0.3.0", state: { sameModule: true, readyBeforeWindow: true } })
      await expect(page.evaluate(() => (window as any).esm.hello())).resolves.toBe("hello from an ES module main")
    } finally {
      await app.close()
    }
  })

  it("keeps the name Electron for a bare main script", async () => {
    const app = await launch(fixture("bare/main.js"))
    try {
      const page = await loadedFirstWindow(app, /^data:text\/html/)
      await expect(page.textContent("#bare")).resolves.toBe("Bare main script")
      const facts = await app.evaluate(({ app }) => ({ name: app.getName(), appPath: app.getAppPath(), defaultApp: (process as any).defaultApp }))
      expect(facts.name).toBe("Electron")
      expect(facts.appPath).toBe(fixture("bare"))
      expect(facts.defaultApp).toBe(true)
    } finally {
      await app.close()
    }
  })
})
