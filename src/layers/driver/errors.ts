/**
 * The driver's tagged errors: what driving an Electron app can end in. They are Schema classes because
 * they cross the MCP boundary (as `structuredContent`); each carries a stable code, a readable message and a
 * recovery hint naming the next tool or flag to use, its code and default hint read from its row of the error
 * registry (src/errors/registry.ts). `cause` keeps the original failure (a playwright-core error's full text)
 * for logs; it is never sent.
 */
import { Schema } from "effect"
import { errorFields } from "../../errors/fields.js"
import type { PendingDialog } from "./session-types.js"

export class AppNotRunning extends Schema.TaggedError<AppNotRunning>()("AppNotRunning", errorFields("AppNotRunning")) {}

export class LaunchFailed extends Schema.TaggedError<LaunchFailed>()("LaunchFailed", errorFields("LaunchFailed")) {}

export class WindowNotFound extends Schema.TaggedError<WindowNotFound>()("WindowNotFound", errorFields("WindowNotFound")) {}

export class RefStale extends Schema.TaggedError<RefStale>()("RefStale", errorFields("RefStale")) {}

export class ElementNotFound extends Schema.TaggedError<ElementNotFound>()("ElementNotFound", errorFields("ElementNotFound")) {}

export class AmbiguousLocator extends Schema.TaggedError<AmbiguousLocator>()("AmbiguousLocator", errorFields("AmbiguousLocator")) {}

export class NotInteractable extends Schema.TaggedError<NotInteractable>()("NotInteractable", errorFields("NotInteractable")) {}

export class Timeout extends Schema.TaggedError<Timeout>()("Timeout", errorFields("Timeout")) {}

export class InvalidArgument extends Schema.TaggedError<InvalidArgument>()("InvalidArgument", errorFields("InvalidArgument")) {}

export class AppCrashed extends Schema.TaggedError<AppCrashed>()("AppCrashed", errorFields("AppCrashed")) {}

export class NeedsMainProcess extends Schema.TaggedError<NeedsMainProcess>()("NeedsMainProcess", errorFields("NeedsMainProcess")) {}

export class OperationFailed extends Schema.TaggedError<OperationFailed>()("OperationFailed", errorFields("OperationFailed")) {}

/** A web dialog blocks the window's page: every call on it would hang until the dialog is answered. */
export class DialogOpen extends Schema.TaggedError<DialogOpen>()("DialogOpen", {
  ...errorFields("DialogOpen"),
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
    return new DialogOpen({
      message: dialog.message,
      hint: dialog.hint,
      window: dialog.window,
      dialog: dialog.dialog,
      dialogMessage: dialog.dialogMessage,
      ...hinted
    })
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
