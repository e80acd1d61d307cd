/**
 * Shared helpers for the end-to-end tests of the four sample apps (test/fixtures/apps), driven by
 * unmodified playwright-core `_electron.launch({ executablePath })` on the runtime that
 * `resolveElectronRuntime()` picks (a real Electron when STAGEWRIGHT_ELECTRON is set, else the stand-in).
 */
import { _electron, type ElectronApplication, type Locator, type Page } from "playwright-core"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { resolveElectronRuntime } from "../../src/layers/driver/electron-runtime.js"
import { sampleAppPath } from "../../src/samples.js"
import { descendants, isAlive } from "../support/processes.js"

export { descendants }

export const runtime = resolveElectronRuntime()
export const isStandin = runtime.kind === "standin"

/** How long a UI effect may take to show up (the machine is shared and has two cores). */
export const UI_TIMEOUT = 15_000

export type SampleApp = "tasks" | "framework" | "hardened" | "insecure" | "views"

/** The folder of a sample app (the `views` app sits beside the four that `sampleAppPath` knows). */
export const samplePath = (name: SampleApp): string => (name === "views" ? join(dirname(sampleAppPath("tasks")), "views") : sampleAppPath(name))

export interface Launched {
  readonly app: ElectronApplication
  /** The main window, once its `<body data-ready="true">` is set. */
  readonly page: Page
  /** The fresh `SAMPLE_APP_USER_DATA` folder. */
  readonly userData: string
  /** The app's main process id. */
  readonly pid: number
  /** Milliseconds from launch to the ready signal. */
  readonly readyMs: number
  /** Whether playwright-core has seen the app close. */
  readonly isClosed: () => boolean
}

/** Waits for the app's ready signal (`<body data-ready="true">`) in `page`. */
export const waitForReady = async (page: Page): Promise<void> => {
  await page.locator('body[data-ready="true"]').waitFor({ state: "attached", timeout: 30_000 })
}

/** Launches a sample app folder with a fresh userData folder and waits for the main window's ready signal. */
export const launchSample = async (name: SampleApp): Promise<Launched> => {
  const userData = mkdtempSync(join(tmpdir(), `stagewright-${name}-`))
  const started = Date.now()
  const app = await _electron.launch({
    executablePath: runtime.executablePath,
    args: [samplePath(name)],
    env: { ...(process.env as Record<string, string>), SAMPLE_APP_USER_DATA: userData },
    timeout: 45_000
  })
  let closed = false
  app.once("close", () => {
    closed = true
  })
  let page: Page
  try {
    page = await app.firstWindow({ timeout: 30_000 })
    await waitForReady(page)
  } catch (error) {
    await app.close().catch(() => undefined)
    rmSync(userData, { recursive: true, force: true })
    throw error
  }
  return { app, page, userData, pid: app.process().pid!, readyMs: Date.now() - started, isClosed: () => closed }
}

/** Closes the app if it still runs and removes its userData folder (for afterAll). */
export const cleanUp = async (launched: Launched | undefined): Promise<void> => {
  if (!launched) return
  if (!launched.isClosed()) await launched.app.close().catch(() => undefined)
  rmSync(launched.userData, { recursive: true, force: true })
}

/** The text of the element with `data-testid=<testId>` (for expect.poll). */
export const text = (page: Page, testId: string): Promise<string | null> => page.getByTestId(testId).textContent()

/** The tasks board's row titles, in order. */
export const rowTitles = (page: Page): Promise<Array<string>> => page.getByTestId("task-title").allTextContents()

