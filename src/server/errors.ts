/**
 * The server's own errors (a name that resolves to no tool, a tool of a plugin that is not loaded, a
 * defect) and `ServerError` (with an observer's CallRefused), the whole vocabulary a tools/call can answer with.
 */
import { Schema } from "effect"
import { errorFields } from "../errors/fields.js"
import type { CallRefused } from "../plugins/observer.js"
import type { ToolExcludedByProfile } from "../profile/ProfileSelector.js"
import type { ToolError } from "../tools/errors.js"

export class PluginNotLoaded extends Schema.TaggedError<PluginNotLoaded>()("PluginNotLoaded", {
  ...errorFields("PluginNotLoaded"),
  tool: Schema.String,
  plugin: Schema.String
}) {}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  ...errorFields("UnknownTool"),
  tool: Schema.String,
  suggestions: Schema.Array(Schema.String)
}) {}

export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", errorFields("InternalError")) {}

/** Everything a tools/call can end in. */
export type ServerError = ToolError | ToolExcludedByProfile | PluginNotLoaded | UnknownTool | InternalError | CallRefused
