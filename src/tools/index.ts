/**
 * The tool groups that drive the app (and the eval tools); with the server-describing tools of
 * src/server/tools.ts they make the core catalog.
 */
import { appTools } from "./app/app.js"
import { attach } from "./app/attach.js"
import { assertTools } from "./assert/assert.js"
import { authorTools } from "./author/author.js"
import { debugTools } from "./debug/debug.js"
import { evalTools } from "./eval/eval.js"
import { interactTools } from "./interact/interact.js"
import { nativeTools } from "./native/native.js"
import { navigationTools } from "./navigation/navigation.js"
import { observeTools } from "./observe/observe.js"
import type { ProfileSelector } from "../profile/ProfileSelector.js"
import type { Tool, ToolServices } from "./contract/Tool.js"
import { windowTools } from "./windows/windows.js"

/** Plain tool values: the Dispatcher runs every tool, these and plugin tools alike, through the stages of guard.ts. */
export const groupTools: ReadonlyArray<Tool<any, ToolServices | ProfileSelector>> = [
  ...appTools,
  attach,
  ...windowTools,
  ...navigationTools,
  ...observeTools,
  ...interactTools,
  ...assertTools,
  ...authorTools,
  ...nativeTools,
  ...debugTools,
  ...evalTools
]
