/**
 * The error vocabulary, one row per code: its stable code (what agents and saved prompts see), whether it
 * is worth retrying as it is, its default hint (the recovery advice an error carries unless it names a
 * better one) and the stages of a tools/call that may raise it. Everything else derives from these rows:
 * the error classes' tags and default hints (`errorFields`, ./fields.ts), the agent-facing text and its
 * `retryable` (src/server/results.ts), the codes every tool's manifest entry lists beyond its own
 * (src/tools/pipeline/manifest.ts), the codes a plugin may declare (src/plugins/Plugin.ts) and the type that holds a
 * tool's declared list to what its handler can raise (src/tools/contract/Tool.ts). A leaf: it imports nothing.
 */

/**
 * Where in a tools/call an error can come from (src/server/Dispatcher.ts, src/tools/pipeline/guard.ts):
 * - `dispatch`: before the tool runs (the name resolved, the profile and plugins checked, observers asked);
 * - `call`: any call (its arguments decoded, its deadline, a defect);
 * - `files`: a tool with file arguments has them confined to --app-root before its handler runs;
 * - `eval`: a tool that runs caller-supplied code (`evalTarget`) is authorized before it runs;
 * - `page`: a page-touching tool (a web dialog that blocks it, what any playwright-core failure maps to);
 * - `handler`: the tool's own handler (which ones, its type says: `Tool.ts` `defineTool`).
 */
export type Stage = "dispatch" | "call" | "eval" | "files" | "page" | "handler"

export interface ErrorRow {
  readonly code: string
  readonly retryable: boolean
  readonly hint: string
  readonly stages: ReadonlyArray<Stage>
}

export const ERROR_ROWS = {
  AppNotRunning: {
    code: "APP_NOT_RUNNING",
    retryable: false,
    hint: "Start an app with electron_launch, or connect to a running one with electron_attach.",
    stages: ["handler"]
  },
  LaunchFailed: {
    code: "LAUNCH_FAILED",
    retryable: false,
    hint: "Check the app path and executablePath (stagewright doctor lists what is installed), then retry electron_launch.",
    stages: ["handler"]
  },
  WindowNotFound: {
    code: "WINDOW_NOT_FOUND",
    retryable: false,
    hint: "List the windows with electron_windows, then pick one with electron_select_window.",
    stages: ["page", "handler"]
  },
  RefStale: {
    code: "REF_STALE",
    retryable: false,
    hint: "Refs belong to the latest electron_snapshot of a window: take a new snapshot and use its refs.",
    stages: ["handler"]
  },
  ElementNotFound: {
    code: "ELEMENT_NOT_FOUND",
    retryable: false,
    hint: "Check the target with electron_find or electron_snapshot; wait for late UI with electron_wait_for.",
    stages: ["handler"]
  },
  AmbiguousLocator: {
    code: "AMBIGUOUS_LOCATOR",
    retryable: false,
    hint: "Narrow the target (a ref from electron_find or electron_snapshot, or a more specific selector).",
    stages: ["handler"]
  },
  NotInteractable: {
    code: "NOT_INTERACTABLE",
    retryable: true,
    hint: "The element is hidden, disabled or covered: check it with electron_expect_state or wait with electron_wait_for.",
    stages: ["handler"]
  },
  Timeout: {
    code: "TIMEOUT",
    retryable: true,
    hint: "Retry, or pass a larger timeoutMs; electron_wait_for waits for a condition first.",
    stages: ["call", "handler"]
  },
  AssertionFailed: {
    code: "ASSERTION_FAILED",
    retryable: false,
    hint: "Look at the actual value; take electron_snapshot to see the current state.",
    stages: ["handler"]
  },
  InvalidArgument: {
    code: "INVALID_ARGUMENT",
    retryable: false,
    hint: "Fix the argument named in the message; the tool's input schema gives the expected form.",
    stages: ["call", "handler"]
  },
  ToolExcludedByProfile: {
    code: "TOOL_NOT_IN_PROFILE",
    retryable: false,
    hint: "Restart the server with a profile that holds this tool.",
    stages: ["dispatch"]
  },
  EvalNotAuthorized: {
    code: "EVAL_NOT_AUTHORIZED",
    retryable: false,
    hint: "Restart the server with the --allow-eval flag for this target.",
    stages: ["eval", "handler"]
  },
  PluginNotLoaded: { code: "PLUGIN_NOT_LOADED", retryable: false, hint: "Restart the server with --plugin NAME.", stages: ["dispatch"] },
  UnknownTool: { code: "UNKNOWN_TOOL", retryable: false, hint: "Call one of the tools from tools/list.", stages: ["dispatch"] },
  AppCrashed: {
    code: "APP_CRASHED",
    retryable: false,
    hint: "The app exited or crashed; electron_status shows the last error. Start it again with electron_launch.",
    stages: ["page", "handler"]
  },
  PathNotAllowed: { code: "PATH_NOT_ALLOWED", retryable: false, hint: "Use a path inside the allowed folder.", stages: ["files", "handler"] },
  NeedsMainProcess: {
    code: "NEEDS_MAIN_PROCESS",
    retryable: false,
    hint: "This tool needs the Electron main process: launch with electron_launch, or attach with both cdpUrl and inspectorUrl (start the app with --inspect=PORT).",
    stages: ["handler"]
  },
  OperationFailed: {
    code: "OPERATION_FAILED",
    retryable: false,
    hint: "Read the message; electron_status shows the app state.",
    stages: ["page", "handler"]
  },
  DialogOpen: {
    code: "DIALOG_OPEN",
    retryable: false,
    hint: "Answer it with electron_web_dialog (accept or dismiss); the page is blocked until then.",
    stages: ["page", "handler"]
  },
  CallRefused: {
    code: "CALL_REFUSED",
    retryable: false,
    hint: "An observer loaded with --plugin refused this call; electron_plugins lists the loaded plugins.",
    stages: ["dispatch"]
  },
  InternalError: {
    code: "INTERNAL_ERROR",
    retryable: false,
    hint: "This is a Stagewright bug; the server keeps serving. Retry, or report it with the message.",
    stages: ["call"]
  }
} as const satisfies Readonly<Record<string, ErrorRow>>

