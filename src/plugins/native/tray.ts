/**
 * Trays and notifications, from the records of the plugin's main-process hook: a tray's context menu
 * (read, and click an item as a user would), its icon (click, right-click, double-click: the Tray events
 * with Electron's arguments), the notifications the app showed (click one).
 */
import { Effect, Schema } from "effect"
import { type ElectronModule, type MainValue } from "../../layers/driver/ElectronDriver.js"
import { ElementNotFound, InvalidArgument, NotInteractable } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { discoverTrays } from "./discover.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface TrayItem {
  readonly label: string
  readonly id?: string
  readonly type: string
  readonly enabled: boolean
  readonly checked?: boolean
  readonly submenu?: ReadonlyArray<TrayItem>
}

interface TrayView {
  readonly tray: number
  readonly toolTip: string
  readonly destroyed: boolean
  readonly menu: ReadonlyArray<TrayItem> | null
  /** The menu was set before the hook ran: found among the live menus, not recorded. */
  readonly inferred?: boolean
}

/** Runs in the main process: the recorded trays' menus; with `click`, clicks the item with that id or label path. */
// `any` in the main-process functions: the recorded trays and menu items are reached dynamically.
type TrayResult = { installed: boolean; trays: Array<TrayView>; clicked: null | { label: string; error?: string } }
const trayCommand = ({ BrowserWindow, webContents }: ElectronModule, command: { click: { id?: string; path?: ReadonlyArray<string> } | null }): TrayResult => {
  const state = (globalThis as MainValue).__stagewright_native
  if (!state) return { installed: false, trays: [], clicked: null }
  const plain = (menu: any): Array<any> =>
    menu.items.map((item: any) => ({
      label: item.label ?? "",
      ...(item.id ? { id: item.id } : {}),
      type: item.type,
      enabled: item.enabled !== false,
      ...(item.type === "checkbox" || item.type === "radio" ? { checked: item.checked === true } : {}),
      ...(item.submenu ? { submenu: plain(item.submenu) } : {})
    }))
  let clicked: null | { label: string; error?: string } = null
  if (command.click) {
    const wanted = command.click
    const norm = (s: string) => s.replace(/&/g, "").trim().toLowerCase()
    const find = (items: Array<any>, trail: Array<string>): any => {
      for (const item of items) {
        const path = [...trail, item.label ?? ""]
        const hit =
          wanted.id !== undefined ? item.id === wanted.id : path.length === wanted.path!.length && path.every((l, i) => norm(l) === norm(wanted.path![i]!))
        if (hit) return item
        const inner = item.submenu ? find(item.submenu.items, path) : undefined
        if (inner) return inner
      }
      return undefined
    }
    for (const entry of state.trays) {
      if (!entry.menu || entry.instance.isDestroyed?.()) continue
      const item = find(entry.menu.items, [])
      if (!item) continue
      if (item.enabled === false) clicked = { label: item.label, error: "disabled" }
      else if (item.submenu) clicked = { label: item.label, error: "submenu" }
      else {
        const focused = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
        item.click(undefined, focused, webContents.getFocusedWebContents?.() ?? focused?.webContents)
        clicked = { label: item.label }
      }
      break
    }
  }
  const trays = state.trays.map((t: any) => ({
    tray: t.id,
    toolTip: t.toolTip,
    destroyed: t.instance.isDestroyed?.() === true,
    menu: t.menu ? plain(t.menu) : null,
    ...(t.inferred ? { inferred: true } : {})
  }))
  return { installed: true, trays, clicked }
}

type IconEvent = "click" | "right-click" | "double-click"
interface IconClick {
  readonly tray: number
  readonly listeners: number
  readonly bounds: { x: number; y: number; width: number; height: number }
  /** The labels of the menu the app popped up in answer (null: one the hook could not read), if it did. */
  readonly popped?: ReadonlyArray<string> | null
  readonly defaultPrevented: boolean
  readonly error?: string
}
type IconResult = { installed: boolean; live: Array<{ tray: number; toolTip: string }>; clicked: IconClick | null }

/**
 * Runs in the main process: emits a Tray icon event on the chosen tray (or the only live one) as the OS does —
 * click (event, bounds, position), right-click and double-click (event, bounds) — and says what the app did.
 */
