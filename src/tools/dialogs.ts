/**
 * Web dialogs (alert, confirm, prompt, beforeunload) as every tool sees them. A page with an open
 * dialog runs no script: the driver's `window()` refuses it at once with DIALOG_OPEN, and this module
 * says how to answer (electron_web_dialog when the active profile holds it, else the restart flag),
 * lists what is pending for electron_status, and fails a call that a dialog interrupts half way.
 */
import { Effect } from "effect"
import type { AppSession, PendingDialog, WindowEntry } from "../layers/driver/ElectronDriver.js"
import { titleOf } from "../layers/driver/ElectronDriver.js"
import { boundDialogText } from "../layers/driver/errors.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"

/** The dialogs still waiting for an answer, in windows that are still open. */
export const openDialogs = (session: AppSession): ReadonlyArray<PendingDialog> =>
  session.pendingDialogs.filter((d) => session.windows.some((w) => w.id === d.window && !w.page.isClosed()))

/** How to answer a web dialog in this server: the tool when the profile holds it, else the restart flag. */
export const answerAdvice: Effect.Effect<string, never, ProfileSelector> = Effect.flatMap(ProfileSelector, (profile) =>
  profile.check("electron_web_dialog").pipe(
    Effect.as("Answer it with electron_web_dialog (accept or dismiss); the page is blocked until then."),
    Effect.catchAll((excluded) =>
      Effect.succeed(
        `electron_web_dialog answers it but is not in the ${excluded.activeProfile} profile: ${excluded.hint}. Until then this window's page is blocked; electron_close ends the app.`
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

/** A window's title, or a marker when a dialog blocks its page (reading the title would hang). */
export const titleOrDialog = (session: AppSession, entry: WindowEntry): Effect.Effect<string> => {
  const pending = session.pendingDialogs.find((d) => d.window === entry.id)
  return pending ? Effect.succeed(`(${pending.type} dialog open)`) : titleOf(entry.page)
}
