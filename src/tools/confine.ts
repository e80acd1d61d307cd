/**
 * Applies `--app-root` to the paths a tool was given: each is resolved (symlinks too) and must lie
 * inside the root, or the call fails with PATH_NOT_ALLOWED before anything runs.
 */
import { Effect } from "effect"
import { confinePath } from "../layers/config/paths.js"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import type { PathNotAllowed } from "./errors.js"

/** Checks `[path, argumentName]` pairs (undefined paths are skipped) against the server's app root. */
export const confine = (paths: ReadonlyArray<readonly [path: string | undefined, argument: string]>, base?: string): Effect.Effect<void, PathNotAllowed, ServerConfig> =>
  Effect.flatMap(ServerConfig, (config) =>
    Effect.forEach(
      paths,
      ([path, argument]) => {
        if (path === undefined) return Effect.void
        const result = confinePath(config.appRoot, path, argument, base)
        return typeof result === "string" ? Effect.void : Effect.fail(result)
      },
      { discard: true }
    )
  )
