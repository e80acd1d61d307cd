/**
 * Native dialogs held in the main process while the agent decides (code that runs there: each function
 * is serialized and must stay self-contained).
 *
 * `installHeldDialogs` wraps `dialog.showMessageBox`, `showOpenDialog` and `showSaveDialog` (and their Sync
 * forms) once per app process. An async call is held: its promise waits in `globalThis.__stagewrightModals`
 * until the agent answers it (`settleHeld`) or its hold ends (`holdMs`, then it answers with the dialog's
 * default: a message box's defaultId, an open/save dialog canceled) and says so. A Sync call cannot wait
 * (the main process would stop): it answers at once by policy (a message box's cancelId, an open/save
 * dialog canceled) and says so. No native dialog is shown. electron_dialog_stub replaces these functions
 * while it is installed (its rules answer first) and puts them back on restore.
 *
 * Each change of what `readHeld` reports (a dialog held or answered, a hold ended, an answer told) is
 * pushed: a MODALS_CHANGED message on the inspector's console only (`node:inspector`'s console, not the
 * app's stdout), which the driver takes off the main process's console (./main-console.ts). So an answer
 * reads the main process only when something changed or is held (./modal-room.ts), not on every call.
 *
 * It also follows the IPC invokes in flight (the handlers of `ipcMain.handle` and `webContents.ipc.handle`,
 * looked up in their `_invokeHandlers` as Electron's own dispatch does), so that the answer of an action can
 * wait, by event, until the invokes it started have settled or opened a dialog (`readHeld` with a mark):
 * a dialog the main process opens over IPC after work of its own is in the answer of the click that asked.
 *
 * And the windows that take no input (`blocked`): a window a shown modal child disables (Electron disables the
 * parent of a `modal: true` window while it is shown), or one the app disabled (`setEnabled(false)`). Their
 * changes are pushed too, and an action's answer waits (by event, within the same bound) for a modal window it
 * made to be shown, so the click that opened one answers with it.
 */
import type { ElectronModule, MainValue } from "./shape.js"
import type { NativeRead } from "./modal-room.js"

/** What the main process says on the inspector's console when its held dialogs, popup or told answers changed. */
export const MODALS_CHANGED = "stagewright:modals-changed"

/** How long a held native dialog waits for the agent before it answers with its default. */
export const HOLD_MS = 120_000

/** The most an action's answer waits for the IPC invokes the action started (each settles or opens a dialog first, usually). */
export const QUIET_MS = 1_000

/** What the main process had seen at a read: its dialog calls, IPC invokes and modal windows made so far (an action's mark). */
export interface NativeMarks {
  readonly dialogs: number
  readonly invokes: number
  readonly windows?: number
}

