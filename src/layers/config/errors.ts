/** The configuration room's error: a path outside the folder the operator allowed. */
import { Schema } from "effect"
import { errorFields } from "../../errors/fields.js"

export class PathNotAllowed extends Schema.TaggedError<PathNotAllowed>()("PathNotAllowed", errorFields("PathNotAllowed")) {}
