/**
 * A served process must outlive a third-party promise that rejects with nobody listening: playwright-core
 * leaves one behind when an app exits before its debugger line ("Process failed to launch!"), and Node 20
 * ends the process on an unhandled rejection. The launch itself already answered LAUNCH_FAILED; the stray
 * rejection is logged on stderr and the server keeps serving.
 *
 * Installed by `serve` and kept until the process exits, not removed when serve's scope closes: a launch that
 * the shutdown itself cut short (the client left while the app was starting) kills the app before its debugger
 * line, and playwright-core's rejection comes after the scope has closed (an exit code 1 on a clean shutdown).
 * `serve` is the CLI's whole process (a library user's process keeps its own policy).
 */
import { Cause, Effect, Runtime } from "effect"

/** The listener of this process, once installed. */
let installed: ((reason: unknown) => void) | undefined

export const keepServingOnStrayRejections = Effect.gen(function* () {
  if (installed !== undefined) return installed
  const runtime = yield* Effect.runtime<never>()
  const log = (reason: unknown) =>
    Runtime.runFork(runtime)(Effect.logWarning("an unhandled promise rejection was ignored (the server keeps serving)", Cause.fail(reason)))
  installed = log
  process.on("unhandledRejection", log)
  return log
})
