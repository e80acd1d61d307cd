/**
 * The one room for modal states: what blocks or waits on a surface until it is answered. One list per
 * session, each state naming its surface:
 *
 * - web dialogs (alert, confirm, prompt, beforeunload): the page runs no script until answered;
 * - file choosers (an `<input type=file>` clicked; playwright-core intercepts the native picker);
 * - native dialogs the app asked the main process for (dialog.showMessageBox / showOpenDialog /
 *   showSaveDialog), held there while the agent decides (./main-modals.ts);
 * - a context menu the app popped up with `Menu.popup()`;
 * - a modal window (`new BrowserWindow({ parent, modal: true })`) while it is shown: its parent takes no input.
 *
 * The room gives every control of every open state a ref (`d1`, `d2`, …, never reused in a session) and
 * resolves those refs. Its checks on page calls (the web dialogs' gate and race) are in ./modal-gate.ts. Only web
 * dialogs block a page's script; a modal window blocks its parent's input (./Dialogs.ts `inputBlocked`); the
 * others wait beside it.
 */
import type { FileChooser } from "playwright-core"
import type { PendingDialog } from "./session-types.js"
import type { Surface } from "./surface.js"

/** A native dialog held in the main process (what ./main-modals.ts reports of it). */
export interface NativeHeld {
  readonly id: number
  readonly method: string
  readonly kind: "message" | "open" | "save"
  readonly title?: string
  readonly message?: string
  readonly detail?: string
  readonly buttons?: ReadonlyArray<string>
  readonly checkboxLabel?: string
  readonly checkboxChecked?: boolean
  readonly defaultId?: number
  readonly cancelId?: number
  readonly defaultPath?: string
  readonly buttonLabel?: string
  readonly properties?: ReadonlyArray<string>
  readonly webContentsId?: number
  /** When the hold ends and the dialog answers with its default (epoch ms). */
  readonly deadline: number
}

/** An item of a popped-up menu, flattened (`depth` its nesting, `positions` its path for the click). */
export interface PopupItem {
  readonly label: string
  readonly type: string
  readonly enabled: boolean
  readonly checked?: boolean
  readonly depth: number
  readonly positions: ReadonlyArray<number>
  readonly submenu: boolean
}

/** The open popped-up menu, as the main process reports it. */
export interface PopupFacts {
  readonly at: number
  readonly webContentsId?: number
  readonly items: ReadonlyArray<PopupItem>
}

/**
 * A window that takes no input (a user's clicks and keys do not reach it), by BrowserWindow id and its page's
 * webContents id: disabled by its shown modal child `by`, or by the app (`setEnabled(false)`, no `by`).
 */
export interface BlockedWindow {
  readonly window: number
  readonly contents?: number
  readonly by?: { readonly window: number; readonly title: string; readonly contents?: number }
}

/** What the main process reports in one read: its held dialogs, the open popup, and what it answered on its own since the last read. */
export interface NativeRead {
  readonly held: ReadonlyArray<NativeHeld>
  readonly popup: PopupFacts | null
  readonly told: ReadonlyArray<string>
  /** What the main process had seen at this read (dialog calls, IPC invokes, windows made): the mark a later action's answer waits from. */
  readonly marks?: { readonly dialogs: number; readonly invokes: number; readonly windows?: number }
  /** The windows that take no input now (none: absent). */
  readonly blocked?: ReadonlyArray<BlockedWindow>
  /** After an action: the pages (webContents ids) of the windows made since its mark and still open, and of those closed. */
  readonly made?: ReadonlyArray<number>
  readonly gone?: ReadonlyArray<number>
}

/** What a control does when the agent clicks it, fills it, or presses Enter/Escape on its state. */
export type ControlAction =
  | { readonly kind: "accept" }
  | { readonly kind: "dismiss" }
  | { readonly kind: "text" }
  | { readonly kind: "button"; readonly index: number }
  | { readonly kind: "checkbox" }
  | { readonly kind: "item"; readonly positions: ReadonlyArray<number>; readonly enabled: boolean; readonly submenu: boolean }
  | { readonly kind: "close" }

export interface ModalControl {
  readonly ref: string
  readonly role: "button" | "textbox" | "checkbox" | "menuitem"
  readonly name: string
  readonly depth?: number
  readonly does: ControlAction
}

