/**
 * The driver's tagged errors: what driving an Electron app can end in. They are Schema classes because
 * they cross the MCP boundary (as `structuredContent`); each carries a stable code (see
 * tools/error-codes.ts), a readable message and a recovery hint naming the next tool or flag to use.
 * `cause` keeps the original failure (a playwright-core error's full text) for logs; it is never sent.
 */
import { Schema } from "effect"
import type { PendingDialog } from "./session-types.js"

const Details = Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** The fields every tool error carries; `hint` defaults to the error's standard recovery advice. */
export const errorFields = (defaultHint: string) => ({
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => defaultHint }),
  details: Details,
  cause: Schema.optional(Schema.Unknown)
})

export class AppNotRunning extends Schema.TaggedError<AppNotRunning>()(
  "AppNotRunning",
  errorFields("Start an app with electron_launch, or connect to a running one with electron_attach.")
) {}

export class LaunchFailed extends Schema.TaggedError<LaunchFailed>()(
  "LaunchFailed",
  errorFields("Check the app path and executablePath (stagewright doctor lists what is installed), then retry electron_launch.")
) {}

export class WindowNotFound extends Schema.TaggedError<WindowNotFound>()(
  "WindowNotFound",
  errorFields("List the windows with electron_windows, then pick one with electron_select_window.")
) {}

export class RefStale extends Schema.TaggedError<RefStale>()(
  "RefStale",
  errorFields("Refs belong to the latest electron_snapshot of a window: take a new snapshot and use its refs.")
) {}

export class ElementNotFound extends Schema.TaggedError<ElementNotFound>()(
  "ElementNotFound",
  errorFields("Check the target with electron_find or electron_snapshot; wait for late UI with electron_wait_for.")
) {}

export class AmbiguousLocator extends Schema.TaggedError<AmbiguousLocator>()(
  "AmbiguousLocator",
  errorFields("Narrow the target (a ref from electron_find or electron_snapshot, or a more specific selector).")
) {}

export class NotInteractable extends Schema.TaggedError<NotInteractable>()(
  "NotInteractable",
  errorFields("The element is hidden, disabled or covered: check it with electron_expect_state or wait with electron_wait_for.")
) {}

export class Timeout extends Schema.TaggedError<Timeout>()(
  "Timeout",
  errorFields("Retry, or pass a larger timeoutMs; electron_wait_for waits for a condition first.")
) {}

export class InvalidArgument extends Schema.TaggedError<InvalidArgument>()(
  "InvalidArgument",
  errorFields("Fix the argument named in the message; the tool's input schema gives the expected form.")
) {}

export class AppCrashed extends Schema.TaggedError<AppCrashed>()(
  "AppCrashed",
  errorFields("The app exited or crashed; electron_status shows the last error. Start it again with electron_launch.")
) {}

export class NeedsMainProcess extends Schema.TaggedError<NeedsMainProcess>()(
  "NeedsMainProcess",
  errorFields("This tool needs the Electron main process: launch with electron_launch, or attach with both cdpUrl and inspectorUrl (start the app with --inspect=PORT).")
) {}

export class OperationFailed extends Schema.TaggedError<OperationFailed>()(
  "OperationFailed",
  errorFields("Read the message; electron_status shows the app state.")
) {}

/** A web dialog blocks the window's page: every call on it would hang until the dialog is answered. */
export class DialogOpen extends Schema.TaggedError<DialogOpen>()("DialogOpen", {
  ...errorFields("Answer it with electron_web_dialog (accept or dismiss); the page is blocked until then."),
  window: Schema.String,
  dialog: Schema.String,
  dialogMessage: Schema.String
}) {}

/** Dialog messages are page text: shown bounded. */
export const boundDialogText = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/**
 * DIALOG_OPEN for a pending dialog: the one place its answer is written (the message and a prompt's
 * default shown bounded). Given a DIALOG_OPEN already made, it is the same answer with `hint` instead.
 * `hint` says how to answer the dialog in this server; without it the error's standard advice stands.
 */
export const dialogOpen = (dialog: Pick<PendingDialog, "window" | "type" | "message" | "defaultValue"> | DialogOpen, hint?: string): DialogOpen => {
  const hinted = hint === undefined ? {} : { hint }
  if (dialog instanceof DialogOpen) {
    return new DialogOpen({ message: dialog.message, hint: dialog.hint, window: dialog.window, dialog: dialog.dialog, dialogMessage: dialog.dialogMessage, ...hinted })
  }
  const shown = boundDialogText(dialog.message)
  const withDefault = dialog.type === "prompt" ? ` (default "${boundDialogText(dialog.defaultValue, 100)}")` : ""
  return new DialogOpen({
    message: `${/^[aeiou]/i.test(dialog.type) ? "An" : "A"} ${dialog.type} dialog is open in ${dialog.window}: "${shown}"${withDefault}; its page is blocked until it is answered`,
    window: dialog.window,
    dialog: dialog.type,
    dialogMessage: shown,
    ...hinted
  })
}

/** What a playwright-core call made through the driver can end in. */
export type PlaywrightError =
  | AppCrashed
  | WindowNotFound
  | AmbiguousLocator
  | RefStale
  | NotInteractable
  | ElementNotFound
  | Timeout
  | InvalidArgument
  | OperationFailed

/** Every error a driver operation can raise. */
export type DriverError = PlaywrightError | AppNotRunning | LaunchFailed | NeedsMainProcess | DialogOpen