export const installHeldDialogs = (electron: ElectronModule, holdMs: number): void => {
  const g = globalThis as MainValue
  if (g.__stagewrightModals) return
  // Serialized alone: the signal is spelled out here as in main-hooks.ts (MODALS_CHANGED; inspector.console writes no stdout).
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
      // only a hint: anything held is read on every answer anyway
    }
  }
  const state = (g.__stagewrightModals = {
    seq: 0,
    held: [] as Array<MainValue>,
    told: [] as Array<string>,
    holdMs,
    changed,
    invokeSeq: 0,
    inflight: new Set<number>(),
    waiters: new Set<() => void>(),
    windowSeq: 0,
    unshownModals: new Map<MainValue, number>(),
    gone: [] as Array<{ seq: number; contents: number }>
  })
  const notify = () => {
    for (const waiter of [...state.waiters]) waiter()
  }
  // Windows that take no input: a shown modal child disables its parent, and the app may disable a window itself
  // (setEnabled). Each change is said; a modal window made and not yet shown is waited for by an action's answer.
  const watchWindow = (win: MainValue) => {
    if (!win || win.__stagewrightWatched || typeof win.on !== "function") return
    win.__stagewrightWatched = true
    const seq = ++state.windowSeq
    win.__stagewrightSeq = seq
    const contents = win.webContents?.id
    const modal = () => win.isModal?.() === true
    if (modal() && win.isVisible?.() !== true) state.unshownModals.set(win, seq)
    // A closed window's methods throw (its object is destroyed): only what was read before is used then.
    const moved = (closed: boolean) => () => {
      state.unshownModals.delete(win)
      if (closed && contents !== undefined) {
        state.gone.push({ seq: ++state.windowSeq, contents })
        if (state.gone.length > 20) state.gone.shift()
      }
      let tell = closed
      try {
        tell = tell || modal() || win.getChildWindows?.().length > 0
      } catch {
        tell = true
      }
      if (tell) changed()
      notify()
    }
    win.on("show", moved(false))
    win.on("hide", moved(false))
    win.on("closed", moved(true))
    const setEnabled = win.setEnabled
    if (typeof setEnabled === "function") {
      win.setEnabled = function (this: unknown, ...args: Array<MainValue>) {
        const result = Reflect.apply(setEnabled, this, args)
        changed()
        return result
      }
    }
  }
  for (const win of electron.BrowserWindow?.getAllWindows?.() ?? []) watchWindow(win)
  electron.app?.on?.("browser-window-created", (_event: unknown, win: MainValue) => watchWindow(win))
  // An invoke handler returning a promise is in flight until it settles; the handler itself runs unchanged.
  const follow = (target: MainValue) => {
    const handlers = target?._invokeHandlers
    if (!(handlers instanceof Map) || (handlers as MainValue).__stagewrightFollowed) return
    ;(handlers as MainValue).__stagewrightFollowed = true
    const get = handlers.get
    handlers.get = function (this: Map<unknown, unknown>, channel: unknown) {
      const handler = get.call(this, channel)
      if (typeof handler !== "function") return handler
      return function (this: unknown, ...args: Array<MainValue>) {
        const result: MainValue = Reflect.apply(handler, this, args)
        if (result && typeof result.then === "function") {
          const id = ++state.invokeSeq
          state.inflight.add(id)
          const done = () => {
            state.inflight.delete(id)
            notify()
          }
          result.then(done, done)
        }
        return result
      }
    }
  }
  follow(electron.ipcMain)
  for (const wc of electron.webContents?.getAllWebContents?.() ?? []) follow((wc as MainValue).ipc)
  electron.app?.on?.("web-contents-created", (_event: unknown, wc: MainValue) => follow(wc?.ipc))
  // What the app writes to the clipboard is told once, with the next answer (the agent never reads the host's
  // clipboard: only what this app put there, bounded).
  const board = electron.clipboard as unknown as Record<string, MainValue> | undefined
  const copied = (text: unknown) => {
    if (typeof text !== "string" || g.__stagewrightOwnCopy === true) return
    const shown = text.length > 200 ? `${JSON.stringify(text.slice(0, 199))}… (${text.length} characters)` : JSON.stringify(text)
    state.told.push(`clipboard: the app copied ${shown}`)
    if (state.told.length > 20) state.told.shift()
    changed()
  }
  if (board && typeof board.writeText === "function") {
    const writeText = board.writeText
    board.writeText = function (this: unknown, text: unknown, ...rest: Array<MainValue>) {
      const result = Reflect.apply(writeText, this, [text, ...rest])
      copied(text)
      return result
    }
  }
  if (board && typeof board.write === "function") {
    const write = board.write
    board.write = function (this: unknown, data: MainValue, ...rest: Array<MainValue>) {
      const result = Reflect.apply(write, this, [data, ...rest])
      copied(data?.text)
      return result
    }
  }
  const table = electron.dialog as unknown as Record<string, MainValue>
  const names = ["showMessageBox", "showMessageBoxSync", "showOpenDialog", "showOpenDialogSync", "showSaveDialog", "showSaveDialogSync"]
  const cut = (v: MainValue, max = 300) => (typeof v === "string" ? (v.length > max ? `${v.slice(0, max - 1)}…` : v) : undefined)
  for (const name of names) {
    if (typeof table[name] !== "function") continue
    const sync = name.endsWith("Sync")
    const kind = name.includes("Open") ? "open" : name.includes("Save") ? "save" : "message"
    table[name] = (...args: Array<MainValue>) => {
      // (window, options) or (options): a BrowserWindow has webContents.
      const win = args.length > 1 || (args[0] && args[0].webContents) ? args[0] : null
      const options = (win ? args[1] : args[0]) ?? {}
      const buttons = Array.isArray(options.buttons) ? options.buttons.slice(0, 20).map((b: MainValue) => cut(String(b), 100)) : undefined
      const facts: Record<string, MainValue> = {
        id: ++state.seq,
        method: name,
        kind,
        title: cut(options.title),
        message: cut(options.message),
        detail: cut(options.detail),
        buttons,
        checkboxLabel: cut(options.checkboxLabel),
        checkboxChecked: options.checkboxChecked === true ? true : undefined,
        defaultId: typeof options.defaultId === "number" ? options.defaultId : undefined,
        cancelId: typeof options.cancelId === "number" ? options.cancelId : undefined,
        defaultPath: cut(options.defaultPath, 1_000),
        buttonLabel: cut(options.buttonLabel, 100),
        properties: Array.isArray(options.properties) ? options.properties.slice(0, 20).map(String) : undefined,
        webContentsId: win && win.webContents ? win.webContents.id : undefined
      }
      for (const key of Object.keys(facts)) if (facts[key] === undefined) delete facts[key]
      const label = `${name}${facts.title ? ` "${facts.title}"` : facts.message ? ` "${facts.message}"` : ""}`
      const cancelIndex =
        typeof facts.cancelId === "number"
          ? facts.cancelId
          : Math.max(
              0,
              (buttons ?? []).findIndex((b: string) => /^(cancel|no)$/i.test(b ?? ""))
            )
      // The answer in the form the method returns: response (a message box), paths (open), path (save).
      const shape = (answer: { response?: number; checkboxChecked?: boolean; filePaths?: Array<string>; filePath?: string; canceled?: boolean }) => {
        if (kind === "message")
          return sync ? (answer.response ?? 0) : { response: answer.response ?? 0, checkboxChecked: answer.checkboxChecked ?? facts.checkboxChecked === true }
        const canceled = answer.canceled === true
        if (kind === "open") return sync ? (canceled ? undefined : (answer.filePaths ?? [])) : { canceled, filePaths: canceled ? [] : (answer.filePaths ?? []) }
        return sync ? (canceled ? "" : (answer.filePath ?? "")) : { canceled, filePath: canceled ? "" : (answer.filePath ?? "") }
      }
      if (sync) {
        state.told.push(
          `native dialog: ${label} answered at once by policy (${kind === "message" ? `response ${cancelIndex}` : "canceled"}): a Sync dialog cannot wait for the agent`
        )
        if (state.told.length > 20) state.told.shift()
        changed()
        notify()
        return shape(kind === "message" ? { response: cancelIndex } : { canceled: true })
      }
      return new Promise((resolve) => {
        const entry: MainValue = { facts: { ...facts, deadline: Date.now() + state.holdMs } }
        const settle = (answer: MainValue) => {
          clearTimeout(entry.timer)
          state.held = state.held.filter((h: MainValue) => h !== entry)
          changed()
          resolve(shape(answer))
        }
        entry.settle = settle
        entry.timer = setTimeout(() => {
          const fallback = kind === "message" ? { response: typeof facts.defaultId === "number" ? facts.defaultId : 0 } : { canceled: true }
          state.told.push(
            `native dialog: ${label} waited ${Math.round(state.holdMs / 1000)} s for an answer and answered with its default (${kind === "message" ? `response ${fallback.response}` : "canceled"})`
          )
          settle(fallback)
        }, state.holdMs)
        state.held.push(entry)
        changed()
        notify()
      })
    }
  }
}

