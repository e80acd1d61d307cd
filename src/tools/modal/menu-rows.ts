/**
 * The application menu (and the app's trays) as rows of the tree the agent already reads: a window's
 * electron_snapshot carries ONE collapsed row (`- menubar: File [ref=m1] · Edit [ref=m2] …`), electron_click
 * on a menu ref lists that menu's items with their own refs (enabled/checked state, accelerators), and
 * electron_click on an item's ref does what electron_menu_click does. See docs/adr/0006-menus-in-the-tree.md.
 *
 * Menu refs are `m<n>`, numbered per app session by the item's label path (a rebuilt menu whose labels stay
 * keeps its refs); page refs are `e<n>` / `f<n>e<m>` / `v1e<n>`, so the two never collide.
 */
import { Effect } from "effect"
import { sessionLocal, type AppSession, type ElectronModule, type MainValue } from "../../layers/driver/ElectronDriver.js"
import { NotInteractable, RefStale, type ToolError } from "../contract/errors.js"
import { readMenus, type MenuNode, type Menus, type TrayMenu } from "./menu-model.js"
import { triggerMenuItem } from "../native/native.js"
import { answer, cut } from "../contract/respond.js"
import type { ToolResult } from "../contract/Tool.js"
import { callHandle, type HandleServices } from "../contract/handle.js"

/** A menu ref as the agent writes it. */
export const MENU_REF = /^m\d+$/

export const isMenuRef = (target: string): boolean => MENU_REF.test(target.trim())

/** Runs in the main process: clicks a tray menu's item at a position path as a user would. */
const clickTrayItem = ({ BrowserWindow, webContents }: ElectronModule, target: { readonly tray: number; readonly positions: ReadonlyArray<number> }) => {
  const entry = (globalThis as MainValue).__stagewright_native?.trays?.find((t: MainValue) => t.id === target.tray)
  if (!entry?.menu) throw new Error("The tray has no menu now: electron_snapshot shows what the app has")
  let items = entry.menu.items
  let item: MainValue
  for (const [depth, index] of target.positions.entries()) {
    item = items[index]
    if (depth < target.positions.length - 1) items = item.submenu.items
  }
  const focused = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
  item.click(undefined, focused, webContents.getFocusedWebContents?.() ?? focused?.webContents)
  return { checked: item.checked === true, type: item.type as string }
}

/** Runs in the main process: clicks an item of a window's own menu (`win.setMenu`) at a position path as a user would. */
const clickWindowItem = ({ BrowserWindow }: ElectronModule, target: { readonly webContentsId: number; readonly positions: ReadonlyArray<number> }) => {
  const win = BrowserWindow.getAllWindows().find((w) => !w.isDestroyed() && w.webContents?.id === target.webContentsId)
  const menu = win ? (globalThis as MainValue).__stagewright?.windowMenus?.get(win) : undefined
  if (!win || !menu) throw new Error("The window has no menu of its own now: electron_snapshot shows what the app has")
  let items = menu.items
  let item: MainValue
  for (const [depth, index] of target.positions.entries()) {
    item = items[index]
    if (depth < target.positions.length - 1) items = item.submenu.items
  }
  item.click(undefined, win, win.webContents)
  return { checked: item.checked === true, type: item.type as string }
}

/** What a menu ref stands for: a place in the application menu, a window's own menu or a tray's menu, by label path. */
interface MenuPlace {
  readonly source: "app" | "window" | "tray"
  /** A window's menu: its webContents id. */
  readonly contents?: number
  readonly tray?: number
  /** Labels from the root; empty for a tray itself. */
  readonly path: ReadonlyArray<string>
}

/** The session's menu refs: one per place, stable for as long as its label path is there. */
const menuRefs = sessionLocal("menu-refs", () => ({ byKey: new Map<string, string>(), byRef: new Map<string, MenuPlace>(), next: 1 }))

