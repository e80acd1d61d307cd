/**
 * The server's own errors (a name that resolves to no tool, a tool of a plugin that is not loaded, a
 * defect) and `ServerError` (with an observer's CallRefused), the whole vocabulary a tools/call can answer with.
 */
import { Cause, Schema } from "effect"
import { errorFields } from "../errors/fields.js"
import { Timeout } from "../layers/driver/errors.js"
import type { CallRefused } from "../plugins/observer.js"
import type { ToolExcludedByProfile } from "../profile/ProfileSelector.js"
import type { ToolError } from "../tools/contract/errors.js"

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

/** A call interrupted before it answered (the client cancelled it, or the server is closing): the one way it is told. */
export const cancelledCall = (tool: string): Timeout => new Timeout({ message: `${tool} was cancelled`, hint: "Call it again when needed." })

/** A call that ended in a defect (a bug): its first line; the whole cause goes to the log. */
export const unexpectedFailure = (tool: string, cause: Cause.Cause<unknown>): InternalError =>
  new InternalError({ message: `${tool} failed unexpectedly: ${Cause.pretty(cause).split("\n")[0]}` })

/** Everything a tools/call can end in. */
export type ServerError = ToolError | ToolExcludedByProfile | PluginNotLoaded | UnknownTool | InternalError | CallRefused
