/**
 * Trays created before the plugin's hook ran (an app builds its tray at `ready`, before Stagewright is
 * attached) are found with the V8 inspector's Runtime.queryObjects, through an in-process inspector
 * session. Electron has no getter for a tray's menu: when exactly one tray has no recorded menu and
 * exactly one live Menu is neither the application menu, a submenu, nor another tray's menu, that menu is
 * taken as the tray's and marked inferred.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"

/** Runs in the main process (the live objects it finds through the inspector are untyped: `MainValue`). */
export const discoverTrays = async (electron: ElectronModule): Promise<{ found: number; inferred: boolean }> => {
  const g = globalThis as MainValue
  const state = g.__stagewright_native
  if (!state || !electron.Tray?.prototype || !electron.Menu?.prototype) return { found: 0, inferred: false }
  const p = process as MainValue
  const inspector = p.getBuiltinModule ? p.getBuiltinModule("node:inspector") : p.mainModule?.require("inspector")
  if (!inspector?.Session) return { found: 0, inferred: false }
  const session = new inspector.Session()
  session.connect()
  const post = (method: string, params: object) =>
    new Promise<MainValue>((resolve, reject) => session.post(method, params, (error: unknown, result: unknown) => (error ? reject(error) : resolve(result))))
  const live = async (prototype: object): Promise<Array<MainValue>> => {
    g.__stagewright_probe = prototype
    try {
      const { result } = await post("Runtime.evaluate", { expression: "globalThis.__stagewright_probe" })
      const { objects } = await post("Runtime.queryObjects", { prototypeObjectId: result.objectId })
      await post("Runtime.callFunctionOn", {
        objectId: objects.objectId,
        functionDeclaration: "function () { globalThis.__stagewright_probe = Array.from(this) }"
      })
      return g.__stagewright_probe as Array<MainValue>
    } finally {
      delete g.__stagewright_probe
    }
  }
  try {
    const trays = (await live(electron.Tray.prototype)).filter((t) => !t.isDestroyed?.())
    let found = 0
    for (const tray of trays) {
      if (state.trays.some((t: MainValue) => t.instance === tray)) continue
      state.trays.push({ id: ++state.seq, instance: tray, menu: null, toolTip: "", early: true })
      found++
    }
    const menuless = state.trays.filter((t: MainValue) => t.menu === null && !t.instance.isDestroyed?.())
    if (menuless.length !== 1) return { found, inferred: false }
    const menus = await live(electron.Menu.prototype)
    const taken = new Set<MainValue>()
    const walk = (menu: MainValue) => {
      if (!menu || taken.has(menu)) return
      taken.add(menu)
      for (const item of menu.items ?? []) walk(item.submenu)
    }
    walk(electron.Menu.getApplicationMenu())
    for (const t of state.trays) walk(t.menu)
    for (const menu of menus) for (const item of menu.items ?? []) if (item.submenu) walk(item.submenu)
    const candidates = menus.filter((m) => !taken.has(m))
    if (candidates.length !== 1) return { found, inferred: false }
    menuless[0].menu = candidates[0]
    menuless[0].inferred = true
    return { found, inferred: true }
  } finally {
    session.disconnect()
  }
}
