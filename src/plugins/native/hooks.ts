/**
 * The native plugin's main-process hook, installed at every launch / attach only while the plugin is
 * loaded. It runs in the app (serialized: self-contained, `electron` its only input) and keeps bounded
 * records on `globalThis.__stagewright_native`:
 * - notifications the app shows (Notification.prototype.show is wrapped; the real one still runs);
 * - shell.openExternal / openPath / showItemInFolder / trashItem, replaced by recorders (nothing leaves the app);
 * - trays whose context menu the app sets (Tray.prototype.setContextMenu is wrapped: Electron has no getter;
 *   trays made before the hook are found by ./discover.ts), and the menus it pops up (popUpContextMenu);
 * - autoUpdater.checkForUpdates / quitAndInstall, replaced by recorders (the update UI is driven by emitted events).
 */
import type { MainHook } from "../Plugin.js"
import type { ElectronModule } from "../../layers/driver/ElectronDriver.js"

export const nativeRecorders: MainHook = {
  name: "native-recorders",
  // `any` inside: Electron's objects are untyped in this process.
  install: (electron: ElectronModule) => {
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const g = globalThis as any
    const state = (g.__stagewright_native = {
      seq: 0,
      notifications: [] as Array<any>,
      shell: [] as Array<any>,
      trays: [] as Array<any>,
      updater: [] as Array<any>
    })
    const push = (list: Array<any>, item: any, max: number) => {
      list.push(item)
      if (list.length > max) list.shift()
    }
    const Notification = electron.Notification
    if (Notification?.prototype?.show) {
      const show = Notification.prototype.show
      Notification.prototype.show = function (this: any, ...args: Array<any>) {
        if (!state.notifications.some((n: any) => n.instance === this)) push(state.notifications, { id: ++state.seq, at: Date.now(), instance: this }, 100)
        return Reflect.apply(show, this, args)
      }
    }
    const shell = electron.shell
    const record = (method: string, detail: Record<string, string>) => push(state.shell, { seq: ++state.seq, at: Date.now(), method, ...detail }, 200)
    shell.openExternal = async (url: unknown) => void record("openExternal", { url: String(url) })
    shell.openPath = async (path: unknown) => (record("openPath", { path: String(path) }), "")
    shell.showItemInFolder = (path: unknown) => void record("showItemInFolder", { path: String(path) })
    shell.trashItem = async (path: unknown) => void record("trashItem", { path: String(path) })
    const Tray = electron.Tray
    if (Tray?.prototype?.setContextMenu) {
      const entryOf = (tray: any) => {
        let entry = state.trays.find((t: any) => t.instance === tray)
        if (!entry) push(state.trays, (entry = { id: ++state.seq, instance: tray, menu: null, toolTip: "" }), 20)
        return entry
      }
      const setContextMenu = Tray.prototype.setContextMenu
      Tray.prototype.setContextMenu = function (this: any, menu: any) {
        const entry = entryOf(this)
        entry.menu = menu
        entry.inferred = false
        return setContextMenu.call(this, menu)
      }
      // A tray's own menu popped up by the app (on a click on its icon, say): counted, with the labels shown.
      const popUpContextMenu = Tray.prototype.popUpContextMenu
      if (popUpContextMenu) {
        Tray.prototype.popUpContextMenu = function (this: any, menu?: any, ...rest: Array<any>) {
          const entry = entryOf(this)
          const shown = menu ?? entry.menu
          entry.popups = (entry.popups ?? 0) + 1
          entry.popped = shown ? shown.items.map((item: any) => item.label ?? "") : null
          return Reflect.apply(popUpContextMenu, this, [menu, ...rest])
        }
      }
      const setToolTip = Tray.prototype.setToolTip
      Tray.prototype.setToolTip = function (this: any, toolTip: any) {
        entryOf(this).toolTip = String(toolTip)
        return setToolTip.call(this, toolTip)
      }
    }
    const updater = electron.autoUpdater
    if (updater) {
      updater.checkForUpdates = () => void push(state.updater, { at: Date.now(), method: "checkForUpdates" }, 50)
      updater.quitAndInstall = () => void push(state.updater, { at: Date.now(), method: "quitAndInstall" }, 50)
    }
    /* eslint-enable @typescript-eslint/no-explicit-any */
  }
}
