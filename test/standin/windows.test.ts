/**
 * Windows and what decides them: a second window, setWindowOpenHandler (deny / allow), will-navigate
 * prevention, the application menu (clicked from the main process), replaced dialogs, nativeTheme, and
 * closing windows.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, isStandin, launch, loadedFirstWindow, runtime } from "./helpers.js"

const state = (app: ElectronApplication): Promise<any> => app.evaluate(() => (globalThis as any).fixtureState)

describe(`windows on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("clicks an application menu item from the main process; the app uses a replaced dialog's answer", async () => {
    await app.evaluate(({ dialog }) => {
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: ["/tmp/chosen/tasks.json"] })) as any
    })
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById("file-open")!.click())
    await expect.poll(() => page.textContent("#opened-file"), { timeout: 10_000 }).toBe("/tmp/chosen/tasks.json")
  })

  it("toggles a checkbox item before calling its click handler, and keeps radio groups exclusive", async () => {
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()!.getMenuItemById("view-compact")!.click())
    await expect.poll(() => page.textContent("#compact"), { timeout: 10_000 }).toBe("on")
    const radios = await app.evaluate(({ Menu }) => {
      const menu = Menu.getApplicationMenu()!
      const before = [menu.getMenuItemById("theme-light")!.checked, menu.getMenuItemById("theme-dark")!.checked]
      menu.getMenuItemById("theme-dark")!.click()
      const after = [menu.getMenuItemById("theme-light")!.checked, menu.getMenuItemById("theme-dark")!.checked]
      menu.getMenuItemById("theme-light")!.click()
      return { before, after, compact: menu.getMenuItemById("view-compact")!.checked }
    })
    expect(radios).toEqual({ before: [true, false], after: [false, true], compact: true })
  })

  it("gives role items Electron's default labels and accelerators", async () => {
    const menu = await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()!.items.map((item: any) => ({
        label: item.label,
        role: item.role ?? null,
        items: item.submenu ? item.submenu.items.map((sub: any) => [sub.label, sub.role ?? null, sub.accelerator ?? null, sub.type]) : []
      }))
    )
    expect(menu.map((m: any) => m.label)).toEqual(["File", "View", "Window", "Help"])
    expect(menu[0]!.items).toContainEqual(["Quit", "quit", "CommandOrControl+Q", "normal"])
    expect(menu[1]!.items).toContainEqual(["Reload", "reload", "CmdOrCtrl+R", "normal"])
    expect(menu[1]!.items).toContainEqual(["Toggle Developer Tools", "toggledevtools", "Ctrl+Shift+I", "normal"])
    expect(menu[2]!.role).toBe("windowmenu")
    expect(menu[2]!.items.map((i: any) => i[0])).toEqual(["Minimize", "Zoom", "Close"])
    expect(menu[3]!.role).toBe("help")
  })

  it("emits a preventable will-navigate for a link click and keeps the page", async () => {
    const before = page.url()
    await page.click("#external-link")
    await expect.poll(async () => (await state(app)).blockedNavigations, { timeout: 10_000 }).toEqual(["https://blocked.example.invalid/page"])
    await page.waitForTimeout(200)
    expect(page.url()).toBe(before)
    await expect(page.textContent("#greeting")).resolves.toBe("Welcome")
  })

  it("lets setWindowOpenHandler deny a target=_blank link (no window opens)", async () => {
    await page.click("#blank-link")
    await expect.poll(async () => (await state(app)).deniedOpens, { timeout: 10_000 }).toEqual(["https://example.com/elsewhere"])
    expect(app.windows()).toHaveLength(1)
    await expect(app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).resolves.toBe(1)
  })

  it.skipIf(!isStandin)("[stand-in only] records the denied link's shell.openExternal instead of opening it", async () => {
    const calls = await app.evaluate(({ __standin }: any) => __standin.records.shell)
    expect(calls).toEqual([expect.objectContaining({ method: "openExternal", url: "https://example.com/elsewhere" })])
  })

  it("lets setWindowOpenHandler allow window.open with overridden options (did-create-window)", async () => {
    const [child] = await Promise.all([app.waitForEvent("window"), page.click("#open-child")])
    await child.waitForURL(/child\.html$/)
    await expect(child.textContent("#child")).resolves.toBe("Child window")
    const facts = await (await app.browserWindow(child)).evaluate((w) => ({ id: w.id, size: w.getSize(), title: w.getTitle() }))
    expect(facts.size).toEqual([420, 300])
    expect(facts.title).toBe("Child")
    expect((await state(app)).createdWindows).toEqual([facts.id])
    await child.close()
    await expect.poll(() => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length), { timeout: 10_000 }).toBe(1)
  })

  it("applies nativeTheme.themeSource to prefers-color-scheme in existing and new windows", async () => {
    const darkQuery = () => page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)
    await expect(darkQuery()).resolves.toBe(false)
    const theme = await app.evaluate(({ nativeTheme }) => {
      ;(globalThis as any).themeUpdates = 0
      nativeTheme.once("updated", () => ((globalThis as any).themeUpdates += 1))
      nativeTheme.themeSource = "dark"
      return { dark: nativeTheme.shouldUseDarkColors, source: nativeTheme.themeSource }
    })
    expect(theme).toEqual({ dark: true, source: "dark" })
    await expect.poll(() => app.evaluate(() => (globalThis as any).themeUpdates), { timeout: 10_000 }).toBe(1)
    await expect.poll(darkQuery, { timeout: 10_000 }).toBe(true)
    // On Electron a page's first script already sees the theme. On the stand-in the theme is applied again
    // at each commit, and a first script may still read light (its README, "What it cannot imitate"), so
    // there the page is checked once it has loaded.
    const darkOnceLoaded = async (p: Page) => {
      if (isStandin) await expect.poll(() => p.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches), { timeout: 10_000 }).toBe(true)
      else await expect(p.textContent("#dark-at-load")).resolves.toBe("true")
    }
    const [second] = await Promise.all([app.waitForEvent("window"), page.evaluate(() => (window as any).fixture.openSecond())])
    await second.waitForURL(/second\.html$/)
    await darkOnceLoaded(second)
    await page.reload()
    await page.waitForURL(/index\.html$/)
    await darkOnceLoaded(page)
    await app.evaluate(({ nativeTheme }) => {
      nativeTheme.themeSource = "system"
    })
    await expect.poll(darkQuery, { timeout: 10_000 }).toBe(false)
    await second.close()
  })

  it("navigates when will-navigate does not prevent it", async () => {
    await page.click("#internal-link")
    await page.waitForURL(/second\.html$/)
    await expect(page.textContent("#second")).resolves.toBe("Second window")
    const history = await app.evaluate(({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents
      return { canGoBack: contents.navigationHistory.canGoBack(), url: contents.getURL() }
    })
    expect(history).toEqual({ canGoBack: true, url: page.url() })
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.navigationHistory.goBack())
    await page.waitForURL(/index\.html$/)
    await page.waitForSelector("#internal-link")
    const back = await app.evaluate(({ BrowserWindow }) => {
      const history = BrowserWindow.getAllWindows()[0]!.webContents.navigationHistory
      return { canGoBack: history.canGoBack(), canGoForward: history.canGoForward(), index: history.getActiveIndex(), length: history.length() }
    })
    expect(back).toEqual({ canGoBack: false, canGoForward: true, index: 0, length: 2 })
  })

  it("emits a preventable close, then closed; a prevented close keeps the window", async () => {
    const [second] = await Promise.all([app.waitForEvent("window"), page.evaluate(() => (window as any).fixture.openSecond())])
    await second.waitForURL(/second\.html$/)
    // The newest window showing second.html (one an earlier test left open must not be picked); the main
    // process learns the URL on its own connection, so wait for it there too.
    const newest = () =>
      app.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows()
          .filter((w: any) => w.webContents.getURL().endsWith("second.html") && w.id !== 1)
          .reduce((max: number, w: any) => Math.max(max, w.id), 0)
      )
    await expect.poll(newest, { timeout: 10_000 }).toBeGreaterThan(1)
    const prevented = await app.evaluate(
      ({ BrowserWindow }, id) => {
        const win = BrowserWindow.fromId(id)!
        const once = (event: { preventDefault: () => void }) => event.preventDefault()
        win.once("close", once)
        win.close()
        return { destroyed: win.isDestroyed(), id: win.id }
      },
      await newest()
    )
    expect(prevented.destroyed).toBe(false)
    await page.waitForTimeout(200)
    expect(app.windows()).toContain(second)
    const closedBefore = (await state(app)).closedWindows
    await Promise.all([second.waitForEvent("close"), app.evaluate(({ BrowserWindow }, id) => BrowserWindow.fromId(id)!.close(), prevented.id)])
    await expect.poll(async () => (await state(app)).closedWindows, { timeout: 10_000 }).toBe(closedBefore + 1)
    await expect(app.evaluate(({ BrowserWindow }, id) => BrowserWindow.fromId(id), prevented.id)).resolves.toBeNull()
  })

  it("a shown modal child disables its parent until it hides or closes; setEnabled(false) disables a window too", async () => {
    const facts = await app.evaluate(async ({ BrowserWindow }) => {
      const parent = BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().endsWith("index.html"))!
      const read = (child: InstanceType<typeof BrowserWindow>) => ({ modal: child.isModal(), parentEnabled: parent.isEnabled() })
      const child = new BrowserWindow({ parent, modal: true, show: false, width: 300, height: 200 })
      const hidden = read(child)
      const shown = new Promise<void>((resolve) => child.once("show", () => resolve()))
      child.show()
      await shown
      const open = { ...read(child), parentOf: child.getParentWindow()?.id === parent.id }
      child.hide()
      const afterHide = read(child)
      child.show()
      const closed = new Promise<void>((resolve) => child.once("closed", () => resolve()))
      child.close()
      await closed
      const afterClose = parent.isEnabled()
      const plain = new BrowserWindow({ parent, show: true, width: 300, height: 200 })
      const withPlainChild = { modal: plain.isModal(), parentEnabled: parent.isEnabled() }
      plain.destroy()
      parent.setEnabled(false)
      const disabled = parent.isEnabled()
      parent.setEnabled(true)
      return { hidden, open, afterHide, afterClose, withPlainChild, disabled, enabled: parent.isEnabled() }
    })
    expect(facts).toEqual({
      hidden: { modal: true, parentEnabled: true },
      open: { modal: true, parentEnabled: false, parentOf: true },
      afterHide: { modal: true, parentEnabled: true },
      afterClose: true,
      withPlainChild: { modal: false, parentEnabled: true },
      disabled: false,
      enabled: true
    })
  })
})
