/**
 * Input shapes shared by many tools, written once: the element target, timeouts, window ids.
 */
import { Schema } from "effect"

/**
 * The one element-targeting shape: a snapshot ref or a Playwright selector. The selector forms are said once, in
 * the server's instructions and electron_find's description, not in each of the ~25 schemas that take a target
 * (they cost 25 BPE more each there: ~650 on the full profile).
 */
export const Target = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000)).annotations({
  description: "ref (e12) or Playwright selector"
})

export const TimeoutMs = (defaultMs: number) =>
  Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 600_000))).annotations({
    description: `ms, default ${defaultMs}`
  })

// A surface id: w1 (window), v1 (view), g1 (webview guest), fr1 (frame). The shape is checked by a filter the
// listed schema does not carry (a pattern there costs every host tokens; the bound is what it needs to see).
export const WindowId = Schema.String.pipe(
  Schema.maxLength(8),
  Schema.filter((id) => /^(?:w|v|g|fr)\d{1,6}$/.test(id) || "a surface id from electron_windows: w1, v1, g1 or fr1")
).annotations({ description: "window id (w1) from electron_windows" })

/** An app session's name: several apps at once, each its own session (electron_status lists them). */
export const SessionName = Schema.String.pipe(
  Schema.maxLength(40),
  // A name is echoed in answers: no line breaks or control characters that could forge a line there.
  // eslint-disable-next-line no-control-regex
  Schema.filter((name) => /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/.test(name) || "a session name without line breaks or control characters")
)

export const DEFAULT_ACTION_TIMEOUT = 5_000
export const DEFAULT_EXPECT_TIMEOUT = 5_000
