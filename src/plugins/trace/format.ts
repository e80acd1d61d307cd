/**
 * The trace file (JSONL): a header line, then one line per call appended as the call ends. The replay
 * command (src/cli/replay.ts) reads it with these Schemas; `schema` changes when a line changes shape.
 */
import { Schema } from "effect"

export const TRACE_SCHEMA_VERSION = 1

/** How the token figures are made, written in every header and report. */
export const TOKEN_ESTIMATE_NOTE = "estimated: about 4 characters a token (no tokenizer runs in the server); images not counted"

export const TraceHeader = Schema.Struct({
  type: Schema.Literal("header"),
  schema: Schema.Literal(TRACE_SCHEMA_VERSION),
  stagewright: Schema.String,
  startedAt: Schema.String,
  /** --tool-profile of the recorded server (the replay serves every core tool whatever it was). */
  profile: Schema.optional(Schema.String),
  /** The plugins it loaded (--plugin). */
  plugins: Schema.Array(Schema.String),
  /** The eval targets it allowed (--allow-eval); the replay allows only those given to it. */
  allowEval: Schema.Array(Schema.String),
  tokens: Schema.String
})
export type TraceHeader = typeof TraceHeader.Type

export const TraceCall = Schema.Struct({
  type: Schema.Literal("call"),
  index: Schema.Number,
  tool: Schema.String,
  args: Schema.Unknown,
  /** Some argument was redacted (a secret) or cut: the call cannot be replayed as made. */
  redacted: Schema.Boolean,
  startedAt: Schema.String,
  durationMs: Schema.Number,
  outcome: Schema.Literal("ok", "error"),
  code: Schema.optional(Schema.String),
  chars: Schema.Number,
  approxTokens: Schema.Number,
  images: Schema.optional(Schema.Number)
})
export type TraceCall = typeof TraceCall.Type