const refOf = (session: AppSession, place: MenuPlace): string => {
  const refs = menuRefs.of(session)
  const key = JSON.stringify([place.source, place.tray ?? place.contents ?? null, place.path])
  const known = refs.byKey.get(key)
  if (known !== undefined) return known
  const ref = `m${refs.next++}`
  refs.byKey.set(key, ref)
  refs.byRef.set(ref, place)
  return ref
}

/** A label as a row shows it: the app's text on one line (no mnemonic marks), bounded. */
const shown = (label: string) => cut(label.replace(/&/g, "").replace(/\s+/g, " ").trim(), 80)

const shownItems = (nodes: ReadonlyArray<MenuNode>) => nodes.filter((n) => n.visible && (n.type === "separator" || n.label !== ""))

const readBar = Effect.flatMap(callHandle, (call) => call.evaluateMain("read the menus", readMenus, undefined))

/**
 * The snapshot's menu row, or "" when the app shows none (no application menu, no main process). Costs one
 * main-process read; a failure leaves the row out, never the snapshot.
 */
export const menuRow: Effect.Effect<string, never, HandleServices> = Effect.gen(function* () {
  const session = yield* (yield* callHandle).current
  if (session === undefined || !session.hasMainProcess) return ""
  const bar = yield* readBar
  const top = shownItems(bar.app ?? []).filter((n) => n.type !== "separator")
  // A window's own menu bar, after the application menu, each cell prefixed with its window.
  const own = bar.windows.flatMap((w) => {
    const surface = surfaceOf(session, w.webContentsId)
    if (surface === undefined) return []
    return shownItems(w.items)
      .filter((n) => n.type !== "separator")
      .map((n) => `${surface} ${shown(n.label)} [ref=${refOf(session, { source: "window", contents: w.webContentsId, path: [n.label] })}]`)
  })
  const cells = [
    ...top.map((n) => `${shown(n.label)} [ref=${refOf(session, { source: "app", path: [n.label] })}]`),
    ...own,
    ...bar.trays.map(
      (t) => `tray${t.toolTip ? ` ${JSON.stringify(shown(t.toolTip))}` : ""} [ref=${refOf(session, { source: "tray", tray: t.tray, path: [] })}]`
    )
  ]
  return cells.length === 0 ? "" : `- menubar: ${cells.join(" · ")}`
}).pipe(Effect.orElseSucceed(() => ""))

/** The open surface whose webContents a window's menu belongs to. */
const surfaceOf = (session: AppSession, webContentsId: number): string | undefined =>
  session.surfaces.find((s) => s.facts?.webContentsId === webContentsId && !s.closed)?.id

/** A menu item's line, as the aria snapshot writes a menu's rows. */
const itemLine = (session: AppSession, place: MenuPlace, node: MenuNode): string => {
  if (node.type === "separator") return "- separator"
  const ref = refOf(session, { ...place, path: [...place.path, node.label] })
  const role = node.submenu ? "menu" : node.type === "checkbox" ? "menuitemcheckbox" : node.type === "radio" ? "menuitemradio" : "menuitem"
  const flags = [node.checked === undefined ? undefined : node.checked ? "[checked]" : "[unchecked]", node.enabled ? undefined : "[disabled]"].filter(Boolean)
  const keys = node.accelerator !== undefined ? ` ${node.accelerator}` : node.role !== undefined && !node.submenu ? ` (role ${node.role})` : ""
  return `- ${role} ${JSON.stringify(shown(node.label))}${flags.length > 0 ? ` ${flags.join(" ")}` : ""} [ref=${ref}]${keys}`
}

const stale = (ref: string, why: string) =>
  new RefStale({
    message: `${ref} ${why}`,
    hint: "Menu refs (m1, m2, …) come from the menubar row of electron_snapshot: take a snapshot, click a top-level ref to list its items, then click the item's ref."
  })