export type ModalOrigin =
  | { readonly web: PendingDialog }
  | { readonly chooser: FileChooser; readonly multiple: boolean }
  | { readonly native: NativeHeld }
  | { readonly popup: PopupFacts }
  | { readonly window: BlockedWindow & { readonly by: NonNullable<BlockedWindow["by"]> } }

export type ModalKind = "alert" | "confirm" | "prompt" | "beforeunload" | "filechooser" | "message" | "open" | "save" | "menu" | "window"

/** One open modal state, with a ref for each of its controls. */
export interface ModalState {
  readonly kind: ModalKind
  /** The surface it belongs to (undefined: a native dialog or menu of no known window). */
  readonly surface: string | undefined
  readonly text: string
  readonly detail?: string
  readonly controls: ReadonlyArray<ModalControl>
  readonly origin: ModalOrigin
  /** What the agent filled into its text box so far (a prompt's answer, a path), and its checkbox. */
  typed?: string
  checked?: boolean
  /** A modal window's own page, the surface to act in (once registered), and whether it is the active surface. */
  page?: string
  pageActive?: boolean
}

/** Modal refs: `d` and a number, unlike page refs (`e12`, `f2e3`, `v1e5`) and menubar refs (`m3`). */
export const MODAL_REF = /^d\d+$/

const cut = (text: string | undefined, max = 300) => (text === undefined ? undefined : text.length > max ? `${text.slice(0, max - 1)}…` : text)

export class ModalRoom {
  #refSeq = 0
  readonly #dialogs: Array<PendingDialog> = []
  readonly #listeners = new Set<(dialog: PendingDialog) => void>()
  /** Called after every listener above: a call's own action has claimed its dialog by then. */
  readonly #lateListeners = new Set<(dialog: PendingDialog) => void>()
  readonly #nativeListeners = new Set<() => void>()
  readonly #choosers: Array<{ readonly surface: string; readonly chooser: FileChooser }> = []
  #native: NativeRead = { held: [], popup: null, told: [] }
  /** Whether the main process may have changed since the last read (it says so: ./main-modals.ts's MODALS_CHANGED). */
  #nativeStale = true
  #marks: NativeRead["marks"] = undefined
  readonly #told: Array<string> = []
  readonly #states = new Map<unknown, ModalState>()

  /** The web dialogs waiting for an answer, oldest first. */
  get pendingDialogs(): ReadonlyArray<PendingDialog> {
    return this.#dialogs
  }

