#!/usr/bin/env node
/**
 * Entry point of the `stagewright` binary. SIGINT/SIGTERM become interruption (NodeRuntime.runMain),
 * so every finalizer runs and no Electron process outlives the server. A usage error is one line on
 * stderr and exit 2; a start-up failure one line naming the setting and exit 1.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Console, Effect, Exit } from "effect"
import { prepareArgv } from "./cli/argv.js"
import { withCliConsole } from "./cli/console.js"
import { cli, commandTable } from "./cli/main.js"
import { exitCodeOf, startupLine } from "./cli/failure.js"
import { stderrLogger } from "./server/stderr-logger.js"

const prepared = prepareArgv(process.argv, commandTable, process.env)

const program: Effect.Effect<void, unknown, NodeContext.NodeContext> =
  prepared._tag === "UsageError"
    ? Effect.zipRight(Console.error(prepared.message), Effect.fail({ _tag: "UsageError" as const }))
    : cli(prepared.args).pipe(
        // The parser printed its own error (one line, src/cli/console.ts); anything else is printed here,
        // one line: a bad flag value, a plugin refused at start-up.
        Effect.tapErrorCause((cause) => {
          if (Cause.isInterruptedOnly(cause)) return Effect.void
          const line = startupLine(cause)
          return line === undefined ? Effect.void : Console.error(line)
        })
      )

withCliConsole(program).pipe(
  Effect.provide(NodeContext.layer),
  Effect.provide(stderrLogger),
  NodeRuntime.runMain({
    disablePrettyLogger: true,
    disableErrorReporting: true,
    teardown: (exit, onExit) => onExit(Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) ? exitCodeOf(exit.cause) : 0)
  })
)
