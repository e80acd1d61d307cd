/**
 * PluginLoader: resolves each `--plugin NAME` against the first-party registry, or as a module path
 * or package for third-party plugins, validates the value and checks that no tool name collides.
 * The result is the LoadedPlugins service.
 */
import { dynamicImport } from "../dynamic-import.js"
import { Context, Data, Effect, Layer, ParseResult, Schema } from "effect"
import { isAbsolute, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { CallObserver } from "./observer.js"
import { PluginValue, ToolNeedsValue, type Plugin } from "./Plugin.js"
import { firstPartyPlugins } from "./registry.js"
import { CORE_TOOL_NAMES, EVAL_TOOL_NAMES } from "../profile/profiles.js"
import type { Tool } from "../tools/contract/Tool.js"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import { MainProcess } from "../layers/driver/ElectronDriver.js"
import { VERSION } from "../version.js"
import semver from "semver"

export class PluginNotFound extends Data.TaggedError("PluginNotFound")<{
  readonly plugin: string
  readonly available: ReadonlyArray<string>
  readonly cause?: unknown
}> {
  override get message() {
    const known = this.available.length > 0 ? this.available.join(", ") : "none yet"
    return `Plugin "${this.plugin}" not found: not a first-party plugin (${known}) and not a loadable module path or package`
  }
}

export class PluginInvalid extends Data.TaggedError("PluginInvalid")<{ readonly plugin: string; readonly reason: string }> {
  override get message() {
    return `Plugin "${this.plugin}" is not a valid Stagewright plugin: ${this.reason}`
  }
}

export class ToolNameConflict extends Data.TaggedError("ToolNameConflict")<{
  readonly tool: string
  readonly plugin: string
  readonly owner: string
}> {
  override get message() {
    return `Plugin "${this.plugin}" defines ${this.tool}, which ${this.owner} already defines`
  }
}

export class PluginVersionMismatch extends Data.TaggedError("PluginVersionMismatch")<{
  readonly plugin: string
  readonly supports: string
  readonly version: string
}> {
  override get message() {
    return `Plugin "${this.plugin}" supports Stagewright ${this.supports}, and this is Stagewright ${this.version}: upgrade one of them`
  }
}

export class PluginConfigInvalid extends Data.TaggedError("PluginConfigInvalid")<{ readonly plugin: string; readonly reason: string }> {
  override get message() {
    return `--plugin-config ${this.plugin}: ${this.reason}`
  }
}

export type PluginLoadError = PluginNotFound | PluginInvalid | ToolNameConflict | PluginVersionMismatch | PluginConfigInvalid

export interface LoadedPluginsShape {
  readonly plugins: ReadonlyArray<Plugin>
  /** Each loaded plugin's decoded configuration, for electron_plugins (Redacted values stay redacted). */
  readonly settings: Readonly<Record<string, unknown>>
  readonly tools: ReadonlyArray<Tool>
  /** The loaded plugins' call observers, each with its plugin's name (the Dispatcher builds and runs them). */
  readonly observers: ReadonlyArray<{ readonly plugin: string; readonly observer: CallObserver }>
  /** First-party plugins that exist but are not loaded (for `restart with --plugin NAME` hints). */
  readonly available: ReadonlyArray<string>
}

export class LoadedPlugins extends Context.Tag("stagewright/LoadedPlugins")<LoadedPlugins, LoadedPluginsShape>() {}

export type PluginRegistry = Readonly<Record<string, () => Promise<Plugin>>>

/** The first-party plugin a tool name would belong to (electron_<plugin>_...), among `names`. */
export const pluginOfToolName = (tool: string, names: ReadonlyArray<string>): string | undefined => names.find((name) => tool.startsWith(`electron_${name}_`))

/** One line per configuration field that failed, naming its path. */
const formatIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(value)"}: ${issue.message}`)
    .join("; ")

/** The longest description a third-party plugin's tool is listed with (first-party ones are under 400 characters). */
export const MAX_PLUGIN_DESCRIPTION = 1_000

const boundDescription = <T extends { readonly description: string }>(tool: T): T =>
  tool.description.length <= MAX_PLUGIN_DESCRIPTION ? tool : { ...tool, description: `${tool.description.slice(0, MAX_PLUGIN_DESCRIPTION - 1).trimEnd()}…` }

const looksLikePath = (spec: string) => spec.startsWith(".") || isAbsolute(spec) || /\.(c|m)?js$/.test(spec)

const importPlugin = (registry: PluginRegistry, spec: string): Effect.Effect<unknown, PluginNotFound> => {
  const firstParty = registry[spec]
  const available = Object.keys(registry).sort()
  const load = firstParty ?? (() => dynamicImport<unknown>(looksLikePath(spec) ? pathToFileURL(resolve(spec)).href : spec))
  return Effect.tryPromise({
    try: async () => {
      const mod: any = await load()
      return firstParty !== undefined ? mod : (mod?.default ?? mod?.plugin)
    },
    catch: (cause) => new PluginNotFound({ plugin: spec, available, cause })
  })
}

export class PluginLoader extends Context.Tag("stagewright/PluginLoader")<
  PluginLoader,
  {
    readonly load: (specs: ReadonlyArray<string>, config?: Readonly<Record<string, unknown>>) => Effect.Effect<LoadedPluginsShape, PluginLoadError>
  }
>() {
  static readonly make = (registry: PluginRegistry) =>
    PluginLoader.of({
      load: Effect.fn("PluginLoader.load")(function* (specs: ReadonlyArray<string>, config: Readonly<Record<string, unknown>> = {}) {
        const owners = new Map<string, string>()
        for (const name of [...CORE_TOOL_NAMES, ...EVAL_TOOL_NAMES]) owners.set(name, "the core")
        const plugins: Array<Plugin> = []
        const settings: Record<string, unknown> = {}
        for (const spec of [...new Set(specs)]) {
          const value = yield* importPlugin(registry, spec)
          const plugin = yield* Schema.decodeUnknown(PluginValue)(value).pipe(
            Effect.mapError((error) => new PluginInvalid({ plugin: spec, reason: ParseResult.TreeFormatter.formatErrorSync(error) }))
          )
          if (!semver.satisfies(VERSION, plugin.stagewright, { includePrerelease: true })) {
            if (semver.validRange(plugin.stagewright) === null) {
              return yield* new PluginInvalid({ plugin: spec, reason: `stagewright: "${plugin.stagewright}" is not a semver range (for example ">=0.1.0 <1")` })
            }
            return yield* new PluginVersionMismatch({ plugin: plugin.name, supports: plugin.stagewright, version: VERSION })
          }
          for (const [i, tool] of (value as Plugin).tools.entries()) {
            yield* Schema.decodeUnknown(ToolNeedsValue)(tool).pipe(
              Effect.mapError((error) => new PluginInvalid({ plugin: spec, reason: `tools[${i}] (${tool.name}): ${formatIssues(error)}` }))
            )
          }
          for (const tool of plugin.tools) {
            const owner = owners.get(tool.name)
            if (owner !== undefined) return yield* new ToolNameConflict({ tool: tool.name, plugin: plugin.name, owner })
            owners.set(tool.name, `plugin "${plugin.name}"`)
          }
          // Keep the original values (the decoded copy has the same fields); tag the tools with their plugin.
          const original = value as Plugin
          const schema = original.config ?? Schema.Unknown
          settings[plugin.name] = yield* Schema.decodeUnknown(schema)(config[plugin.name] ?? config[spec] ?? {}).pipe(
            Effect.mapError((error) => new PluginConfigInvalid({ plugin: plugin.name, reason: formatIssues(error) }))
          )
          // A third-party tool's description is listed to every host: bounded, as a first-party one is by review.
          const tools = original.tools.map((tool) => ({ ...tool, plugin: plugin.name }))
          const bounded = registry[spec] !== undefined ? tools : tools.map((tool) => boundDescription(tool))
          for (const [i, tool] of bounded.entries()) {
            if (tool !== tools[i])
              yield* Effect.logWarning(
                `plugin ${plugin.name}: the description of ${tool.name} (${tools[i]!.description.length} characters) is listed cut to ${MAX_PLUGIN_DESCRIPTION}`
              )
          }
          plugins.push({ ...original, tools: bounded })
        }
        const unused = Object.keys(config).filter((name) => !plugins.some((p) => p.name === name) && !specs.includes(name))
        if (unused.length > 0) {
          return yield* new PluginConfigInvalid({ plugin: unused[0]!, reason: "no plugin of that name is loaded (add --plugin NAME)" })
        }
        const loadedNames = new Set(plugins.map((p) => p.name))
        return {
          plugins,
          settings,
          tools: plugins.flatMap((p) => p.tools),
          observers: plugins.flatMap((p) => (p.observers ?? []).map((observer) => ({ plugin: p.name, observer }))),
          available: Object.keys(registry)
            .filter((name) => !loadedNames.has(name))
            .sort()
        }
      })
    })

  /** The loader over the first-party registry. */
  static readonly layer = Layer.succeed(PluginLoader, PluginLoader.make(firstPartyPlugins))
  /** A loader over another registry (tests, integrators with their own first-party set). */
  static readonly layerRegistry = (registry: PluginRegistry) => Layer.succeed(PluginLoader, PluginLoader.make(registry))

  /**
   * LoadedPlugins from the configured `--plugin` list and `--plugin-config` values; the loaded plugins'
   * main-process hooks are registered with the driver's MainProcess (an unloaded plugin's never are).
   */
  static readonly layerLoaded = Layer.effect(
    LoadedPlugins,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const loader = yield* PluginLoader
      const mainProcess = yield* MainProcess
      const loaded = yield* loader.load(config.plugins, config.pluginConfig ?? {})
      yield* mainProcess.installMainHooks(loaded.plugins.flatMap((p) => p.mainHooks ?? []))
      return loaded
    })
  )
}
