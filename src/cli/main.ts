/**
 * The `stagewright` command: `serve` (the default), `tools [--json]` and `doctor [--json]`.
 */
import { Command, Options } from "@effect/cli"
import { Config, Console, Data, Effect, HashMap, Logger, Option } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { parseAllowEval, type EvalTarget } from "../eval-policy/EvalPolicy.js"
import { PluginLoader } from "../plugins/PluginLoader.js"
import { defaultServerConfig, type ServerConfigShape } from "../layers/config/ServerConfig.js"
import { HttpServer, isLoopback } from "../server/HttpServer.js"
import { McpServer } from "../server/McpServer.js"
import { serverLayer } from "../server/Stagewright.js"
import { firstPartyPlugins } from "../plugins/registry.js"
import { PROFILE_NAMES, DEFAULT_PROFILE } from "../profile/profiles.js"
import { coreTools } from "../server/tools.js"
import { documentationManifest } from "../tools/manifest.js"
import { VERSION } from "../version.js"
import { runChecks } from "./doctor.js"

const toolProfile = Options.choice("tool-profile", PROFILE_NAMES).pipe(
  Options.withDescription(`Named tool list to expose (default ${DEFAULT_PROFILE}): essential 19, testing 47, debug 32, full 52 tools`),
  Options.optional
)
const allowEval = Options.text("allow-eval").pipe(
  Options.withDescription("Allow eval tools for a target: renderer, main or all (repeatable)"),
  Options.repeated
)
const plugin = Options.text("plugin").pipe(
  Options.withDescription("Load a plugin: a first-party name, a module path or a package (repeatable)"),
  Options.repeated
)
const pluginConfig = Options.keyValueMap("plugin-config").pipe(
  Options.withDescription("Configure a loaded plugin: NAME=<json>, decoded with the plugin's schema at start-up (repeatable)"),
  Options.optional
)
const screenshotDir = Options.text("screenshot-dir").pipe(
  Options.withDescription("Also save screenshots in this folder (names cannot leave it)"),
  Options.optional
)
const visualDir = Options.text("visual-dir").pipe(Options.withDescription("Baseline folder of the visual plugin (default <output-dir>/visual-baselines)"), Options.optional)
const outputDir = Options.text("output-dir").pipe(
  Options.withDescription("Folder for traces, exported tests and oversized results"),
  Options.withDefault(defaultServerConfig.outputDir)
)
const operationTimeoutMs = Options.integer("operation-timeout-ms").pipe(
  Options.withDescription("Upper bound of one tool call in milliseconds; a call that does not settle ends with a retryable TIMEOUT"),
  Options.withDefault(defaultServerConfig.operationTimeoutMs)
)
const appRoot = Options.text("app-root").pipe(
  Options.withDescription("Confine launch paths, cwd, uploaded files and dialog-stub file answers to this folder (symlinks resolved)"),
  Options.optional
)
const maxResponseChars = Options.integer("max-response-chars").pipe(
  Options.withDescription("Cut results longer than this; the full result is written under the output dir and linked"),
  Options.withDefault(defaultServerConfig.maxResponseChars)
)
const json = Options.boolean("json").pipe(Options.withDescription("Print JSON"))
const port = Options.integer("port").pipe(
  Options.withDescription("Serve Streamable HTTP on this port (0 picks one) instead of stdio"),
  Options.optional
)
const host = Options.text("host").pipe(
  Options.withDescription("Address to bind with --port (default 127.0.0.1; anything but loopback is reachable from other machines)"),
  Options.withDefault("127.0.0.1")
)
const authTokenEnv = Options.text("auth-token-env").pipe(
  Options.withDescription("Require `Authorization: Bearer <token>` over HTTP, the token read from this environment variable"),
  Options.optional
)
const allowedHost = Options.text("allowed-host").pipe(
  Options.withDescription("Also accept this Host header (host:port) over HTTP (repeatable)"),
  Options.repeated
)
const allowedOrigin = Options.text("allowed-origin").pipe(
  Options.withDescription("Also accept this Origin (scheme://host:port) over HTTP (repeatable)"),
  Options.repeated
)

