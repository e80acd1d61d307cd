/**
 * The shared error vocabulary of Stagewright's tools. Every failure an agent can see is one of these
 * tagged errors: a stable CODE, a readable message and a recovery hint that names the next tool or
 * flag to use. They are Schema classes because they cross the MCP boundary (as `structuredContent`).
 */
import { Schema } from "effect"

const Details = Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** The fields every tool error carries; `hint` defaults to the error's standard recovery advice. */
const fields = (defaultHint: string) => ({
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => defaultHint }),
  details: Details
})

export class AppNotRunning extends Schema.TaggedError<AppNotRunning>()(
  "AppNotRunning",
  fields("Start an app with electron_launch, or connect to a running one with electron_attach.")
) {}

export class LaunchFailed extends Schema.TaggedError<LaunchFailed>()(
  "LaunchFailed",
  fields("Check the app path and executablePath (stagewright doctor lists what is installed), then retry electron_launch.")
) {}

export class WindowNotFound extends Schema.TaggedError<WindowNotFound>()(
  "WindowNotFound",
  fields("List the windows with electron_windows, then pick one with electron_select_window.")
) {}

export class RefStale extends Schema.TaggedError<RefStale>()(
  "RefStale",
  fields("Refs belong to the latest electron_snapshot of a window: take a new snapshot and use its refs.")
) {}

export class ElementNotFound extends Schema.TaggedError<ElementNotFound>()(
  "ElementNotFound",
  fields("Check the target with electron_find or electron_snapshot; wait for late UI with electron_wait_for.")
) {}

export class AmbiguousLocator extends Schema.TaggedError<AmbiguousLocator>()(
  "AmbiguousLocator",
  fields("Narrow the target (a ref from electron_find or electron_snapshot, or a more specific selector).")
) {}

export class NotInteractable extends Schema.TaggedError<NotInteractable>()(
  "NotInteractable",
  fields("The element is hidden, disabled or covered: check it with electron_expect_state or wait with electron_wait_for.")
) {}

export class Timeout extends Schema.TaggedError<Timeout>()(
  "Timeout",
  fields("Retry, or pass a larger timeoutMs; electron_wait_for waits for a condition first.")
) {}

export class AssertionFailed extends Schema.TaggedError<AssertionFailed>()(
  "AssertionFailed",
  {
    ...fields("Look at the actual value; take electron_snapshot to see the current state."),
    expected: Schema.Unknown,
    actual: Schema.Unknown
  }
) {}

export class InvalidArgument extends Schema.TaggedError<InvalidArgument>()(
  "InvalidArgument",
  fields("Fix the argument named in the message; the tool's input schema gives the expected form.")
) {}

export class ToolExcludedByProfile extends Schema.TaggedError<ToolExcludedByProfile>()(
  "ToolExcludedByProfile",
  {
    ...fields("Restart the server with a profile that holds this tool."),
    tool: Schema.String,
    activeProfile: Schema.String,
    profiles: Schema.Array(Schema.String)
  }
) {}

export class EvalNotAuthorized extends Schema.TaggedError<EvalNotAuthorized>()(
  "EvalNotAuthorized",
  {
    ...fields("Restart the server with the --allow-eval flag for this target."),
    tool: Schema.String,
    target: Schema.String,
    flag: Schema.String
  }
) {}

export class PluginNotLoaded extends Schema.TaggedError<PluginNotLoaded>()(
  "PluginNotLoaded",
  { ...fields("Restart the server with --plugin NAME."), tool: Schema.String, plugin: Schema.String }
) {}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()(
  "UnknownTool",
  { ...fields("Call one of the tools from tools/list."), tool: Schema.String, suggestions: Schema.Array(Schema.String) }
) {}

export class AppCrashed extends Schema.TaggedError<AppCrashed>()(
  "AppCrashed",
  fields("The app exited or crashed; electron_status shows the last error. Start it again with electron_launch.")
) {}

export class PathNotAllowed extends Schema.TaggedError<PathNotAllowed>()(
  "PathNotAllowed",
  fields("Use a path inside the allowed folder.")
) {}

export class NeedsMainProcess extends Schema.TaggedError<NeedsMainProcess>()(
  "NeedsMainProcess",
  fields("This tool needs the Electron main process: launch with electron_launch, or attach with both cdpUrl and inspectorUrl (start the app with --inspect=PORT).")
) {}

export class OperationFailed extends Schema.TaggedError<OperationFailed>()(
  "OperationFailed",
  fields("Read the message; electron_status shows the app state.")
) {}

export class DialogOpen extends Schema.TaggedError<DialogOpen>()(
  "DialogOpen",
  {
    ...fields("Answer it with electron_web_dialog (accept or dismiss); the page is blocked until then."),
    window: Schema.String,
    dialog: Schema.String,
    dialogMessage: Schema.String
  }
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  fields("This is a Stagewright bug; the server keeps serving. Retry, or report it with the message.")
) {}

/** Every error a tool call can end in. */
export type ToolError =
  | AppNotRunning
  | LaunchFailed
  | WindowNotFound
  | RefStale
  | ElementNotFound
  | AmbiguousLocator
  | NotInteractable
  | Timeout
  | AssertionFailed
  | InvalidArgument
  | ToolExcludedByProfile
  | EvalNotAuthorized
  | PluginNotLoaded
  | UnknownTool
  | AppCrashed
  | PathNotAllowed
  | NeedsMainProcess
  | OperationFailed
  | DialogOpen
  | InternalError

/** The stable codes agents and saved prompts see, by error tag. */
export const ErrorCodes = {
  AppNotRunning: "APP_NOT_RUNNING",
  LaunchFailed: "LAUNCH_FAILED",
  WindowNotFound: "WINDOW_NOT_FOUND",
  RefStale: "REF_STALE",
  ElementNotFound: "ELEMENT_NOT_FOUND",
  AmbiguousLocator: "AMBIGUOUS_LOCATOR",
  NotInteractable: "NOT_INTERACTABLE",
  Timeout: "TIMEOUT",
  AssertionFailed: "ASSERTION_FAILED",
  InvalidArgument: "INVALID_ARGUMENT",
  ToolExcludedByProfile: "TOOL_NOT_IN_PROFILE",
  EvalNotAuthorized: "EVAL_NOT_AUTHORIZED",
  PluginNotLoaded: "PLUGIN_NOT_LOADED",
  UnknownTool: "UNKNOWN_TOOL",
  AppCrashed: "APP_CRASHED",
  PathNotAllowed: "PATH_NOT_ALLOWED",
  NeedsMainProcess: "NEEDS_MAIN_PROCESS",
  OperationFailed: "OPERATION_FAILED",
  DialogOpen: "DIALOG_OPEN",
  InternalError: "INTERNAL_ERROR"
} as const satisfies Record<ToolError["_tag"], string>

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes]

export const errorCode = (error: ToolError): ErrorCode => ErrorCodes[error._tag]

/** Errors worth retrying as they are (the condition may clear by itself). */
export const isRetryable = (error: ToolError): boolean =>
  error._tag === "Timeout" || error._tag === "NotInteractable"

/** The error codes every tool can return whatever it does (resolution, decoding, internal faults). */
export const COMMON_CODES: ReadonlyArray<ErrorCode> = ["INVALID_ARGUMENT", "TIMEOUT", "INTERNAL_ERROR"]
