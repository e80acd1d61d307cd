/**
 * What a tool can fail with: the driver's errors, the configuration's PathNotAllowed, the eval policy's
 * EvalNotAuthorized, and the assertion failure that belongs to the assert tools. Each error class sits
 * beside the service that raises it; this module gathers the ones tools raise into `ToolError`.
 */
import { Schema } from "effect"
import type { EvalNotAuthorized } from "../eval-policy/EvalPolicy.js"
import type { PathNotAllowed } from "../layers/config/errors.js"
import { errorFields, type DriverError } from "../layers/driver/errors.js"
import { ErrorCodes, type ErrorCode, type ErrorTag } from "./error-codes.js"

export {
  AmbiguousLocator,
  AppCrashed,
  AppNotRunning,
  DialogOpen,
  dialogOpen,
  ElementNotFound,
  InvalidArgument,
  LaunchFailed,
  NeedsMainProcess,
  NotInteractable,
  OperationFailed,
  RefStale,
  Timeout,
  WindowNotFound,
  type DriverError,
  type PlaywrightError
} from "../layers/driver/errors.js"
export { PathNotAllowed } from "../layers/config/errors.js"
export { EvalNotAuthorized } from "../eval-policy/EvalPolicy.js"
export { COMMON_CODES, ErrorCodes, type ErrorCode, type ErrorTag } from "./error-codes.js"

export class AssertionFailed extends Schema.TaggedError<AssertionFailed>()("AssertionFailed", {
  ...errorFields("Look at the actual value; take electron_snapshot to see the current state."),
  expected: Schema.Unknown,
  actual: Schema.Unknown
}) {}

/** Every error a tool handler can end in. */
export type ToolError = DriverError | PathNotAllowed | EvalNotAuthorized | AssertionFailed

/** The stable code of any tagged error of the vocabulary. */
export const errorCode = (error: { readonly _tag: ErrorTag }): ErrorCode => ErrorCodes[error._tag]

/**
 * Errors worth retrying as they are (the condition may clear by itself); an error whose details say
 * `retryable: false` is not (a read-only editor, an element that refuses drops).
 */
export const isRetryable = (error: { readonly _tag: string; readonly details?: Readonly<Record<string, unknown>> | undefined }): boolean =>
  (error._tag === "Timeout" || error._tag === "NotInteractable") && error.details?.["retryable"] !== false
