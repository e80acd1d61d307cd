#!/usr/bin/env node
/**
 * Entry point of the `stagewright` binary. SIGINT/SIGTERM become interruption (NodeRuntime.runMain),
 * so every finalizer runs and no Electron process outlives the server.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect } from "effect"
import { cli } from "./cli/main.js"
import { stderrLogger } from "./server/stderr-logger.js"

cli(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  // A failure that ends the program (a bad flag, a plugin refused at start-up) is logged here, with the
  // stderr logger: runMain's own error report would use the default logger, which writes to stdout.
  Effect.tapErrorCause((cause) => (Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError(cause))),
  Effect.provide(stderrLogger),
  NodeRuntime.runMain({ disablePrettyLogger: true, disableErrorReporting: true })
)