/** The tasks app's saved board (<userData>/tasks.json), or null before its first save. */
export const savedBoard = (launched: Launched): any => {
  const file = join(launched.userData, "tasks.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null
}

/** Runs `trigger` and resolves the window it opens, once that window's ready signal is set. */
export const openWindow = async (app: ElectronApplication, trigger: () => Promise<unknown>): Promise<Page> => {
  const [window] = await Promise.all([app.waitForEvent("window", { timeout: 30_000 }), trigger()])
  await waitForReady(window)
  return window
}

/** Clicks a custom menu item from the main process, as Electron's own menu would. */
export const clickMenuItem = (app: ElectronApplication, id: string): Promise<void> =>
  app.evaluate(({ Menu }: any, itemId: string) => {
    const item = Menu.getApplicationMenu()?.getMenuItemById(itemId)
    if (!item) throw new Error(`no menu item with id ${itemId}`)
    item.click()
  }, id)

/**
 * Replaces `shell.openExternal` in the main process with a recorder (nothing reaches the OS) and returns a
 * reader for the URLs it was called with.
 */
export const stubOpenExternal = async (app: ElectronApplication): Promise<() => Promise<Array<string>>> => {
  await app.evaluate(({ shell }: any) => {
    const g = globalThis as any
    g.__stagewrightOpened = []
    shell.openExternal = async (url: string) => {
      g.__stagewrightOpened.push(url)
    }
  })
  return () => app.evaluate(() => [...((globalThis as any).__stagewrightOpened as Array<string>)])
}

/**
 * Replaces `dialog.showOpenDialog` and `dialog.showMessageBox` with canned answers; every call's arguments
 * (without the window) are recorded in the main process. Returns a reader for the recorded calls.
 */
export const stubDialogs = async (
  app: ElectronApplication,
  answers: { open?: { canceled: boolean; filePaths: Array<string> }; messageBox?: { response: number; checkboxChecked?: boolean } }
): Promise<() => Promise<Array<{ method: string; options: any }>>> => {
  await app.evaluate(({ dialog }: any, canned: typeof answers) => {
    const g = globalThis as any
    g.__stagewrightDialogs = []
    const optionsOf = (args: Array<any>) => (args.length > 1 ? args[1] : args[0])
    if (canned.open) {
      dialog.showOpenDialog = async (...args: Array<any>) => {
        g.__stagewrightDialogs.push({ method: "showOpenDialog", options: optionsOf(args) })
        return canned.open
      }
    }
    if (canned.messageBox) {
      dialog.showMessageBox = async (...args: Array<any>) => {
        g.__stagewrightDialogs.push({ method: "showMessageBox", options: optionsOf(args) })
        return { checkboxChecked: false, ...canned.messageBox }
      }
    }
  }, answers)
  return () => app.evaluate(() => JSON.parse(JSON.stringify((globalThis as any).__stagewrightDialogs)))
}

/** Clicks the menu item with `role` (e.g. "quit") from the main process. */
export const clickMenuRole = (app: ElectronApplication, role: string): Promise<void> =>
  app.evaluate(({ Menu }: any, wanted: string) => {
    const find = (items: Array<any>): any => {
      for (const item of items) {
        if (String(item.role ?? "").toLowerCase() === wanted.toLowerCase()) return item
        const inner = item.submenu ? find(item.submenu.items) : undefined
        if (inner) return inner
      }
      return undefined
    }
    const item = find(Menu.getApplicationMenu()?.items ?? [])
    if (!item) throw new Error(`no menu item with role ${wanted}`)
    item.click()
  }, role)

/** Whether `prefers-color-scheme: dark` matches in `page`, and what the page's theme indicator says. */
export const themeOf = (page: Page): Promise<{ dark: boolean; indicator: string | null; body: string | undefined }> =>
  page.evaluate(() => ({
    dark: window.matchMedia("(prefers-color-scheme: dark)").matches,
    indicator: document.querySelector('[data-testid="theme-indicator"]')?.textContent ?? null,
    body: document.body.dataset.theme
  }))

/** Sets `nativeTheme.themeSource` in the main process. */
export const setThemeSource = (app: ElectronApplication, source: "dark" | "light" | "system"): Promise<void> =>
  app.evaluate(({ nativeTheme }: any, value: string) => {
    nativeTheme.themeSource = value
  }, source)

/** Whether a process with this pid exists: `process.kill(pid, 0)` throws once it is gone. */
export const exists = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Polls until `pid` no longer exists (`process.kill(pid, 0)` throws) and none of `others` still runs, for at
 * most `timeoutMs`; returns the pids still alive then (empty when all are gone).
 */
export const waitForExit = async (pid: number, others: ReadonlyArray<number> = [], timeoutMs = 15_000): Promise<Array<number>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const left = [...(exists(pid) ? [pid] : []), ...others.filter(isAlive)]
    if (left.length === 0 || Date.now() > deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Clicks a button whose click closes its own window (`window.close()`): the page may be gone before
 * playwright-core's click returns ("Target page, context or browser has been closed"), which is the expected
 * effect, not a failure. Any other error is thrown.
 */
export const clickThatClosesItsWindow = async (locator: Locator): Promise<void> => {
  try {
    await locator.click()
  } catch (error) {
    if (!/Target page, context or browser has been closed/.test(String(error))) throw error
  }
}
