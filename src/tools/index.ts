/**
 * The tool groups that drive the app (and the eval tools); with the server-describing tools of
 * src/server/tools.ts they make the core catalog.
 */
import { appTools } from "./app.js"
import { attach } from "./attach.js"
import { assertTools } from "./assert.js"
import { authorTools } from "./author.js"
import { debugTools } from "./debug.js"
import { evalTools } from "./eval.js"
import { interactTools } from "./interact.js"
import { nativeTools } from "./native.js"
import { navigationTools } from "./navigation.js"
import { observeTools } from "./observe.js"
import type { ProfileSelector } from "../profile/ProfileSelector.js"
import type { Tool, ToolServices } from "./Tool.js"
import { windowTools } from "./windows.js"

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
