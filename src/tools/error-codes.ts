/**
 * The stable error codes agents and saved prompts see, by error tag: a leaf list (it imports nothing),
 * so a tool or a plugin can declare the codes it may return without importing any service.
 */
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
  CallRefused: "CALL_REFUSED",
  InternalError: "INTERNAL_ERROR"
} as const

export type ErrorTag = keyof typeof ErrorCodes
export type ErrorCode = (typeof ErrorCodes)[ErrorTag]

/** The error codes every tool can return whatever it does (resolution, decoding, internal faults). */
export const COMMON_CODES: ReadonlyArray<ErrorCode> = ["INVALID_ARGUMENT", "TIMEOUT", "INTERNAL_ERROR"]
