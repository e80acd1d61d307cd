/**
 * Every core tool and the eval tools, as one list the Dispatcher serves.
 */
import { appTools } from "./app.js"
import { assertTools } from "./assert.js"
import { authorTools } from "./author.js"
import { debugTools } from "./debug.js"
import { evalTools } from "./eval.js"
import { guardTool } from "./guard.js"
import { interactTools } from "./interact.js"
import { nativeTools } from "./native.js"
import { navigationTools } from "./navigation.js"
import { observeTools } from "./observe.js"
import type { Tool } from "./Tool.js"
import { windowTools } from "./windows.js"

/** Each behind the one guard (open web dialogs, targets that match nothing): see guard.ts. */
export const coreTools: ReadonlyArray<Tool> = ([
  ...appTools,
  ...windowTools,
  ...navigationTools,
  ...observeTools,
  ...interactTools,
  ...assertTools,
  ...authorTools,
  ...nativeTools,
  ...debugTools,
  ...evalTools
] as ReadonlyArray<Tool>).map(guardTool)
