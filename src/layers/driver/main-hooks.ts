/**
 * Code that runs inside the Electron main process (serialized by playwright-core's evaluate or sent
 * through the inspector): it sees the `electron` module as its argument and nothing of this process.
 */
import type * as Electron from "electron"
import type { ElectronModule, MainHook, MainValue } from "./shape.js"

/**
 * Runs once in the main process: records uncaught exceptions (as a monitor, so the app's own handling is
 * unchanged) and renderers that crash or hang, for electron_errors; and the menu the app last popped up
 * with `Menu.popup()` (a context menu), for electron_menu / electron_menu_click. Nothing in Electron's API
 * lists a popped-up menu, but `Menu.prototype.popup` is plain JavaScript on Electron as on the stand-in:
 * it is wrapped to keep the live menu (`this`) and the window it popped up in (what popup returns, as
 * `browserWindow`), then runs unchanged. `globalThis.__stagewright.popup` is `{ menu, window, at, open }`;
 * `open` turns false on the menu's `menu-will-close`. Both say MODALS_CHANGED (./main-modals.ts) on the
 * inspector's console, so the next answer reads the popped-up menu.
 * A window's own menu (`win.setMenu`) is kept the same way.
 */
export const installMainHooks = (electron: ElectronModule): void => {
  const g = globalThis as MainValue
  if (g.__stagewright) return
  const state = (g.__stagewright = { errors: [] as Array<unknown>, seq: 0, popup: null as unknown })
  const push = (kind: string, message: string) => {
    state.errors.push({ seq: ++state.seq, at: Date.now(), kind, message })
    if (state.errors.length > 200) state.errors.shift()
  }
  process.on("uncaughtExceptionMonitor", (error: MainValue) => push("main", `uncaught exception in main: ${error?.stack ?? error}`))
  const watch = (wc: MainValue) => {
    wc.on("render-process-gone", (_event: unknown, details: MainValue) =>
      push("crash", `renderer of webContents ${wc.id} gone: ${details?.reason ?? "unknown"}`)
    )
    wc.on("unresponsive", () => push("unresponsive", `webContents ${wc.id} (${wc.getURL()}) is unresponsive`))
  }
  for (const wc of electron.webContents.getAllWebContents()) watch(wc)
  electron.app.on("web-contents-created", (_event: unknown, wc: MainValue) => watch(wc))
  const proto = electron.Menu?.prototype
  if (proto && typeof proto.popup === "function") {
    // Serialized alone: the signal is spelled out here as in main-modals.ts (MODALS_CHANGED).
    const p = process as MainValue
    let inspector: MainValue
    try {
      inspector = p.getBuiltinModule ? p.getBuiltinModule("node:inspector") : p.mainModule?.require("inspector")
    } catch {
      inspector = undefined
    }
    // Said on the inspector's console only, never on the app's stdout (no inspector console: nothing said).
    const changed = () => {
      try {
        if (typeof inspector?.console?.debug !== "function") return
        inspector.console.debug("stagewright:modals-changed")
      } catch {
        // only a hint: an open popup is read on every answer anyway
      }
    }
    const popup = proto.popup
    proto.popup = function (this: MainValue, ...args: Array<any>) {
      // Electron's popup returns { browserWindow, x, y, positioningItem } (its published type says void).
      const result: MainValue = Reflect.apply(popup, this, args)
      const popped = { menu: this, window: result?.browserWindow ?? args[0]?.window ?? null, at: Date.now(), open: true }
      state.popup = popped
      changed()
      // A listener is only an observer: the menu closes the same way with or without it.
      if (typeof this.once === "function")
        this.once("menu-will-close", () => {
          popped.open = false
          changed()
        })
      return result
    }
  }
  // A window's own menu bar (`win.setMenu`; `removeMenu` takes it away): Electron's API has no getter, so
  // the menu set is kept (weakly, by window) and then set unchanged. `globalThis.__stagewright.windowMenus`.
  const windows = electron.BrowserWindow?.prototype
  const menus = ((state as MainValue).windowMenus = new WeakMap())
  if (windows && typeof windows.setMenu === "function") {
    const setMenu = windows.setMenu
    windows.setMenu = function (this: MainValue, ...args: Array<any>) {
      menus.set(this, args[0] ?? null)
      return Reflect.apply(setMenu, this, args)
    }
    const removeMenu = windows.removeMenu
    if (typeof removeMenu === "function") {
      windows.removeMenu = function (this: MainValue, ...args: Array<any>) {
        menus.set(this, null)
        return Reflect.apply(removeMenu, this, args)
      }
    }
  }
}

/**
 * Runs in the main process (its source is embedded in evaluateWindow's wrapper): the BrowserWindow of a CDP
 * page target, found the way playwright-core's `browserWindow(page)` finds it.
 */
export const windowOfTarget = (electron: ElectronModule, targetId: string): Electron.BrowserWindow => {
  const wc = electron.webContents.fromDevToolsTargetId(targetId)
  const win = wc ? electron.BrowserWindow.fromWebContents(wc) : null
  if (!win) throw new Error("This page has no BrowserWindow")
  return win
}

/** Wraps a hook so it runs once per app process, whatever the number of launches or attaches that see it. */
export const hookSource = (hook: MainHook) => {
  const name = JSON.stringify(hook.name)
  return `(electron) => {
    const __name = (target) => target
    const done = (globalThis.__stagewrightHooks = globalThis.__stagewrightHooks || {})
    if (done[${name}]) return false
    done[${name}] = true
    ;(${hook.install.toString()})(electron)
    return true
  }`
}
