/**
 * How an action runs: resolve the target, perform it without leaving it in flight (a web dialog it opens
 * ends the wait and is reported), record the step for test export, and summarise what changed in the page.
 * The work is the call handle's (./handle.ts); `act` is its action for tools that do not hold a handle.
 */
import { Effect } from "effect"
import type { ServerConfig } from "../../layers/config/ServerConfig.js"
import type { DriverServices } from "../../layers/driver/ElectronDriver.js"
import type { ProfileSelector } from "../../profile/ProfileSelector.js"
import type { ToolError } from "../contract/errors.js"
import { callHandle, type ActOptions } from "../contract/handle.js"
import type { ToolResult } from "../contract/Tool.js"

export { changeSummary, DIGEST_CHARS, SMALL_DIFF_CHARS, SUMMARY_TIME_BOX_MS } from "../snapshot/change-summary.js"
export { dialogResult } from "../modal/dialogs.js"
export type { ActOptions } from "../contract/handle.js"

/**
 * Resolves the target, performs the action (returning early if a web dialog opens), records the step.
 * The action never outlives the call: it waits in slices, and its Playwright bound is what is left of the call.
 */
export const act = (options: ActOptions): Effect.Effect<ToolResult, ToolError, DriverServices | ProfileSelector | ServerConfig> =>
  Effect.flatMap(callHandle, (call) => call.act(options))
