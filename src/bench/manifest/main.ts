/**
 * Entry point of the manifest budget benchmark (run with tsx; see ./cli.ts for the commands).
 * Expected failures (budget exceeded, no or invalid baseline, missing --reason) print their message and
 * exit with code 1; argument errors are printed by @effect/cli itself.
 */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { manifestCli } from "./cli.js"

manifestCli(process.argv).pipe(
  Effect.catchAll((error) =>
    Effect.zipRight(
      ValidationError.isValidationError(error) ? Effect.void : Console.error(error.message),
      Effect.sync(() => {
        process.exitCode = 1
      })
    )
  ),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
