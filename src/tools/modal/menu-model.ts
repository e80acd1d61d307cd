/**
 * Menus as the native tools see them: the application menu and, while it is open, the context menu the app
 * last popped up with `Menu.popup()` (recorded by the core's main-process hook, see
 * layers/driver/main-hooks.ts: `globalThis.__stagewright.popup`). The functions marked "runs in the main
 * process" are serialized there and must stay self-contained.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"

export interface MenuNode {
  readonly label: string
  readonly id?: string
  readonly role?: string
  readonly type: string
  readonly accelerator?: string
  readonly enabled: boolean
  readonly visible: boolean
  readonly checked?: boolean
  readonly submenu?: ReadonlyArray<MenuNode>
}

export type MenuSource = "app" | "context"

/** A tray the native plugin's hook recorded, with its readable menu. */
export interface TrayMenu {
  readonly tray: number
  readonly toolTip: string
  readonly items: ReadonlyArray<MenuNode>
}

/** A window's own menu bar (`win.setMenu`), recorded by the core's main-process hook. */
export interface WindowMenu {
  readonly webContentsId: number
  readonly items: ReadonlyArray<MenuNode>
}

export interface Menus {
  readonly app: ReadonlyArray<MenuNode> | null
  /** The windows' own menu bars, set with `win.setMenu` since the launch or attach (none removed, none of a closed window). */
  readonly windows: ReadonlyArray<WindowMenu>
  /**
   * The trays the native plugin's hook recorded with a readable menu (none without the plugin): those whose
   * menu the app set after the launch, and those electron_native_tray found (a tray made before it).
   */
  readonly trays: ReadonlyArray<TrayMenu>
  /** The open popped-up menu, with the URL and title of the window it popped up in. */
  readonly context: { readonly items: ReadonlyArray<MenuNode>; readonly window: { readonly url: string; readonly title: string } | null } | null
}

/** Runs in the main process: the application menu, the recorded trays' menus and the open context menu as plain data. */
export const readMenus = ({ Menu, BrowserWindow }: ElectronModule): Menus => {
  const walk = (menu: MainValue): Array<MenuNode> =>
    menu.items.map((item: MainValue) => ({
      label: item.label ?? "",
      ...(item.id ? { id: item.id } : {}),
      ...(item.role ? { role: item.role } : {}),
      type: item.type,
      ...(item.accelerator ? { accelerator: String(item.accelerator) } : {}),
      enabled: item.enabled !== false,
      visible: item.visible !== false,
      ...(item.type === "checkbox" || item.type === "radio" ? { checked: item.checked === true } : {}),
      ...(item.submenu ? { submenu: walk(item.submenu) } : {})
    }))
  const app = Menu.getApplicationMenu()
  const popped = (globalThis as MainValue).__stagewright?.popup
  const win = popped?.open && popped.window && !popped.window.isDestroyed?.() ? popped.window : null
  const native = (globalThis as MainValue).__stagewright_native
  // A tray whose menu cannot be read is left out, never the application menu with it.
  const trays = (native?.trays ?? []).flatMap((t: MainValue) => {
    try {
      return t.menu && t.instance?.isDestroyed?.() !== true ? [{ tray: t.id as number, toolTip: String(t.toolTip ?? ""), items: walk(t.menu) }] : []
    } catch {
      return []
    }
  })
  const own = (globalThis as MainValue).__stagewright?.windowMenus
  const windows = own
    ? BrowserWindow.getAllWindows().flatMap((w: MainValue) => {
        const menu = own.get(w)
        return menu && !w.isDestroyed?.() && w.webContents ? [{ webContentsId: w.webContents.id as number, items: walk(menu) }] : []
      })
    : []
  return {
    app: app ? walk(app) : null,
    windows,
    trays,
    context: popped?.open ? { items: walk(popped.menu), window: win ? { url: win.webContents?.getURL?.() ?? "", title: win.getTitle?.() ?? "" } : null } : null
  }
}

/**
 * Runs in the main process: clicks the item at a position path as a user click would (Electron's
 * MenuItem.click with the window and its webContents). A context menu is closed first, as Chromium's
 * menu runner closes the popup before it runs the command.
 */
export const clickMenuItem = (
  { Menu, BrowserWindow, webContents }: ElectronModule,
  target: { readonly source: MenuSource; readonly positions: ReadonlyArray<number> }
) => {
  const popped = (globalThis as MainValue).__stagewright?.popup
  if (target.source === "context" && !popped?.open) throw new Error("The context menu closed before the click: right-click again, then electron_menu")
  const menu = target.source === "context" ? popped.menu : Menu.getApplicationMenu()
  if (!menu) throw new Error("The app has no application menu now: electron_menu shows what it has")
  let items = menu.items
  let item: MainValue
  for (const [depth, index] of target.positions.entries()) {
    item = items[index]
    if (depth < target.positions.length - 1) items = item.submenu.items
  }
  if (target.source === "context") {
    const win = popped.window
    popped.menu.closePopup?.(win ?? undefined)
    item.click({}, win ?? undefined, win?.webContents ?? webContents.getFocusedWebContents?.())
  } else {
    const focused = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
    item.click(undefined, focused, webContents.getFocusedWebContents?.() ?? focused?.webContents)
  }
  return { checked: item.checked === true, type: item.type as string }
}

export const renderMenu = (nodes: ReadonlyArray<MenuNode>, depth = 0): Array<string> =>
  nodes.flatMap((node) => {
    if (node.type === "separator") return [`${"  ".repeat(depth)}---`]
    const flags = [
      node.id ? `id=${node.id}` : undefined,
      node.role ? `role=${node.role}` : undefined,
      node.accelerator,
      node.enabled ? undefined : "disabled",
      node.visible ? undefined : "hidden",
      node.checked === undefined ? undefined : node.checked ? "checked" : "unchecked"
    ].filter(Boolean)
    return [
      `${"  ".repeat(depth)}${node.label || "(no label)"}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`,
      ...renderMenu(node.submenu ?? [], depth + 1)
    ]
  })

export interface MenuEntry {
  readonly source: MenuSource
  readonly path: ReadonlyArray<string>
  readonly positions: ReadonlyArray<number>
  readonly node: MenuNode
}

/** Every item of a menu with its label path and position path. */
export const flatten = (
  source: MenuSource,
  nodes: ReadonlyArray<MenuNode>,
  path: ReadonlyArray<string> = [],
  positions: ReadonlyArray<number> = []
): Array<MenuEntry> =>
  nodes.flatMap((node, i) => {
    const here = { source, path: [...path, node.label], positions: [...positions, i], node }
    return [here, ...flatten(source, node.submenu ?? [], here.path, here.positions)]
  })

export const similarity = (a: string, b: string) => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  if (x === y) return 0
  if (y.includes(x) || x.includes(y)) return 1
  const words = new Set(x.split(/\W+/))
  return y.split(/\W+/).some((w) => w && words.has(w)) ? 2 : 3
}