  /** @internal driver only: a web dialog opened and no prepared answer took it. */
  dialogOpened(pending: PendingDialog): void {
    this.#dialogs.push(pending)
    for (const listener of this.#listeners) listener(pending)
    for (const listener of this.#lateListeners) listener(pending)
  }

  /** @internal driver only: the oldest pending dialog, removed (`alive` says whether its window is still open). */
  takeDialog(alive: (dialog: PendingDialog) => boolean, dropped: (dialog: PendingDialog) => void): PendingDialog | undefined {
    for (let dialog = this.#dialogs.shift(); dialog !== undefined; dialog = this.#dialogs.shift()) {
      if (alive(dialog)) return dialog
      dropped(dialog)
    }
    return undefined
  }

  /** @internal driver only: a state was answered: it leaves the room. */
  settled(state: ModalState): void {
    const origin = state.origin
    if ("web" in origin) this.#remove(this.#dialogs, origin.web)
    else if ("chooser" in origin)
      this.#remove(
        this.#choosers,
        this.#choosers.find((c) => c.chooser === origin.chooser)
      )
    else if ("native" in origin) this.#native = { ...this.#native, held: this.#native.held.filter((h) => h.id !== origin.native.id) }
    else if ("window" in origin) this.#native = { ...this.#native, blocked: this.#native.blocked?.filter((b) => b.by?.window !== origin.window.by.window) }
    else this.#native = { ...this.#native, popup: null }
    this.#states.delete(this.#keyOf(origin))
  }

  /** @internal driver only: a web dialog was answered (by the agent or with its window). */
  dialogAnswered(dialog: PendingDialog): void {
    this.#remove(this.#dialogs, dialog)
    this.#states.delete(dialog)
  }

  /**
   * @internal driver only: calls `listener` with each web dialog that opens from now on; returns the
   * unsubscribe. A `late` listener is called after every other one (the race's claim is settled by then).
   */
  onModal(listener: (dialog: PendingDialog) => void, late = false): () => void {
    const set = late ? this.#lateListeners : this.#listeners
    set.add(listener)
    return () => set.delete(listener)
  }

  /** @internal driver only: a page asked for files (playwright-core intercepted its picker). */
  chooserOpened(surface: string, chooser: FileChooser): void {
    this.#choosers.push({ surface, chooser })
  }

  /** @internal driver only: the main process said its held dialogs, popup or told answers changed. */
  nativeChanged(): void {
    this.#nativeStale = true
    for (const listener of this.#nativeListeners) listener()
  }

  /** Calls `listener` each time the main process says its held dialogs, popup or told answers changed; returns the unsubscribe. */
  onNativeChanged(listener: () => void): () => void {
    this.#nativeListeners.add(listener)
    return () => this.#nativeListeners.delete(listener)
  }

  /**
   * Whether an answer must read the main process: it said something changed since the last read, or a
   * dialog is held or a popup open (their state is read as it is each time). Otherwise the read is skipped.
   */
  get nativeReadNeeded(): boolean {
    return this.#nativeStale || this.#native.held.length > 0 || this.#native.popup !== null
  }

  /** @internal driver only: a read starts (a change said during it marks the room stale again). */
  nativeReading(): void {
    this.#nativeStale = false
  }

  /** @internal driver only: what the main process reported now (its held dialogs and popup replace the last read). */
  nativeRead(read: NativeRead): void {
    this.#native = read
    this.#told.push(...read.told)
    if (read.marks !== undefined) this.#marks = read.marks
  }

  /** @internal driver only: the marks of the main process's latest read (undefined before the first). */
  get marks(): NativeRead["marks"] {
    return this.#marks
  }

  /** What the main process answered on its own since this was last asked (a sync dialog by policy, a hold that timed out): told once. */
  takeTold(): ReadonlyArray<string> {
    return this.#told.splice(0, this.#told.length)
  }

  #remove<A>(list: Array<A>, item: A | undefined): void {
    const index = item === undefined ? -1 : list.indexOf(item)
    if (index >= 0) list.splice(index, 1)
  }

  #keyOf(origin: ModalOrigin): unknown {
    if ("window" in origin) return `window:${origin.window.by.window}`
    return "web" in origin ? origin.web : "chooser" in origin ? origin.chooser : "native" in origin ? `native:${origin.native.id}` : `popup:${origin.popup.at}`
  }

