/**
 * The private Xvfb's error (xvfb.ts): no binary, or a server that did not come up. The launch turns it
 * into LaunchFailed with the same message and hint; it never crosses the MCP boundary itself.
 */
import { Data } from "effect"

export class XvfbFailed extends Data.TaggedError("XvfbFailed")<{
  readonly message: string
  readonly hint: string
  readonly cause?: unknown
}> {}