const serveOptions = { toolProfile, allowEval, plugin, pluginConfig, screenshotDir, visualDir, outputDir, operationTimeoutMs, appRoot, maxResponseChars }
const transportOptions = { port, host, authTokenEnv, allowedHost, allowedOrigin }

interface TransportFlags {
  readonly port: Option.Option<number>
  readonly host: string
  readonly authTokenEnv: Option.Option<string>
  readonly allowedHost: ReadonlyArray<string>
  readonly allowedOrigin: ReadonlyArray<string>
}

interface ServeFlags {
  readonly toolProfile: Option.Option<(typeof PROFILE_NAMES)[number]>
  readonly allowEval: ReadonlyArray<string>
  readonly plugin: ReadonlyArray<string>
  readonly pluginConfig: Option.Option<HashMap.HashMap<string, string>>
  readonly screenshotDir: Option.Option<string>
  readonly visualDir: Option.Option<string>
  readonly outputDir: string
  readonly operationTimeoutMs: number
  readonly appRoot: Option.Option<string>
  readonly maxResponseChars: number
}

/** A flag whose value cannot be used; the server does not start. */
export class InvalidFlag extends Data.TaggedError("InvalidFlag")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

const invalid = (reason: string) => Effect.fail(new InvalidFlag({ reason }))

/** `--plugin-config NAME=<json>` values parsed as JSON, by plugin name. */
const parsePluginConfig = (values: Option.Option<HashMap.HashMap<string, string>>): Effect.Effect<Record<string, unknown>, InvalidFlag> =>
  Effect.forEach(Option.match(values, { onNone: () => [], onSome: (map) => [...HashMap.toEntries(map)] }), ([name, text]) =>
    Effect.try({
      try: () => [name, JSON.parse(text)] as const,
      catch: (cause) => new InvalidFlag({ reason: `--plugin-config ${name}: not JSON (${cause instanceof Error ? cause.message : String(cause)})` })
    })
  ).pipe(Effect.map((entries) => Object.fromEntries(entries)))

const toConfig = (flags: ServeFlags): Effect.Effect<Partial<ServerConfigShape>, InvalidFlag> => Effect.flatMap(parsePluginConfig(flags.pluginConfig), (pluginConfig) => {
  const targets = parseAllowEval(flags.allowEval)
  if ("invalid" in targets) {
    return invalid(`--allow-eval ${targets.invalid}: expected renderer, main or all`)
  }
  if (flags.operationTimeoutMs <= 0) return invalid("--operation-timeout-ms must be positive")
  if (flags.maxResponseChars < 1_000) return invalid("--max-response-chars must be at least 1000")
  if (Option.isSome(flags.appRoot) && !existsSync(flags.appRoot.value)) return invalid(`--app-root ${flags.appRoot.value}: no such folder`)
  return Effect.succeed({
    ...(Option.isSome(flags.toolProfile) ? { toolProfile: flags.toolProfile.value } : {}),
    allowEval: targets as ReadonlyArray<EvalTarget>,
    plugins: flags.plugin,
    pluginConfig,
    outputDir: resolve(flags.outputDir),
    ...(Option.isSome(flags.screenshotDir) ? { screenshotDir: resolve(flags.screenshotDir.value) } : {}),
    ...(Option.isSome(flags.visualDir) ? { visualDir: resolve(flags.visualDir.value) } : {}),
    operationTimeoutMs: flags.operationTimeoutMs,
    maxResponseChars: flags.maxResponseChars,
    ...(Option.isSome(flags.appRoot) ? { appRoot: resolve(flags.appRoot.value) } : {})
  })
})

/** Logs go to stderr: stdout of the stdio server carries JSON-RPC only. */
export const stderrLogger = Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger))