  #ref(): string {
    return `d${++this.#refSeq}`
  }

  /** The state of an origin, made (with fresh refs) the first time it is listed. */
  #state(origin: ModalOrigin, surface: string | undefined): ModalState {
    const key = this.#keyOf(origin)
    const known = this.#states.get(key)
    if (known !== undefined) return known
    const state = this.#make(origin, surface)
    this.#states.set(key, state)
    return state
  }

  #make(origin: ModalOrigin, surface: string | undefined): ModalState {
    const button = (name: string, does: ControlAction): ModalControl => ({ ref: this.#ref(), role: "button", name, does })
    const textbox = (name: string): ModalControl => ({ ref: this.#ref(), role: "textbox", name, does: { kind: "text" } })
    if ("web" in origin) {
      const d = origin.web
      const kind = (["alert", "confirm", "prompt", "beforeunload"].includes(d.type) ? d.type : "alert") as ModalKind
      const controls =
        kind === "alert"
          ? [button("OK", { kind: "accept" })]
          : kind === "beforeunload"
            ? [button("Leave", { kind: "accept" }), button("Stay", { kind: "dismiss" })]
            : kind === "prompt"
              ? [textbox("answer"), button("OK", { kind: "accept" }), button("Cancel", { kind: "dismiss" })]
              : [button("OK", { kind: "accept" }), button("Cancel", { kind: "dismiss" })]
      return { kind, surface, text: cut(d.message)!, controls, origin, ...(kind === "prompt" ? { typed: d.defaultValue } : {}) }
    }
    if ("chooser" in origin) {
      return {
        kind: "filechooser",
        surface,
        text: origin.multiple ? "choose files" : "choose a file",
        controls: [textbox("path"), button("Cancel", { kind: "dismiss" })],
        origin
      }
    }
    if ("native" in origin) {
      const n = origin.native
      const text = cut([n.title, n.message].filter(Boolean).join(": ") || n.method)!
      if (n.kind === "message") {
        const buttons = n.buttons !== undefined && n.buttons.length > 0 ? n.buttons : ["OK"]
        const controls = buttons.map((name, index) => button(name, { kind: "button", index }))
        if (n.checkboxLabel !== undefined) controls.push({ ref: this.#ref(), role: "checkbox", name: n.checkboxLabel, does: { kind: "checkbox" } })
        return {
          kind: "message",
          surface,
          text,
          ...(n.detail !== undefined ? { detail: cut(n.detail)! } : {}),
          controls,
          origin,
          checked: n.checkboxChecked === true
        }
      }
      const accept = n.buttonLabel ?? (n.kind === "open" ? "Open" : "Save")
      return {
        kind: n.kind,
        surface,
        text,
        controls: [textbox(n.kind === "open" ? "path" : "file name"), button(accept, { kind: "accept" }), button("Cancel", { kind: "dismiss" })],
        origin
      }
    }
    if ("window" in origin)
      return { kind: "window", surface, text: cut(origin.window.by.title) || "untitled", controls: [button("Close", { kind: "close" })], origin }
    const items = origin.popup.items.filter((item) => item.type !== "separator")
    const controls = items.map(
      (item): ModalControl => ({
        ref: this.#ref(),
        role: "menuitem",
        name: item.label,
        depth: item.depth,
        does: { kind: "item", positions: item.positions, enabled: item.enabled, submenu: item.submenu }
      })
    )
    return { kind: "menu", surface, text: "context menu", controls, origin }
  }

  /**
   * Every open modal state, web dialogs first (they block a page), then file choosers, native dialogs
   * and the popped-up menu; `surfaces` are the session's open surfaces (a state of a closed one is gone).
   */
  list(surfaces: ReadonlyArray<Surface>): ReadonlyArray<ModalState> {
    const open = (id: string) => surfaces.some((s) => s.id === id && !s.closed)
    const byContents = (id: number | undefined) => (id === undefined ? undefined : surfaces.find((s) => s.facts?.webContentsId === id && !s.closed)?.id)
    const states: Array<ModalState> = []
    for (const d of this.#dialogs) if (open(d.window)) states.push(this.#state({ web: d }, d.window))
    for (const c of this.#choosers) if (open(c.surface)) states.push(this.#state({ chooser: c.chooser, multiple: c.chooser.isMultiple() }, c.surface))
    for (const n of this.#native.held) states.push(this.#state({ native: n }, byContents(n.webContentsId)))
    const popup = this.#native.popup
    if (popup !== null && popup.items.length > 0) states.push(this.#state({ popup }, byContents(popup.webContentsId)))
    for (const blocked of this.#native.blocked ?? []) {
      const by = blocked.by
      if (by === undefined) continue
      const state = this.#state({ window: { ...blocked, by } }, byContents(blocked.contents))
      state.page = byContents(by.contents)
      states.push(state)
    }
    // A state no longer open (answered elsewhere, its window closed) leaves the cache.
    for (const [key, state] of this.#states) if (!states.includes(state)) this.#states.delete(key)
    return states
  }

  /** The window a BrowserWindow id names, if it takes no input now (as last read). */
  blockedWindow(window: number | undefined): BlockedWindow | undefined {
    return window === undefined ? undefined : this.#native.blocked?.find((b) => b.window === window)
  }

  /** The pages (webContents ids) of the windows the latest read after an action saw made, and closed, since its mark. */
  get made(): ReadonlyArray<number> {
    return this.#native.made ?? []
  }

  get gone(): ReadonlyArray<number> {
    return this.#native.gone ?? []
  }

  /** The page (webContents id) of the window a modal window's page disabled, as last read. */
  modalParentOf(contents: number | undefined): number | undefined {
    return contents === undefined ? undefined : this.#native.blocked?.find((b) => b.by?.contents === contents)?.contents
  }

  /** The open state and control a modal ref names, among the states last listed. */
  control(ref: string): { readonly state: ModalState; readonly control: ModalControl } | undefined {
    for (const state of this.#states.values()) {
      const control = state.controls.find((c) => c.ref === ref)
      if (control !== undefined) return { state, control }
    }
    return undefined
  }
}
