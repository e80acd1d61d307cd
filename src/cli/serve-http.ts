/** `stagewright serve --port`: the Streamable HTTP transport, loaded only when --port is given. */
import { Config, Effect, Option } from "effect"
import { HttpServer, isLoopback } from "../server/HttpServer.js"
import type { ServerConfigShape } from "../layers/config/ServerConfig.js"
import { VERSION } from "../version.js"
import { InvalidFlag, toHttpBounds, type TransportFlags } from "./flags.js"

export const serveHttp = (config: Partial<ServerConfigShape>, flags: Omit<TransportFlags, "port"> & { readonly port: number }) =>
  Effect.gen(function* () {
    const authToken = Option.isSome(flags.authTokenEnv)
      ? yield* Config.redacted(flags.authTokenEnv.value).pipe(
          Effect.mapError(() => new InvalidFlag({ reason: `--auth-token-env ${flags.authTokenEnv.pipe(Option.getOrElse(() => ""))}: the variable is not set` }))
        )
      : undefined
    // The token is the server's secret: apps launched from here inherit the environment, so it leaves it.
    if (Option.isSome(flags.authTokenEnv)) delete process.env[flags.authTokenEnv.value]
    if (!isLoopback(flags.host)) {
      yield* Effect.logWarning(`--host ${flags.host} is not a loopback address: other machines can reach this server${authToken ? "" : " and no --auth-token-env is set"}`)
    }
    const bounds = yield* toHttpBounds(flags)
    const options = { host: flags.host, port: flags.port, allowedHosts: flags.allowedHost, allowedOrigins: flags.allowedOrigin, authToken, ...bounds }
    yield* Effect.gen(function* () {
      const http = yield* HttpServer
      yield* Effect.logInfo(`stagewright ${VERSION} serving MCP on ${http.url}`)
      // Tests and wrappers read this line to find the port.
      process.stderr.write(`stagewright listening on ${http.url}\n`)
      return yield* Effect.never
    }).pipe(Effect.provide(HttpServer.layer(options, config)))
  })
