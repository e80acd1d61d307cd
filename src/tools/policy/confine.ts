/**
 * Applies `--app-root` to the paths a tool was given: each is resolved (symlinks too) and must lie
 * inside the root, or the call fails with PATH_NOT_ALLOWED before anything runs.
 */
import { Effect } from "effect"
import { isAbsolute, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { confinePath, realPathOf } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { InvalidArgument, PathNotAllowed } from "../contract/errors.js"

/** Checks `[path, argumentName]` pairs (undefined paths are skipped) against the server's app root. */
export const confine = (
  paths: ReadonlyArray<readonly [path: string | undefined, argument: string]>,
  base?: string
): Effect.Effect<void, PathNotAllowed, ServerConfig> =>
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

/** Whether `path` (symlinks resolved) lies inside `folder` (symlinks resolved). */
const within = (folder: string, path: string) => {
  const rel = relative(realPathOf(folder), realPathOf(path))
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))
}

/**
 * A file: URL to open in a window: its path (symlinks resolved) must lie inside --app-root when one is
 * set, and never inside the server's own output folders, whose files hold caller-influenced content
 * (mocked bodies recorded in a HAR, exported text) that would run as a page.
 */
export const confineFileUrl = (url: string): Effect.Effect<void, PathNotAllowed | InvalidArgument, ServerConfig> =>
  Effect.gen(function* () {
    const path = yield* Effect.try({
      try: () => fileURLToPath(new URL(url)),
      catch: () => new InvalidArgument({ message: `url: ${url.slice(0, 80)} is not a local file URL`, hint: "Use file:///absolute/path." })
    })
    yield* confine([[path, "url"]])
    const config = yield* ServerConfig
    const outputs = [config.outputDir, config.screenshotDir, config.visualDir].filter((dir): dir is string => dir !== undefined)
    const hit = outputs.find((dir) => within(dir, path))
    if (hit !== undefined) {
      return yield* new PathNotAllowed({
        message: `url: ${path} is inside the server's output folder ${resolve(hit)}, which is never opened as a page`,
        hint: "Open the app's own pages; read a saved artifact with the tool that wrote it."
      })
    }
  })
