/**
 * Modal states as rows of the tree an agent reads: while one is open, the snapshot (and the answer of the
 * action that opened it) shows it first, with its text and a ref for each control, written the way the
 * aria snapshot writes elements (`- button "OK" [ref=d3]`), so electron_click, electron_fill and
 * electron_press_key answer it like any element. Nothing is added while none is open.
 */
import type { ModalState } from "../../layers/driver/ElectronDriver.js"
import { boundDialogText } from "../../layers/driver/errors.js"
import { NotInteractable } from "../contract/errors.js"

/** How a kind of modal state is named to the agent. */
export const KIND_NAME: Readonly<Record<ModalState["kind"], string>> = {
  alert: "alert",
  confirm: "confirm",
  prompt: "prompt",
  beforeunload: "leave page?",
  filechooser: "file chooser",
  message: "message box",
  open: "open dialog",
  save: "save dialog",
  menu: "context menu",
  window: "modal window"
}

const quoted = (text: string) => JSON.stringify(boundDialogText(text, 200))

/**
 * What holds the state: a web dialog blocks its page; a native dialog waits in the main process until its hold ends;
 * a modal window's parent takes no input while it is open (its own page is where the agent acts).
 */
const where = (state: ModalState, now: number): string => {
  const parts: Array<string> = []
  if (state.surface !== undefined) parts.push(`in ${state.surface}`)
  const origin = state.origin
  if ("web" in origin) parts.push("its page is blocked")
  if ("window" in origin) parts.push(`${state.surface ?? "its parent window"} takes no input until it closes`)
  if ("window" in origin && state.page !== undefined) parts.push(`its page is ${state.page}${state.pageActive === true ? ", the active window" : ""}`)
  if ("native" in origin) parts.push(`held: answers its default in ${Math.max(0, Math.round((origin.native.deadline - now) / 1000))} s`)
  if ("native" in origin && origin.native.kind === "save" && origin.native.defaultPath !== undefined) parts.push(`default ${origin.native.defaultPath}`)
  return parts.length > 0 ? ` (${parts.join("; ")})` : ""
}

/** The rows of one modal state. */
export const stateRows = (state: ModalState, now = Date.now()): Array<string> => {
  const role = state.kind === "menu" ? "menu" : "dialog"
  const lines = [`- ${role} ${quoted(`${KIND_NAME[state.kind]}: ${state.text}`)} [modal]${where(state, now)}:`]
  if (state.detail !== undefined) lines.push(`  - text: ${quoted(state.detail)}`)
  for (const control of state.controls) {
    const indent = "  ".repeat(1 + (control.depth ?? 0))
    const flags = control.does.kind === "item" ? `${control.does.enabled ? "" : " [disabled]"}${control.does.submenu ? " [submenu]" : ""}` : ""
    const value =
      control.role === "textbox" && state.typed !== undefined && state.typed !== ""
        ? `: ${quoted(state.typed)}`
        : control.role === "checkbox"
          ? `: ${state.checked === true ? "checked" : "unchecked"}`
          : ""
    lines.push(`${indent}- ${control.role} ${quoted(control.name)}${flags} [ref=${control.ref}]${value}`)
  }
  return lines
}

/** The hint under the rows, once. */
export const ROWS_HINT = "(answer with electron_click on a button or item, electron_fill on a text box, or electron_press_key Enter/Escape)"

/** The rows of every open state, their hint, and what the main process told once (a dialog it answered on its own, what the app copied); "" when there is nothing. */
export const modalRowsText = (states: ReadonlyArray<ModalState>, told: ReadonlyArray<string> = []): string => {
  const lines = [...told.map((t) => `(${t})`)]
  if (states.length > 0) lines.push(...states.flatMap((state) => stateRows(state)), ROWS_HINT)
  return lines.join("\n")
}

/** The structured form of the open states. */
export const modalFacts = (states: ReadonlyArray<ModalState>) =>
  states.map((state) => ({
    kind: state.kind,
    surface: state.surface ?? null,
    ...(state.page !== undefined ? { page: state.page } : {}),
    text: state.text,
    controls: state.controls.map((c) => ({ ref: c.ref, role: c.role, name: c.name }))
  }))

/** Whether a web dialog blocks the page of `surface` (its snapshot cannot be read until it is answered). */
export const blocksPage = (states: ReadonlyArray<ModalState>, page: string | undefined): boolean =>
  page !== undefined && states.some((state) => "web" in state.origin && state.surface === page)

/**
 * NOT_INTERACTABLE for input to a window that takes none: its modal window is open (`by`, where to act and how to
 * close it), or the app disabled it. `active`: the session's active surface.
 */
export const inputRefused = (blocked: { readonly window: string; readonly by: ModalState | undefined }, active: string | undefined): NotInteractable => {
  const by = blocked.by
  if (by === undefined) {
    return new NotInteractable({
      message: `${blocked.window} takes no input: the app disabled its window (setEnabled(false)), so a user's clicks and keys do not reach it`,
      hint: "Wait until the app enables it (electron_wait_for what enables it), or act in another window."
    })
  }
  const page = by.page
  const close = by.controls.find((c) => c.does.kind === "close")
  const where =
    page === undefined ? "in the modal window" : page === active ? `in ${page} (the active window)` : `in ${page} (electron_select_window window=${page})`
  return new NotInteractable({
    message: `${blocked.window} takes no input while its modal window ${quoted(by.text)}${page !== undefined ? ` (${page})` : ""} is open: a user cannot click or type in it until that closes`,
    hint: `Act ${where}${close !== undefined ? `, or close it: electron_click ${close.ref}` : ""}.`
  })
}
