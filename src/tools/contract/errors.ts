/**
 * What a tool can fail with: the driver's errors, the configuration's PathNotAllowed, the eval policy's
 * EvalNotAuthorized, and the assertion failure that belongs to the assert tools. Each error class sits
 * beside the service that raises it, its code, default hint and retryability in its row of the error registry
 * (src/errors/registry.ts); this module gathers the ones tools raise into `ToolError`.
 */
import { Schema } from "effect"
import type { EvalNotAuthorized } from "../../eval-policy/EvalPolicy.js"
import type { PathNotAllowed } from "../../layers/config/errors.js"
import { errorFields } from "../../errors/fields.js"
import type { DriverError } from "../../layers/driver/errors.js"

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
} from "../../layers/driver/errors.js"
export { PathNotAllowed } from "../../layers/config/errors.js"
export { EvalNotAuthorized } from "../../eval-policy/EvalPolicy.js"
export { COMMON_CODES, ErrorCodes, errorCode, isRetryable, type CodeOf, type ErrorCode, type ErrorTag } from "../../errors/registry.js"

export class AssertionFailed extends Schema.TaggedError<AssertionFailed>()("AssertionFailed", {
  ...errorFields("AssertionFailed"),
  expected: Schema.Unknown,
  actual: Schema.Unknown
}) {}

/** Every error a tool handler can end in. */
export type ToolError = DriverError | PathNotAllowed | EvalNotAuthorized | AssertionFailed
