/**
 * The perf plugin: startup timeline, CPU profiles of a renderer or the main process, heap figures and
 * snapshots, a memory watch with slope and chart, and long tasks.
 */
import { definePlugin } from "../Plugin.js"
import { cpuProfileTool } from "./cpu.js"
import { longTasksTool } from "./longtasks.js"
import { heapTool, memoryWatchTool } from "./memory.js"
import { startupTool } from "./startup.js"

export default definePlugin({
  name: "perf",
  purpose: "Performance: startup timeline, CPU profiles (renderer or main), heap and snapshots, memory watch, long tasks",
  stagewright: ">=0.1.0 <1",
  tools: [startupTool, cpuProfileTool, heapTool, memoryWatchTool, longTasksTool]
})
