/** The configuration room's error: a path outside the folder the operator allowed. */
import { Schema } from "effect"

export class PathNotAllowed extends Schema.TaggedError<PathNotAllowed>()("PathNotAllowed", {
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => "Use a path inside the allowed folder." }),
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
}) {}
