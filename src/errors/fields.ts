/**
 * The fields every error of the vocabulary carries, its default hint read from its registry row
 * (./registry.ts): an error class is `Schema.TaggedError<X>()("X", errorFields("X"))`, so its tag, code,
 * hint and retryability are the row's. `cause` keeps the original failure for logs; it is never sent.
 */
import { Schema } from "effect"
import { defaultHint, type ErrorTag } from "./registry.js"

const Details = Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** The fields of the error `tag`: `hint` defaults to the row's recovery advice. */
export const errorFields = (tag: ErrorTag) => ({
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => defaultHint(tag) }),
  details: Details,
  cause: Schema.optional(Schema.Unknown)
})
