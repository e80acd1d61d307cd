/** `stagewright tools` and `stagewright doctor`: loaded only when one of them runs. */
import { Console, Effect, Option } from "effect"
import { PluginLoader } from "../plugins/PluginLoader.js"
import { defaultServerConfig } from "../layers/config/ServerConfig.js"
import { firstPartyPlugins } from "../plugins/registry.js"
import { DEFAULT_PROFILE } from "../profile/profiles.js"
import { coreTools } from "../server/tools.js"
import { documentationManifest } from "../tools/pipeline/manifest.js"
import { VERSION } from "../version.js"
import { appDoctor } from "./doctor-app.js"
import { formatCheck, runChecks } from "./doctor.js"
import { toConfig, type ServeFlags } from "./flags.js"

export const printTools = ({ json, plugin }: { readonly json: boolean; readonly plugin: ReadonlyArray<string> }) =>
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

export const doctor = (flags: ServeFlags & { readonly json: boolean; readonly app?: Option.Option<string> }) =>
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
      pluginProblem,
      xvfb: config.xvfb
    })
    const app =
      flags.app !== undefined && Option.isSome(flags.app) ? yield* appDoctor(flags.app.value, { appRoot: config.appRoot, xvfb: config.xvfb }) : undefined
    // With --app, the app's display check (which knows the runtime a launch would use) replaces the general one.
    const all = app === undefined ? checks : [...checks.filter((c) => c.name !== "display"), ...app.checks]
    const failed = all.filter((c) => c.required && !c.ok)
    if (flags.json) yield* Console.log(JSON.stringify({ ok: failed.length === 0, checks: all, ...(app !== undefined ? { app: app.report } : {}) }, null, 2))
    else for (const c of all) yield* Console.log(formatCheck(c))
    if (failed.length > 0) {
      process.exitCode = 1
    }
  }).pipe(Effect.provide(PluginLoader.layer))