/**
 * Runs in the main process: the held dialogs, the open popped-up menu (flattened) and what was answered
 * without the agent since the last read, with the marks of this read. Given the marks of an earlier read
 * (taken before an action), it first waits until the IPC invokes started since then have settled or a
 * dialog was asked for since then, at most `ms` (the answer of the action reads what its IPC opened).
 */
export function readHeld(electron: ElectronModule): NativeRead
export function readHeld(electron: ElectronModule, after: { readonly marks: NativeMarks; readonly ms: number } | undefined): NativeRead | Promise<NativeRead>
export function readHeld(_electron: ElectronModule, after?: { readonly marks: NativeMarks; readonly ms: number }): NativeRead | Promise<NativeRead> {
  const g = globalThis as MainValue
  const state = g.__stagewrightModals
  // Quiet: a dialog was asked for since the mark, or no invoke started since then is in flight; and every modal window
  // made since then is shown (or gone).
  const quiet = () =>
    !state ||
    ((state.seq > after!.marks.dialogs || ![...state.inflight].some((id: number) => id > after!.marks.invokes)) &&
      ![...state.unshownModals.values()].some((seq: number) => seq > (after!.marks.windows ?? 0)))
  if (after === undefined || quiet()) return read()
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer)
      state.waiters.delete(check)
      resolve(read())
    }
    const check = () => {
      if (quiet()) finish()
    }
    const timer = setTimeout(finish, after.ms)
    state.waiters.add(check)
  })

  function read(): NativeRead {
    const held = state ? state.held.map((h: MainValue) => h.facts) : []
    const told = state ? state.told.splice(0, state.told.length) : []
    const popped = g.__stagewright?.popup
    let popup = null
    if (popped?.open && popped.menu) {
      const items: Array<MainValue> = []
      const walk = (menu: MainValue, depth: number, path: Array<number>) =>
        menu.items.forEach((item: MainValue, i: number) => {
          if (item.visible === false || items.length >= 100) return
          items.push({
            label: item.label || item.role || "",
            type: item.type,
            enabled: item.enabled !== false,
            depth,
            positions: [...path, i],
            submenu: !!item.submenu,
            ...(item.type === "checkbox" || item.type === "radio" ? { checked: item.checked === true } : {})
          })
          if (item.submenu) walk(item.submenu, depth + 1, [...path, i])
        })
      walk(popped.menu, 0, [])
      const win = popped.window && !popped.window.isDestroyed?.() ? popped.window : null
      popup = { at: popped.at, items, ...(win?.webContents ? { webContentsId: win.webContents.id } : {}) }
    }
    const blocked: Array<MainValue> = []
    const all = _electron.BrowserWindow?.getAllWindows?.() ?? []
    // The pages of the windows made, and of those closed, since the action's mark (the answer waits until the session
    // has registered them, or seen them close).
    const made =
      after === undefined
        ? []
        : all
            .filter((w: MainValue) => !w.isDestroyed?.() && (w.__stagewrightSeq ?? 0) > (after.marks.windows ?? Infinity) && w.webContents)
            .map((w) => w.webContents.id)
    for (const win of all) {
      if (win.isDestroyed?.()) continue
      const by = (win.getChildWindows?.() ?? []).find((c: MainValue) => !c.isDestroyed?.() && c.isModal?.() === true && c.isVisible?.() === true)
      if (by === undefined && win.isEnabled?.() !== false) continue
      const title = by === undefined ? "" : String(by.getTitle?.() ?? "")
      blocked.push({
        window: win.id,
        ...(win.webContents ? { contents: win.webContents.id } : {}),
        ...(by === undefined
          ? {}
          : {
              by: { window: by.id, title: title.length > 200 ? `${title.slice(0, 199)}…` : title, ...(by.webContents ? { contents: by.webContents.id } : {}) }
            })
      })
    }
    const marks = { dialogs: state?.seq ?? 0, invokes: state?.invokeSeq ?? 0, windows: state?.windowSeq ?? 0 }
    const gone =
      after === undefined || !state ? [] : state.gone.filter((g: MainValue) => g.seq > (after.marks.windows ?? Infinity)).map((g: MainValue) => g.contents)
    return { held, popup, told, marks, ...(blocked.length > 0 ? { blocked } : {}), ...(made.length > 0 ? { made } : {}), ...(gone.length > 0 ? { gone } : {}) }
  }
}

