#!/usr/bin/env node
/**
 * Entry point of the `stagewright` binary. SIGINT/SIGTERM become interruption (NodeRuntime.runMain),
 * so every finalizer runs and no Electron process outlives the server.
 */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { cli, stderrLogger } from "./cli/main.js"

cli(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  Effect.provide(stderrLogger),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