const trayIconCommand = (_electron: ElectronModule, command: { event: IconEvent; tray: number | null }): IconResult => {
  const state = (globalThis as MainValue).__stagewright_native
  if (!state) return { installed: false, live: [], clicked: null }
  const live = state.trays.filter((t: any) => t.instance.isDestroyed?.() !== true)
  const listed = live.map((t: any) => ({ tray: t.id, toolTip: t.toolTip }))
  const entry = command.tray !== null ? live.find((t: any) => t.id === command.tray) : live.length === 1 ? live[0] : undefined
  if (!entry) return { installed: true, live: listed, clicked: null }
  const tray = entry.instance
  const listeners = tray.listenerCount(command.event) as number
  const bounds = tray.getBounds?.() ?? { x: 0, y: 0, width: 0, height: 0 }
  const event = {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
    altKey: false,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    triggeredByAccelerator: false
  }
  const position = { x: bounds.x + Math.round(bounds.width / 2), y: bounds.y + Math.round(bounds.height / 2) }
  const before = entry.popups ?? 0
  let error: string | undefined
  try {
    tray.emit(command.event, event, bounds, ...(command.event === "click" ? [position] : []))
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown)
  }
  const popped = (entry.popups ?? 0) > before ? { popped: entry.popped } : {}
  return {
    installed: true,
    live: listed,
    clicked: { tray: entry.id, listeners, bounds, defaultPrevented: event.defaultPrevented, ...popped, ...(error !== undefined ? { error } : {}) }
  }
}

const iconAnswer = (event: IconEvent, c: IconClick) => {
  const head = `Sent ${event} to tray ${c.tray}'s icon (bounds ${c.bounds.x},${c.bounds.y} ${c.bounds.width}x${c.bounds.height})`
  const handled =
    c.listeners === 0
      ? `: the app has no ${event} listener${event === "click" ? "" : " (the OS may show the tray's context menu itself: read it with electron_native_tray)"}`
      : `: ${c.listeners} listener${c.listeners === 1 ? "" : "s"} ran`
  const threw = c.error !== undefined ? `; a listener threw: ${c.error.slice(0, 300)}` : ""
  const menu =
    c.popped === undefined
      ? ""
      : c.popped === null
        ? "; the app popped up a menu the hook cannot read"
        : `; the app popped up its menu: ${c.popped.filter((l) => l !== "").join(", ")}`
  return `${head}${handled}${threw}${menu}.`
}

const render = (items: ReadonlyArray<TrayItem>, depth = 0): Array<string> =>
  items.flatMap((item) => {
    if (item.type === "separator") return [`${"  ".repeat(depth)}---`]
    const flags = [
      item.id ? `id=${item.id}` : undefined,
      item.enabled ? undefined : "disabled",
      item.checked === undefined ? undefined : item.checked ? "checked" : "unchecked"
    ].filter(Boolean)
    return [`${"  ".repeat(depth)}${item.label || "(no label)"}${flags.length > 0 ? ` [${flags.join(", ")}]` : ""}`, ...render(item.submenu ?? [], depth + 1)]
  })

const NOT_SEEN = "The app has no tray."
const UNREADABLE =
  "(menu not readable: it was set before Stagewright attached and Electron cannot read a tray's menu; it is recorded the next time the app calls tray.setContextMenu)"

