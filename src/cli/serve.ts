/**
 * `stagewright serve`: MCP over stdio, or over Streamable HTTP with --port. Loaded when the command
 * runs; the HTTP transport (the SDK's Streamable HTTP server, node:http) loads only with --port.
 */
import { Effect, Option } from "effect"
import { McpServer } from "../server/McpServer.js"
import { serverLayer } from "../server/Stagewright.js"
import { VERSION } from "../version.js"
import { keepServingOnStrayRejections } from "./stray-rejections.js"
import { invalid, toConfig, type ServeFlags, type TransportFlags } from "./flags.js"

export const serve = (flags: ServeFlags & TransportFlags) =>
  Effect.scoped(
    Effect.gen(function* () {
      const config = yield* toConfig(flags)
      yield* keepServingOnStrayRejections
      if (Option.isNone(flags.port)) {
        yield* Effect.logInfo(`stagewright ${VERSION} serving MCP on stdio`)
        yield* McpServer.serveStdio.pipe(Effect.provide(serverLayer(config)))
        yield* Effect.logInfo("client closed the connection; shutting down")
        return
      }
      if (flags.port.value < 0 || flags.port.value > 65_535) return yield* invalid(`--port ${flags.port.value}: expected 0-65535`)
      const { serveHttp } = yield* Effect.promise(() => import("./serve-http.js"))
      return yield* serveHttp(config, { ...flags, port: flags.port.value })
    })
  )