/** Runs in the main process: answers a held dialog (false when it is no longer held: answered or timed out). */
export const settleHeld = (_electron: ElectronModule, command: { id: number; answer: MainValue }): boolean => {
  const state = (globalThis as MainValue).__stagewrightModals
  const entry = state?.held.find((h: MainValue) => h.facts.id === command.id)
  if (!entry) return false
  entry.settle(command.answer)
  return true
}

/** Runs in the main process: closes the popped-up menu (Escape on it), as Chromium's menu runner does. */
export const closePopup = (_electron: ElectronModule): boolean => {
  const popped = (globalThis as MainValue).__stagewright?.popup
  if (!popped?.open) return false
  popped.menu.closePopup?.(popped.window ?? undefined)
  popped.open = false
  return true
}

/**
 * Runs in the main process: closes a window as its title bar's close button does (its `close` handlers and its
 * page's beforeunload may keep it); resolves whether it closed within `ms`.
 */
export const closeWindowById = (electron: ElectronModule, command: { id: number; ms: number }): boolean | Promise<boolean> => {
  const win = electron.BrowserWindow.fromId(command.id)
  if (!win || win.isDestroyed()) return true
  return new Promise((resolve) => {
    const closed = () => {
      clearTimeout(timer)
      resolve(true)
    }
    const timer = setTimeout(() => {
      win.removeListener("closed", closed)
      resolve(false)
    }, command.ms)
    win.once("closed", closed)
    win.close()
  })
}