/** The node a place names now, with its position path; undefined when the menu no longer has it. */
const locate = (
  bar: Menus,
  place: MenuPlace
): { readonly node?: MenuNode; readonly items: ReadonlyArray<MenuNode>; readonly positions: ReadonlyArray<number> } | undefined => {
  const root =
    place.source === "app"
      ? bar.app
      : place.source === "window"
        ? bar.windows.find((w) => w.webContentsId === place.contents)?.items
        : bar.trays.find((t) => t.tray === place.tray)?.items
  if (root === undefined || root === null) return undefined
  let items = root
  let node: MenuNode | undefined
  const positions: Array<number> = []
  for (const label of place.path) {
    const index = items.findIndex((n) => n.label === label && n.type !== "separator")
    if (index < 0) return undefined
    node = items[index]!
    positions.push(index)
    items = node.submenu ?? []
  }
  return { ...(node !== undefined ? { node } : {}), items, positions }
}

const nameOf = (session: AppSession, place: MenuPlace, tray?: TrayMenu) => {
  const path = place.path.map(shown)
  if (place.source === "tray") return [`tray${tray?.toolTip ? ` ${JSON.stringify(shown(tray.toolTip))}` : ""}`, ...path].join(" > ")
  const surface = place.source === "window" ? surfaceOf(session, place.contents!) : undefined
  return `${surface !== undefined ? `${surface} ` : ""}${path.join(" > ")}`
}

/**
 * electron_click on a menu ref: a menu (top-level, submenu, a tray) lists its items with their refs; an item
 * is clicked as a user click would (its handler or role runs; a checkbox toggles), as electron_menu_click does.
 */
export const clickMenuRef = (target: string): Effect.Effect<ToolResult, ToolError, HandleServices> =>
  Effect.gen(function* () {
    const ref = target.trim()
    const session = yield* (yield* callHandle).session
    const place = menuRefs.of(session).byRef.get(ref)
    if (place === undefined) return yield* stale(ref, "is not a menu ref of this app")
    const bar = yield* readBar
    const found = locate(bar, place)
    const tray = place.source === "tray" ? bar.trays.find((t) => t.tray === place.tray) : undefined
    const name = nameOf(session, place, tray)
    if (found === undefined) return yield* stale(ref, `(${name}) is no longer in the app's menu`)
    const node = found.node
    if (node === undefined || node.submenu !== undefined) {
      const items = shownItems(found.items)
      const lines = items.map((n) => itemLine(session, place, n))
      return answer(`${name} (${ref}) lists ${items.filter((n) => n.type !== "separator").length} items; click one's ref:\n${lines.join("\n")}`, {
        menu: place.source,
        path: place.path,
        items: items.map((n) => ({
          ...n,
          submenu: undefined,
          hasSubmenu: n.submenu !== undefined,
          ref: n.type === "separator" ? null : refOf(session, { ...place, path: [...place.path, n.label] })
        }))
      })
    }
    if (!node.enabled)
      return yield* new NotInteractable({
        message: `The menu item ${name} is disabled`,
        hint: "It may become enabled after another action; click its menu's ref again to see the current state."
      })
    if (place.source === "app") return yield* triggerMenuItem({ source: "app", path: place.path, positions: found.positions, node })
    const call = yield* callHandle
    if (place.source === "window") {
      const clicked = yield* call.evaluateMain("click the window's menu item", clickWindowItem, { webContentsId: place.contents!, positions: found.positions })
      const now = clicked.type === "checkbox" || clicked.type === "radio" ? ` (now ${clicked.checked ? "checked" : "unchecked"})` : ""
      return answer(`Clicked menu item ${name}${now}.`, {
        menu: "window",
        window: surfaceOf(session, place.contents!) ?? null,
        path: place.path,
        id: node.id ?? null,
        ...clicked
      })
    }
    const after = yield* call.evaluateMain("click the tray menu item", clickTrayItem, { tray: place.tray!, positions: found.positions })
    const state = after.type === "checkbox" || after.type === "radio" ? ` (now ${after.checked ? "checked" : "unchecked"})` : ""
    return answer(`Clicked tray menu item ${name}${state}.`, { menu: "tray", tray: place.tray, path: place.path, id: node.id ?? null, ...after })
  })
