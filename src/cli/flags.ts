/**
 * The flags of `serve` and `doctor` and their translation to a server configuration. Loaded only when
 * one of those commands runs (not for `--help`).
 */
import { Effect, Option } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { parseAllowEval, type EvalTarget } from "../eval-policy/EvalPolicy.js"
import type { ServerConfigShape } from "../layers/ServerConfig.js"
import type { PROFILE_NAMES } from "../profile/profiles.js"

export interface TransportFlags {
  readonly port: Option.Option<number>
  readonly host: string
  readonly authTokenEnv: Option.Option<string>
  readonly allowedHost: ReadonlyArray<string>
  readonly allowedOrigin: ReadonlyArray<string>
}

export interface ServeFlags {
  readonly toolProfile: Option.Option<(typeof PROFILE_NAMES)[number]>
  readonly allowEval: ReadonlyArray<string>
  readonly plugin: ReadonlyArray<string>
  readonly screenshotDir: Option.Option<string>
  readonly outputDir: string
  readonly operationTimeoutMs: number
  readonly appRoot: Option.Option<string>
  readonly maxResponseChars: number
}

export class InvalidFlag extends Error {
  readonly _tag = "InvalidFlag"
}

export const toConfig = (flags: ServeFlags): Effect.Effect<Partial<ServerConfigShape>, InvalidFlag> => {
  const targets = parseAllowEval(flags.allowEval)
  if ("invalid" in targets) {
    return Effect.fail(new InvalidFlag(`--allow-eval ${targets.invalid}: expected renderer, main or all`))
  }
  if (flags.operationTimeoutMs <= 0) return Effect.fail(new InvalidFlag("--operation-timeout-ms must be positive"))
  if (flags.maxResponseChars < 1_000) return Effect.fail(new InvalidFlag("--max-response-chars must be at least 1000"))
  if (Option.isSome(flags.appRoot) && !existsSync(flags.appRoot.value)) return Effect.fail(new InvalidFlag(`--app-root ${flags.appRoot.value}: no such folder`))
  return Effect.succeed({
    ...(Option.isSome(flags.toolProfile) ? { toolProfile: flags.toolProfile.value } : {}),
    allowEval: targets as ReadonlyArray<EvalTarget>,
    plugins: flags.plugin,
    outputDir: resolve(flags.outputDir),
    ...(Option.isSome(flags.screenshotDir) ? { screenshotDir: resolve(flags.screenshotDir.value) } : {}),
    operationTimeoutMs: flags.operationTimeoutMs,
    maxResponseChars: flags.maxResponseChars,
    ...(Option.isSome(flags.appRoot) ? { appRoot: resolve(flags.appRoot.value) } : {})
  })
}