export const tray = defineTool({
  name: "electron_native_tray",
  description:
    "The app's tray menus (labels, ids, enabled, checked); click an item by id or label path as a user would, or the icon itself (the app gets the Tray event; the answer says if it handled it or popped up a menu).",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE"],
  input: Schema.Struct({
    id: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({ description: "click the item with this id" }),
    path: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(200))).pipe(Schema.minItems(1), Schema.maxItems(10))).annotations({
      description: "click by labels"
    }),
    icon: Schema.optional(Schema.Literal("click", "right-click", "double-click")),
    tray: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())).annotations({ description: "icon: tray id, default the only one" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.id !== undefined && input.path !== undefined)
        return yield* new InvalidArgument({ message: "give id or path, not both", hint: 'Example: { "id": "check-updates" }' })
      if (input.icon !== undefined && (input.id !== undefined || input.path !== undefined)) {
        return yield* new InvalidArgument({ message: "give icon, or a menu item's id or path, not both", hint: 'Example: { "icon": "right-click" }' })
      }
      if (input.tray !== undefined && input.icon === undefined)
        return yield* new InvalidArgument({ message: "tray: only with icon", hint: 'Example: { "icon": "click", "tray": 3 }' })
      const call = yield* callHandle
      if (input.icon !== undefined) {
        yield* call.evaluateMain("find the trays", discoverTrays, undefined).pipe(Effect.catchTag("OperationFailed", () => Effect.void))
        const result = yield* call.evaluateMain(`${input.icon} the tray icon`, trayIconCommand, { event: input.icon, tray: input.tray ?? null })
        if (result.clicked === null) {
          const trays = result.live.map((t) => `tray ${t.tray}${t.toolTip ? ` "${t.toolTip}"` : ""}`).join(", ")
          return yield* new ElementNotFound({
            message: result.live.length === 0 ? NOT_SEEN : input.tray !== undefined ? `No live tray ${input.tray}` : `The app has ${result.live.length} trays`,
            hint: result.live.length === 0 ? "Trays are recorded while the native plugin is loaded." : `Give tray: ${trays}.`
          })
        }
        return answer(iconAnswer(input.icon, result.clicked), { icon: input.icon, ...result.clicked })
      }
      const click = input.id !== undefined ? { id: input.id } : input.path !== undefined ? { path: input.path } : null
      yield* call.evaluateMain("find the trays", discoverTrays, undefined).pipe(Effect.catchTag("OperationFailed", () => Effect.void))
      const result = yield* call.evaluateMain(click ? "click the tray item" : "read the tray menus", trayCommand, { click })
      const live = result.trays.filter((t) => !t.destroyed)
      const menus = live.map((t) =>
        [
          `tray ${t.tray}${t.toolTip ? ` "${t.toolTip}"` : ""}${t.inferred ? " (menu set before attach, inferred)" : ""}:`,
          ...(t.menu ? render(t.menu, 1) : [`  ${UNREADABLE}`])
        ].join("\n")
      )
      if (click) {
        const asked = input.id !== undefined ? `id "${input.id}"` : `path ${JSON.stringify(input.path)}`
        if (result.clicked === null) {
          return yield* new ElementNotFound({
            message: `No tray menu item with ${asked}`,
            hint: live.length > 0 ? `Tray menus:\n${menus.join("\n")}` : NOT_SEEN
          })
        }
        if (result.clicked.error === "disabled")
          return yield* new NotInteractable({
            message: `Tray item ${result.clicked.label} is disabled`,
            hint: "It may become enabled after another action; read the tray again."
          })
        if (result.clicked.error === "submenu")
          return yield* new InvalidArgument({ message: `${result.clicked.label} opens a submenu`, hint: "Give the path of one of its items." })
        return answer(`Clicked tray item ${result.clicked.label}.`, { clicked: result.clicked.label, trays: live })
      }
      if (live.length === 0) return answer(NOT_SEEN, { trays: [] })
      return answer(menus.join("\n"), { trays: live })
    })
})

/** Runs in the main process: the recorded notifications; with `click`, emits click on that one. */
type Shown = { id: number; at: number; title: string; body: string; subtitle: string }
const notificationCommand = (_electron: unknown, command: { click: number | null }): { installed: boolean; notifications: Array<Shown>; clicked: boolean } => {
  const state = (globalThis as MainValue).__stagewright_native
  if (!state) return { installed: false, notifications: [], clicked: false }
  let clicked = false
  if (command.click !== null) {
    const entry = state.notifications.find((n: any) => n.id === command.click)
    if (entry) {
      const event = {
        defaultPrevented: false,
        preventDefault() {
          this.defaultPrevented = true
        }
      }
      entry.instance.emit("click", event)
      clicked = true
    }
  }
  const notifications = state.notifications.map((n: any) => ({
    id: n.id,
    at: n.at,
    title: String(n.instance.title ?? ""),
    body: String(n.instance.body ?? ""),
    subtitle: String(n.instance.subtitle ?? "")
  }))
  return { installed: true, notifications, clicked }
}

export const notifications = defineTool({
  name: "electron_native_notifications",
  description: "Notifications the app showed since launch (id, title, body, time); click one by id as a user would (its click handler runs).",
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "ELEMENT_NOT_FOUND"],
  input: Schema.Struct({ click: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.positive())).annotations({ description: "notification id" }) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const result = yield* call.evaluateMain("read the notifications", notificationCommand, { click: input.click ?? null })
      const lines = result.notifications.map(
        (n) => `#${n.id} ${new Date(n.at).toISOString()} "${n.title}"${n.subtitle ? ` (${n.subtitle})` : ""}${n.body ? `: ${n.body}` : ""}`
      )
      if (input.click !== undefined && !result.clicked) {
        return yield* new ElementNotFound({
          message: `No notification #${input.click}`,
          hint: lines.length > 0 ? `Shown:\n${lines.join("\n")}` : "The app has shown no notification since launch."
        })
      }
      const head = input.click !== undefined ? `Clicked notification #${input.click}.\n` : ""
      return answer(`${head}${lines.length > 0 ? lines.join("\n") : "No notifications shown since launch."}`, {
        notifications: result.notifications,
        ...(input.click !== undefined ? { clicked: input.click } : {})
      })
    })
})
