/**
 * A served process must outlive a third-party promise that rejects with nobody listening: playwright-core
 * leaves one behind when an app exits before its debugger line ("Process failed to launch!"), and Node 20
 * ends the process on an unhandled rejection. The launch itself already answered LAUNCH_FAILED; the stray
 * rejection is logged on stderr and the server keeps serving. Installed for the lifetime of `serve`
 * only (a library user's process keeps its own policy).
 */
import { Cause, Effect, Runtime } from "effect"

export const keepServingOnStrayRejections = Effect.gen(function* () {
  const runtime = yield* Effect.runtime<never>()
  const log = (reason: unknown) =>
    Runtime.runFork(runtime)(Effect.logWarning("an unhandled promise rejection was ignored (the server keeps serving)", Cause.fail(reason)))
  yield* Effect.acquireRelease(
    Effect.sync(() => process.on("unhandledRejection", log)),
    () => Effect.sync(() => process.off("unhandledRejection", log))
  )
})
