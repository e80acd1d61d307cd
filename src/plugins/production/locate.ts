/**
 * Turning a path the agent gave into a build: confined to --app-root, checked to exist, then the build
 * itself or the newest build under it.
 */
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { confine } from "../../tools/policy/confine.js"
import { InvalidArgument, OperationFailed } from "../../tools/contract/errors.js"
import { findBuilds, type BuildInfo } from "./build.js"

export const BuildPath = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_000)).annotations({
  description: "project folder (searched: out/, dist/, release/) or a build folder / .app"
})

const noBuild = (path: string) =>
  new OperationFailed({
    message: `no packaged build in ${path} (looked at the folder itself and in out/, dist/, release/ up to 3 levels)`,
    hint: "Package the app first (electron-builder, Forge), or pass the build folder that holds resources/app.asar, or the .app bundle."
  })

/** All builds under the path, newest first (fails when there is none). */
export const buildsAt = (path: string, argument: string) =>
  Effect.gen(function* () {
    yield* confine([[path, argument]])
    const root = resolve(path)
    if (!existsSync(root))
      return yield* new InvalidArgument({ message: `${argument}: ${root} does not exist`, hint: `Pass an existing project or build folder as ${argument}.` })
    const builds = yield* Effect.try({
      try: () => findBuilds(root),
      catch: (cause) => new OperationFailed({ message: `could not search ${root}: ${String(cause)}` })
    })
    if (builds.length === 0) return yield* noBuild(root)
    return { root, builds }
  })

/** The newest build under the path. */
export const newestBuild = (path: string, argument: string) =>
  Effect.map(buildsAt(path, argument), ({ root, builds }) => ({ root, build: builds[0] as BuildInfo, others: builds.length - 1 }))

export const promise = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (cause) => new OperationFailed({ message: `${what}: ${cause instanceof Error ? cause.message : String(cause)}` }) })
