/**
 * The `tasks` sample app's other windows and native UI (the Settings window, the theme across windows, a
 * shortcut handled in main, context menus, a failed load, the board's rename) end to end through unmodified
 * playwright-core, on an app of its own launched once for the file (the main window's board: tasks.test.ts).
 * Tests run in order and share the app; each one says what state it leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { ConsoleMessage, Page } from "playwright-core"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import {
  cleanUp,
  clickThatClosesItsWindow,
  clickMenuItem,
  isStandin,
  launchSample,
  openWindow,
  rowTitles,
  runtime,
  savedBoard,
  setThemeSource,
  text,
  themeOf,
  UI_TIMEOUT,
  type Launched
} from "./support.js"

const poll = { timeout: UI_TIMEOUT }

let launched: Launched
let page: Page
let settings: Page | undefined

beforeAll(async () => {
  launched = await launchSample("tasks")
  page = launched.page
})

afterAll(async () => {
  await cleanUp(launched)
})

describe(`tasks app's windows and native UI on ${runtime.kind}`, () => {
  it("opens the Settings window from the menu (seen by waitForEvent('window')); the button focuses it", async () => {
    // The context's console listener, on before the window opens, sees the new window's first messages (a page's
    // own listener, added in electronApp.on('window'), subscribes once the page already runs).
    const early: Array<string> = []
    const onConsole = (m: ConsoleMessage) => void (m.page() !== page && early.push(`${m.type()} ${m.text()}`))
    launched.app.context().on("console", onConsole)
    settings = await openWindow(launched.app, () => clickMenuItem(launched.app, "open-settings"))
    await expect.poll(() => early, poll).toContain("log [tasks:settings] window ready")
    launched.app.context().off("console", onConsole)
    await settings.getByRole("heading", { level: 1, name: "Settings" }).waitFor({ state: "visible" })
    expect(await settings.title()).toBe("Settings")
    expect(await text(settings, "settings-status")).toBe("Settings loaded")
    await expect.poll(() => text(page, "notice"), poll).toBe("Settings opened")
    expect(launched.app.windows()).toHaveLength(2)
    const handle = await launched.app.browserWindow(settings)
    expect(await handle.evaluate((w: any) => ({ title: w.getTitle(), bounds: w.getBounds() }))).toMatchObject({
      title: "Settings",
      bounds: { width: 520, height: 460 }
    })
    // IPC from the second window.
    expect(await settings.evaluate(() => (window as any).api.ping("from settings"))).toBe("pong:from settings")

    // The button (IPC settings:open) focuses the open window instead of creating another.
    await page.getByTestId("open-settings").click()
    await expect.poll(() => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().length), poll).toBe(2)
    expect(launched.app.windows()).toHaveLength(2)
  })

  it("a setting changed in the Settings window re-filters the main window at once", async () => {
    const s = settings!
    const [, total, done] = /^Showing (\d+) of \1 tasks · (\d+) done$/.exec((await text(page, "task-count")) ?? "") ?? []
    expect(Number(done)).toBeGreaterThan(0)
    await s.getByLabel("Show completed tasks").uncheck()
    await expect.poll(() => text(s, "settings-status"), poll).toBe("Saved: theme system, completed tasks hidden")
    await expect.poll(() => text(page, "task-count"), poll).toBe(`Showing ${Number(total) - Number(done)} of ${total} tasks · ${done} done`)
    expect(await page.locator('[data-testid="task-row"].done').count()).toBe(0)
    expect(JSON.parse(readFileSync(join(launched.userData, "settings.json"), "utf8"))).toEqual({ theme: "system", showCompleted: false })
    await s.getByLabel("Show completed tasks").check()
    await expect.poll(() => text(page, "task-count"), poll).toBe(`Showing ${total} of ${total} tasks · ${done} done`)
  })

  it("the theme follows nativeTheme.themeSource in every open window (main process, then the toggle)", async () => {
    const windows = [page, settings!]
    await setThemeSource(launched.app, "dark")
    for (const w of windows) {
      await expect.poll(() => themeOf(w), poll).toEqual({ dark: true, indicator: "Theme: dark", body: "dark" })
    }
    await page.getByRole("button", { name: "Toggle theme" }).click()
    await expect.poll(() => text(page, "notice"), poll).toBe("Theme set to light")
    for (const w of windows) {
      await expect.poll(() => themeOf(w), poll).toEqual({ dark: false, indicator: "Theme: light", body: "light" })
    }
    expect(await launched.app.evaluate(({ nativeTheme }: any) => [nativeTheme.themeSource, nativeTheme.shouldUseDarkColors])).toEqual(["light", false])
    // The toggle saves the theme setting, which the Settings window shows.
    await expect.poll(() => settings!.getByTestId("theme-select").inputValue(), poll).toBe("light")
  })

  it("the Settings window's Close button closes it; the main window stays", async () => {
    const s = settings!
    const closed = s.waitForEvent("close", { timeout: UI_TIMEOUT })
    await clickThatClosesItsWindow(s.getByTestId("close-settings"))
    await closed
    expect(launched.app.windows()).toEqual([page])
    const title = await page.title()
    await expect
      .poll(() => launched.app.evaluate(({ BrowserWindow }: any) => BrowserWindow.getAllWindows().map((w: any) => w.getTitle())), poll)
      .toEqual([title])
  })

  it("Ctrl+K is a shortcut handled in main (before-input-event): the search field gets focus, the page never sees the key", async () => {
    await page.getByTestId("task-title-input").fill("")
    await page.getByTestId("task-title-input").focus()
    await page.keyboard.press("Control+k")
    await expect.poll(() => text(page, "notice"), poll).toBe("Search focused (Ctrl+K)")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("search-input")
    expect(await page.getByTestId("task-title-input").inputValue()).toBe("")
    await page.keyboard.type("passport")
    // While main listens for before-input-event the stand-in replays keys after the call returns: wait until
    // every typed key has landed, so none arrives after the field is cleared (and filters the next test's list).
    await expect.poll(() => page.getByTestId("search-input").inputValue(), poll).toBe("passport")
    await expect.poll(() => rowTitles(page), poll).toEqual(["Renew passport"])
    await page.getByTestId("search-input").fill("")
    await expect.poll(() => page.getByTestId("search-input").inputValue(), poll).toBe("")
    await expect.poll(() => text(page, "task-count"), poll).toMatch(/^Showing (\d+) of \1 tasks/)
  })

  it("right-click on a task pops the app's context menu (Menu.popup); clicking its item from main marks the task done", async () => {
    // Record what the app pops up, as a tester would on any Electron: wrap Menu.prototype.popup in main.
    await launched.app.evaluate(({ Menu }: any) => {
      const g = globalThis as any
      if (g.__popupWrapped) return
      g.__popupWrapped = true
      const original = Menu.prototype.popup
      Menu.prototype.popup = function popup(this: any, options: any) {
        g.__lastPopup = { menu: this, window: options?.window }
        return original.call(this, options)
      }
    })
    const rows = page.getByTestId("task-row")
    const open = await rows.evaluateAll((els) =>
      els
        .filter((el) => !(el.querySelector('[data-testid="task-done"]') as HTMLInputElement).checked)
        .map((el) => el.querySelector('[data-testid="task-title"]')!.textContent)
    )
    const title = open[1]!
    const row = rows.filter({ has: page.getByTestId("task-title").getByText(title, { exact: true }) })
    expect(await row.getByTestId("task-done").isChecked()).toBe(false)
    await row.getByTestId("task-title").click({ button: "right" })
    await expect
      .poll(() => launched.app.evaluate(() => (globalThis as any).__lastPopup?.menu.items.map((item: any) => item.label) ?? null), poll)
      .toEqual(["Mark as done", "Move to top", "", "Copy title"])
    if (isStandin) {
      await expect(
        launched.app.evaluate(({ __standin }: any) => __standin.popup.menu === (globalThis as any).__lastPopup.menu && __standin.popup.open)
      ).resolves.toBe(true)
    }
    await launched.app.evaluate(() => {
      const { menu, window } = (globalThis as any).__lastPopup
      menu.getMenuItemById("ctx-toggle-done").click({}, window, window.webContents)
    })
    await expect.poll(() => row.getByTestId("task-done").isChecked(), poll).toBe(true)
    expect(await text(page, "notice")).toBe(`Completed "${title}"`)
    await expect.poll(() => savedBoard(launched)?.tasks.find((t: any) => t.title === title)?.done, poll).toBe(true)
  })

  it("right-click in a text field pops an edit menu built from roles", async () => {
    await page.getByTestId("task-title-input").click({ button: "right" })
    await expect
      .poll(() => launched.app.evaluate(() => (globalThis as any).__lastPopup?.menu.items.map((item: any) => item.role ?? item.type)), poll)
      .toEqual(["cut", "copy", "paste", "separator", "selectall"])
  })

  it("Open offline page: the window's load fails as on Electron (did-fail-load, the main-process warning, an empty page)", async () => {
    const mainConsole: Array<string> = []
    const onConsole = (message: ConsoleMessage) => mainConsole.push(message.text())
    launched.app.on("console", onConsole)
    const [offline] = await Promise.all([launched.app.waitForEvent("window", { timeout: UI_TIMEOUT }), page.getByTestId("open-offline-button").click()])
    await expect.poll(() => text(page, "load-result"), poll).toBe("Load failed: ERR_CONNECTION_REFUSED (-102) for http://127.0.0.1:2/")
    await expect.poll(() => offline.url(), poll).toBe("chrome-error://chromewebdata/")
    await expect.poll(() => offline.evaluate(() => [document.title, document.body ? document.body.innerText.trim() : ""]), poll).toEqual(["", ""])
    await expect
      .poll(() => mainConsole.some((line) => line.includes("electron: Failed to load URL: http://127.0.0.1:2/ with error: ERR_CONNECTION_REFUSED")), poll)
      .toBe(true)
    expect(mainConsole.filter((line) => line.includes("UnhandledPromiseRejection"))).toEqual([])
    launched.app.off("console", onConsole)
    const closed = offline.waitForEvent("close", { timeout: UI_TIMEOUT })
    await launched.app.evaluate(({ BrowserWindow }: any) =>
      BrowserWindow.getAllWindows()
        .find((w: any) => w.getTitle() === "Offline page")
        ?.close()
    )
    await closed
    expect(launched.app.windows()).toEqual([page])
  })

  it("renames the board through the inline form (prompt() throws on Electron and on the stand-in) and the window title follows", async () => {
    const warned = page.waitForEvent("console", {
      predicate: (m: ConsoleMessage) => m.text().includes("prompt() is and will not be supported."),
      timeout: UI_TIMEOUT
    })
    let dialogs = 0
    const onDialog = () => {
      dialogs += 1
    }
    page.on("dialog", onDialog)
    await page.getByTestId("rename-board").click()
    expect((await warned).type()).toBe("warning")
    await page.getByLabel("Board name").fill("Renamed board")
    await page.getByTestId("rename-save").click()
    page.off("dialog", onDialog)
    expect(dialogs).toBe(0)
    await expect.poll(() => text(page, "board-name"), poll).toBe("Renamed board")
    expect(await text(page, "notice")).toBe('Board renamed to "Renamed board"')
    expect(await page.title()).toBe("Tasks — Renamed board")
    const handle = await launched.app.browserWindow(page)
    await expect.poll(() => handle.evaluate((w: any) => w.getTitle()), poll).toBe("Tasks — Renamed board")
    await expect.poll(() => savedBoard(launched)?.board?.name, poll).toBe("Renamed board")
  })
})