const serve = (flags: ServeFlags & TransportFlags) =>
  Effect.gen(function* () {
    const config = yield* toConfig(flags)
    if (Option.isNone(flags.port)) {
      yield* Effect.logInfo(`stagewright ${VERSION} serving MCP on stdio`)
      yield* McpServer.serveStdio.pipe(Effect.provide(serverLayer(config)))
      yield* Effect.logInfo("client closed the connection; shutting down")
      return
    }
    if (flags.port.value < 0 || flags.port.value > 65_535) return yield* invalid(`--port ${flags.port.value}: expected 0-65535`)
    const authToken = Option.isSome(flags.authTokenEnv)
      ? yield* Config.redacted(flags.authTokenEnv.value).pipe(
          Effect.mapError(() => new InvalidFlag({ reason: `--auth-token-env ${flags.authTokenEnv.pipe(Option.getOrElse(() => ""))}: the variable is not set` }))
        )
      : undefined
    if (!isLoopback(flags.host)) {
      yield* Effect.logWarning(`--host ${flags.host} is not a loopback address: other machines can reach this server${authToken ? "" : " and no --auth-token-env is set"}`)
    }
    const options = { host: flags.host, port: flags.port.value, allowedHosts: flags.allowedHost, allowedOrigins: flags.allowedOrigin, authToken }
    yield* Effect.gen(function* () {
      const http = yield* HttpServer
      yield* Effect.logInfo(`stagewright ${VERSION} serving MCP on ${http.url}`)
      // Tests and wrappers read this line to find the port.
      process.stderr.write(`stagewright listening on ${http.url}\n`)
      return yield* Effect.never
    }).pipe(Effect.provide(HttpServer.layer(options, config)))
  })

const serveCommand = Command.make("serve", { ...serveOptions, ...transportOptions }, serve).pipe(
  Command.withDescription("Serve MCP over stdio (the default command), or over Streamable HTTP with --port")
)

const toolsCommand = Command.make("tools", { json, plugin }, ({ json, plugin }) =>
  Effect.gen(function* () {
    // The documentation manifest covers every core and eval tool and every first-party plugin's tools.
    const loader = yield* PluginLoader
    const loaded = yield* loader.load([...Object.keys(firstPartyPlugins), ...plugin])
    const manifest = documentationManifest([...coreTools, ...loaded.tools])
    if (json) return yield* Console.log(JSON.stringify({ version: VERSION, tools: manifest }, null, 2))
    for (const entry of manifest) {
      const where = entry.plugin ? `plugin ${entry.plugin}` : entry.evalTarget ? `eval ${entry.evalTarget}` : entry.profiles.join(",")
      yield* Console.log(`${entry.name.padEnd(34)} ${entry.type.padEnd(9)} ${where}`)
    }
    yield* Console.log(`${manifest.length} tools`)
  }).pipe(Effect.provide(PluginLoader.layer))
).pipe(Command.withDescription("Print the documentation manifest of every tool (name, type, eval target, profiles, plugin, error codes), sorted"))

const doctorCommand = Command.make("doctor", { json, ...serveOptions }, (flags) =>
  Effect.gen(function* () {
    const config = yield* toConfig(flags)
    const pluginProblem = yield* Effect.flatMap(PluginLoader, (loader) => loader.load(config.plugins ?? [])).pipe(
      Effect.as(undefined),
      Effect.catchAll((error) => Effect.succeed(error.message))
    )
    const checks = runChecks({
      outputDir: config.outputDir ?? defaultServerConfig.outputDir,
      screenshotDir: config.screenshotDir,
      profile: config.toolProfile ?? DEFAULT_PROFILE,
      allowEval: config.allowEval ?? [],
      plugins: config.plugins ?? [],
      pluginProblem
    })
    const failed = checks.filter((c) => c.required && !c.ok)
    if (flags.json) yield* Console.log(JSON.stringify({ ok: failed.length === 0, checks }, null, 2))
    else for (const c of checks) yield* Console.log(`${c.ok ? "ok  " : c.required ? "FAIL" : "warn"} ${c.name.padEnd(16)} ${c.detail}`)
    if (failed.length > 0) {
      process.exitCode = 1
    }
  }).pipe(Effect.provide(PluginLoader.layer))
).pipe(Command.withDescription("Check Node, playwright-core, Chromium, Electron or the stand-in, display, paths and policy; exits non-zero when a required check fails"))

export const rootCommand = Command.make("stagewright", { ...serveOptions, ...transportOptions }, serve).pipe(
  Command.withDescription("MCP server that lets an AI agent launch or attach to an Electron app and drive, test and debug it"),
  Command.withSubcommands([serveCommand, toolsCommand, doctorCommand])
)

export const cli = Command.run(rootCommand, { name: "stagewright", version: VERSION })