type Rows = typeof ERROR_ROWS
export type ErrorTag = keyof Rows
export type ErrorCode = Rows[ErrorTag]["code"]
/** The code of an error tag (`CodeOf<"AppNotRunning">` is "APP_NOT_RUNNING"). */
export type CodeOfTag<T extends ErrorTag> = Rows[T]["code"]
/** The codes of the errors in a union (a handler's error channel): `CodeOf<AppNotRunning | RefStale>`. */
export type CodeOf<E> = E extends { readonly _tag: infer T extends ErrorTag } ? CodeOfTag<T> : never
/** The codes a stage may raise. */
export type CodeAt<S extends Stage> = { [T in ErrorTag]: S extends Rows[T]["stages"][number] ? Rows[T]["code"] : never }[ErrorTag]

const TAGS = Object.keys(ERROR_ROWS) as ReadonlyArray<ErrorTag>

/** Code by tag, as a plain map (the public API's `ErrorCodes`). */
export const ErrorCodes = Object.fromEntries(TAGS.map((tag) => [tag, ERROR_ROWS[tag].code])) as { readonly [T in ErrorTag]: Rows[T]["code"] }

/** Every code, in the registry's order. */
export const ALL_CODES: ReadonlyArray<ErrorCode> = TAGS.map((tag) => ERROR_ROWS[tag].code)

/** The codes the given stage may raise, sorted. */
export const codesAt = <S extends Stage>(stage: S): ReadonlyArray<CodeAt<S>> =>
  TAGS.filter((tag) => (ERROR_ROWS[tag].stages as ReadonlyArray<Stage>).includes(stage))
    .map((tag) => ERROR_ROWS[tag].code as CodeAt<S>)
    .sort()

/** The error codes every tool can return whatever it does (decoding, its deadline, internal faults). */
export const COMMON_CODES: ReadonlyArray<CodeAt<"call">> = codesAt("call")

/** The default hint of an error tag (what the error class says unless the error names a better one). */
export const defaultHint = (tag: ErrorTag): string => ERROR_ROWS[tag].hint

/** The stable code of any tagged error of the vocabulary. */
export const errorCode = (error: { readonly _tag: ErrorTag }): ErrorCode => ERROR_ROWS[error._tag].code

/**
 * Whether an error is worth retrying as it is (the condition may clear by itself): its row says so, unless
 * the error's details say `retryable: false` (a read-only editor, an element that refuses drops).
 */
export const isRetryable = (error: { readonly _tag: string; readonly details?: Readonly<Record<string, unknown>> | undefined }): boolean =>
  (ERROR_ROWS as Readonly<Record<string, ErrorRow>>)[error._tag]?.retryable === true && error.details?.["retryable"] !== false
