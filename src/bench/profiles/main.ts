/** Entry point of `npm run bench:profiles` and `npm run bench:profiles:merge` (see cli.ts). */
import { Effect } from "effect"
import { main } from "./cli.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

Effect.runPromiseExit(main(process.argv.slice(2))).then((exit) => {
  if (exit._tag === "Failure") {
    process.stderr.write(`[profiles] ${exit.cause.toString()}\n`)
    process.exitCode = 1
  }
})
