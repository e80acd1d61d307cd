/**
 * The visual plugin: compares a window or a target with a named baseline (pixelmatch), creates or
 * replaces baselines, and lists them. Baselines live in --visual-dir (default <output>/visual-baselines).
 */
import { definePlugin } from "../Plugin.js"
import { baselinesTool, compareTool, updateBaselineTool } from "./tools.js"

export default definePlugin({
  name: "visual",
  purpose: "Visual regression: compare a window or element with named baselines (pixelmatch), update and list baselines",
  stagewright: ">=0.1.0 <1",
  tools: [compareTool, updateBaselineTool, baselinesTool]
})
