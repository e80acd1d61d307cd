/**
 * Input shapes shared by many tools, written once: the element target, timeouts, window ids.
 */
import { Schema } from "effect"

/** The one element-targeting shape: a snapshot ref or a Playwright selector. */
export const Target = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000)).annotations({
  description: 'ref (e12) or selector: role=button[name="Save"], text=Save, label=Email, placeholder=…, testid=…, css=#id'
})

export const TimeoutMs = (defaultMs: number) =>
  Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 600_000))).annotations({
    description: `ms, default ${defaultMs}`
  })

export const WindowId = Schema.String.pipe(Schema.pattern(/^(?:w|v|g|fr)\d+$/)).annotations({ description: "window or surface id (w1, v1, g1, fr1) from electron_windows" })

export const DEFAULT_ACTION_TIMEOUT = 5_000
export const DEFAULT_EXPECT_TIMEOUT = 5_000
