#!/usr/bin/env node
/**
 * Entry point of the `stagewright` binary. SIGINT/SIGTERM become interruption (NodeRuntime.runMain),
 * so every finalizer runs and no Electron process outlives the server.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { cli, stderrLogger } from "./cli/main.js"

cli(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  Effect.provide(stderrLogger),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
