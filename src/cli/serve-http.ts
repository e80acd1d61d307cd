/** `stagewright serve --port`: the Streamable HTTP transport, loaded only when --port is given. */
import { Config, Effect, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { readRegularFile } from "../layers/config/read-file.js"
import { isLoopbackHost } from "../layers/config/loopback.js"
import { HttpServer } from "../server/HttpServer.js"
import type { ServerConfigShape } from "../layers/config/ServerConfig.js"
import { VERSION } from "../version.js"
import { InvalidFlag, toHttpBounds, type TransportFlags } from "./flags.js"

/** The bearer token from `--auth-token-file`: its first line, trimmed; a regular file of at most 4 KiB. */
const tokenFromFile = (path: string) =>
  Effect.suspend(() => {
    const text = readRegularFile(resolve(path), 4_096)
    const token = typeof text === "string" ? (text.split(/\r?\n/)[0] ?? "").trim() : ""
    return typeof text !== "string"
      ? Effect.fail(new InvalidFlag({ reason: `--auth-token-file: ${text.reason}` }))
      : token.length < 16
        ? Effect.fail(new InvalidFlag({ reason: `--auth-token-file ${path}: the token (its first line) must be at least 16 characters` }))
        : Effect.succeed(Redacted.make(token))
  })

export const serveHttp = (config: Partial<ServerConfigShape>, flags: Omit<TransportFlags, "port"> & { readonly port: number }) =>
  Effect.gen(function* () {
    const tokenFile = flags.authTokenFile ?? Option.none()
    if (Option.isSome(tokenFile) && Option.isSome(flags.authTokenEnv))
      return yield* new InvalidFlag({ reason: "--auth-token-file and --auth-token-env: give one" })
    const authToken = Option.isSome(tokenFile)
      ? yield* tokenFromFile(tokenFile.value)
      : Option.isSome(flags.authTokenEnv)
        ? yield* Config.redacted(flags.authTokenEnv.value).pipe(
            Effect.mapError(
              () => new InvalidFlag({ reason: `--auth-token-env ${flags.authTokenEnv.pipe(Option.getOrElse(() => ""))}: the variable is not set` })
            )
          )
        : undefined
    // The token is the server's secret: apps launched from here inherit the environment, so it leaves it.
    if (Option.isSome(flags.authTokenEnv)) delete process.env[flags.authTokenEnv.value]
    if (!isLoopbackHost(flags.host)) {
      yield* Effect.logWarning(
        `--host ${flags.host} is not a loopback address: other machines can reach this server${authToken ? "" : " and no --auth-token-env is set"}`
      )
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
