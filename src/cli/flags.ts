/**
 * The flags of `serve` and `doctor` and their translation to a server configuration. Loaded only when
 * one of those commands runs (not for `--help`).
 */
import { Data, Effect, HashMap, Option } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { parseAllowEval, type EvalTarget } from "../eval-policy/EvalPolicy.js"
import type { ServerConfigShape, XvfbMode } from "../layers/config/ServerConfig.js"
import { loadSecrets } from "../layers/config/secrets-file.js"
import type { PROFILE_NAMES } from "../profile/profiles.js"

export interface TransportFlags {
  readonly port: Option.Option<number>
  readonly host: string
  readonly authTokenEnv: Option.Option<string>
  /** --auth-token-file: the bearer token read from a file (absent in older callers: none). */
  readonly authTokenFile?: Option.Option<string>
  readonly allowedHost: ReadonlyArray<string>
  readonly allowedOrigin: ReadonlyArray<string>
  /** --max-sessions: HTTP sessions open at once (none: the transport's default, 16). */
  readonly maxSessions?: Option.Option<number>
  /** --session-idle-timeout-ms: an HTTP session idle this long is closed (none: 10 minutes). */
  readonly sessionIdleTimeoutMs?: Option.Option<number>
  /** --max-connections: TCP connections open at once over HTTP (none: 128). */
  readonly maxConnections?: Option.Option<number>
}

export interface ServeFlags {
  readonly toolProfile: Option.Option<(typeof PROFILE_NAMES)[number]>
  readonly allowEval: ReadonlyArray<string>
  /** --allow-profile-switch (absent in older callers: off). */
  readonly allowProfileSwitch?: boolean
  readonly plugin: ReadonlyArray<string>
  readonly pluginConfig: Option.Option<HashMap.HashMap<string, string>>
  readonly screenshotDir: Option.Option<string>
  readonly visualDir: Option.Option<string>
  readonly outputDir: string
  readonly operationTimeoutMs: number
  readonly appRoot: Option.Option<string>
  readonly maxResponseChars: number
  /** --xvfb (absent in older callers: auto). */
  readonly xvfb?: XvfbMode
  /** --max-apps: app sessions held at once (absent: the default). */
  readonly maxApps?: Option.Option<number>
  /** --secrets FILE: the operator's secrets (dotenv), typed by name (absent: none). */
  readonly secrets?: Option.Option<string>
}

/** A flag whose value cannot be used; the server does not start. */
export class InvalidFlag extends Data.TaggedError("InvalidFlag")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

export const invalid = (reason: string) => Effect.fail(new InvalidFlag({ reason }))

/** `--plugin-config NAME=<json>` values parsed as JSON, by plugin name. */
const parsePluginConfig = (values: Option.Option<HashMap.HashMap<string, string>>): Effect.Effect<Record<string, unknown>, InvalidFlag> =>
  Effect.forEach(Option.match(values, { onNone: () => [], onSome: (map) => [...HashMap.toEntries(map)] }), ([name, text]) =>
    Effect.try({
      try: () => [name, JSON.parse(text)] as const,
      catch: (cause) => new InvalidFlag({ reason: `--plugin-config ${name}: not JSON (${cause instanceof Error ? cause.message : String(cause)})` })
    })
  ).pipe(Effect.map((entries) => Object.fromEntries(entries)))

export const toConfig = (flags: ServeFlags): Effect.Effect<Partial<ServerConfigShape>, InvalidFlag> =>
  Effect.flatMap(parsePluginConfig(flags.pluginConfig), (pluginConfig) => {
    const targets = parseAllowEval(flags.allowEval)
    if ("invalid" in targets) return invalid(`--allow-eval ${targets.invalid}: expected renderer, main or all`)
    if (flags.operationTimeoutMs <= 0) return invalid("--operation-timeout-ms must be positive")
    if (flags.maxResponseChars < 1_000) return invalid("--max-response-chars must be at least 1000")
    if (Option.isSome(flags.appRoot) && !existsSync(flags.appRoot.value)) return invalid(`--app-root ${flags.appRoot.value}: no such folder`)
    const secretsFile = flags.secrets ?? Option.none()
    const secrets = Option.isSome(secretsFile) ? loadSecrets(resolve(secretsFile.value)) : undefined
    if (secrets !== undefined && "reason" in secrets) return invalid(`--secrets ${secretsFile.pipe(Option.getOrElse(() => ""))}: ${secrets.reason}`)
    const maxApps = flags.maxApps ?? Option.none()
    if (Option.isSome(maxApps) && (!Number.isSafeInteger(maxApps.value) || maxApps.value < 1))
      return invalid(`--max-apps ${maxApps.value}: expected a positive integer`)
    return Effect.succeed({
      ...(Option.isSome(flags.toolProfile) ? { toolProfile: flags.toolProfile.value } : {}),
      allowEval: targets as ReadonlyArray<EvalTarget>,
      ...(flags.allowProfileSwitch === true ? { allowProfileSwitch: true } : {}),
      plugins: flags.plugin,
      pluginConfig,
      outputDir: resolve(flags.outputDir),
      ...(Option.isSome(flags.screenshotDir) ? { screenshotDir: resolve(flags.screenshotDir.value) } : {}),
      ...(Option.isSome(flags.visualDir) ? { visualDir: resolve(flags.visualDir.value) } : {}),
      operationTimeoutMs: flags.operationTimeoutMs,
      maxResponseChars: flags.maxResponseChars,
      ...(flags.xvfb !== undefined ? { xvfb: flags.xvfb } : {}),
      ...(Option.isSome(maxApps) ? { maxApps: maxApps.value } : {}),
      ...(secrets !== undefined ? { secrets } : {}),
      ...(Option.isSome(flags.appRoot) ? { appRoot: resolve(flags.appRoot.value) } : {})
    })
  })

/** The HTTP transport's bounds from their flags; a flag left out leaves the transport's default. */
export const toHttpBounds = (flags: Pick<TransportFlags, HttpBound>): Effect.Effect<Partial<Record<HttpBound, number>>, InvalidFlag> => {
  const bounds: Partial<Record<HttpBound, number>> = {}
  for (const [key, flag] of HTTP_BOUND_FLAGS) {
    const value = flags[key] ?? Option.none()
    if (Option.isNone(value)) continue
    if (!Number.isSafeInteger(value.value) || value.value <= 0) return invalid(`${flag} ${value.value}: expected a positive integer`)
    bounds[key] = value.value
  }
  return Effect.succeed(bounds)
}

type HttpBound = "maxSessions" | "sessionIdleTimeoutMs" | "maxConnections"
const HTTP_BOUND_FLAGS: ReadonlyArray<readonly [HttpBound, string]> = [
  ["maxSessions", "--max-sessions"],
  ["sessionIdleTimeoutMs", "--session-idle-timeout-ms"],
  ["maxConnections", "--max-connections"]
]
