/**
 * Helpers of the fuzz tests: a guard that records unhandled rejections and uncaught exceptions while a
 * run is in progress, and printing of the tables.
 */
import { FuzzTally } from "../../src/bench/fuzz/index.js"
import type { Tool } from "../../src/index.js"
import { coreTools } from "../../src/server/tools.js"
import { isReadOnly } from "../../src/tools/contract/Tool.js"

export interface ProcessGuard {
  /** What happened since the guard started, readable. */
  readonly events: () => ReadonlyArray<string>
  readonly stop: () => void
}

/** Listens to `unhandledRejection` and `uncaughtExceptionMonitor` until stopped. */
export const guardProcess = (): ProcessGuard => {
  const events: Array<string> = []
  const describe = (reason: unknown) => (reason instanceof Error ? `${reason.name}: ${reason.message.split("\n")[0]}` : String(reason))
  const onRejection = (reason: unknown) => events.push(`unhandledRejection: ${describe(reason)}`)
  const onException = (error: unknown) => events.push(`uncaughtException: ${describe(error)}`)
  process.on("unhandledRejection", onRejection)
  process.on("uncaughtExceptionMonitor", onException)
  return {
    events: () => [...events],
    stop: () => {
      process.off("unhandledRejection", onRejection)
      process.off("uncaughtExceptionMonitor", onException)
    }
  }
}

/** Prints the tally's table (stdout, so it shows in the vitest output). */
export const printTable = (tally: FuzzTally, title: string, seed: number): void => {
  process.stdout.write(`\n${tally.table(`${title} (seed ${seed})`)}\n`)
}

/** Tools a fuzz run leaves out: they would end or replace the app or its windows, run caller code, write files, or click Quit. */
export const DISRUPTIVE_TOOLS: ReadonlySet<string> = new Set([
  "electron_launch",
  "electron_attach",
  "electron_close",
  "electron_window_close",
  "electron_navigate",
  "electron_reload",
  "electron_history",
  "electron_eval_renderer",
  "electron_eval_main",
  "electron_trace_start",
  "electron_trace_stop",
  "electron_export_test",
  "electron_menu_click",
  "electron_dialog_stub",
  "electron_clipboard"
])

/** The core tools a fuzz run calls: reads, assertions, interactions and read-only tools, less `excluded`. */
export const fuzzableTools = (excluded: ReadonlySet<string>): ReadonlyArray<Tool> =>
  coreTools.filter((t) => !excluded.has(t.name) && (t.type === "read" || t.type === "assert" || t.type === "interact" || isReadOnly(t)))
