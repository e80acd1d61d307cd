/**
 * Web dialogs (alert, confirm, prompt, beforeunload) as every tool sees them. A page with an open
 * dialog runs no script: the driver's `window()` refuses it at once with DIALOG_OPEN, and this module
 * says how to answer (its rows' refs, ./modal-rows.ts, and electron_web_dialog when the profile holds it),
 * lists what is pending for electron_status, and fails a call that a dialog interrupts half way.
 */
import { Effect } from "effect"
import type { AppSession, ModalState, PendingDialog, Surface } from "../../layers/driver/ElectronDriver.js"
import { titleOf } from "../../layers/driver/ElectronDriver.js"
import { boundDialogText } from "../../layers/driver/errors.js"
import { ProfileSelector } from "../../profile/ProfileSelector.js"
import { modalFacts, modalRowsText } from "./modal-rows.js"
import type { ToolResult } from "../contract/Tool.js"
import { answer } from "../contract/respond.js"

/** The dialogs still waiting for an answer, in windows that are still open. */
export const openDialogs = (session: AppSession): ReadonlyArray<PendingDialog> =>
  session.pendingDialogs.filter((d) => session.windows.some((w) => w.id === d.window && !w.page.isClosed()))

/**
 * How to answer a web dialog in this server: its rows' refs always (electron_click, electron_fill,
 * electron_press_key), and electron_web_dialog when the profile holds it.
 */
export const answerAdvice: Effect.Effect<string, never, ProfileSelector> = Effect.flatMap(ProfileSelector, (profile) =>
  profile.check("electron_web_dialog").pipe(
    Effect.as("Answer it with electron_web_dialog (accept or dismiss), or electron_click its button's ref; the page is blocked until then."),
    Effect.catchAll(() =>
      Effect.succeed(
        "electron_snapshot shows it first with a ref per button: electron_click one (electron_fill a prompt's text box first), or electron_press_key Enter/Escape; the page is blocked until then."
      )
    )
  )
)

export const describeDialog = (dialog: PendingDialog) =>
  `${dialog.type} "${boundDialogText(dialog.message)}"${dialog.type === "prompt" ? ` (default "${boundDialogText(dialog.defaultValue, 100)}")` : ""} in ${dialog.window}`

/** The structured form of a pending dialog. */
export const dialogFields = (dialog: PendingDialog) => ({
  window: dialog.window,
  type: dialog.type,
  message: boundDialogText(dialog.message),
  ...(dialog.type === "prompt" ? { defaultValue: boundDialogText(dialog.defaultValue, 100) } : {})
})

/** The result of an action that opened a web dialog: the open modal states' rows (the dialog's refs), and how to answer it in this server. */
export const dialogResult = (
  dialog: PendingDialog,
  open: { readonly states: ReadonlyArray<ModalState>; readonly told: ReadonlyArray<string> } = { states: [], told: [] }
): Effect.Effect<ToolResult, never, ProfileSelector> =>
  Effect.map(answerAdvice, (advice) =>
    answer(
      `The action opened a ${describeDialog(dialog)}. ${advice}${open.states.length > 0 || open.told.length > 0 ? `\n${modalRowsText(open.states, open.told)}` : ""}`,
      { dialog: dialogFields(dialog), ...(open.states.length > 0 ? { modals: modalFacts(open.states) } : {}) }
    )
  )

/** A window's title, or a marker when a dialog blocks its page (reading the title would hang). */
export const titleOrDialog = (session: AppSession, entry: Surface): Effect.Effect<string> => {
  const pending = session.pendingDialogs.find((d) => d.window === entry.id)
  return pending ? Effect.succeed(`(${pending.type} dialog open)`) : titleOf(entry.page)
}
