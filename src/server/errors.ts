/**
 * The server's own errors (a name that resolves to no tool, a tool of a plugin that is not loaded, a
 * defect) and `ServerError` (with an observer's CallRefused), the whole vocabulary a tools/call can answer with.
 */
import { Schema } from "effect"
import { errorFields } from "../layers/driver/errors.js"
import type { CallRefused } from "../plugins/observer.js"
import type { ToolExcludedByProfile } from "../profile/ProfileSelector.js"
import type { ToolError } from "../tools/errors.js"

export class PluginNotLoaded extends Schema.TaggedError<PluginNotLoaded>()("PluginNotLoaded", {
  ...errorFields("Restart the server with --plugin NAME."),
  tool: Schema.String,
  plugin: Schema.String
}) {}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  ...errorFields("Call one of the tools from tools/list."),
  tool: Schema.String,
  suggestions: Schema.Array(Schema.String)
}) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "InternalError",
  errorFields("This is a Stagewright bug; the server keeps serving. Retry, or report it with the message.")
) {}

/** Everything a tools/call can end in. */
export type ServerError = ToolError | ToolExcludedByProfile | PluginNotLoaded | UnknownTool | InternalError | CallRefused
