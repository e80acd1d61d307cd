/**
 * Helpers of the fuzz tests: a guard that records unhandled rejections and uncaught exceptions while a
 * run is in progress, and printing of the tables.
 */
import { FuzzTally } from "../../src/bench/fuzz/index.js"

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
