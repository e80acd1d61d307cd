/**
 * The plugin contract. A plugin is a value: a name, a one-line purpose, the Stagewright versions it
 * supports, an optional configuration Schema, optional main-process hooks, optional observers of every tool
 * call (./observer.ts), and tools written exactly like core tools (their handlers reach the app through the
 * call's handle, `callHandle` in src/tools/contract/handle.ts, and yield besides only AppLifecycle for the lifecycle
 * verbs, ServerConfig and EvalPolicy).
 * First-party plugins live in src/plugins/NAME/ and are registered in ./registry.ts; third-party plugins
 * are modules whose default (or `plugin`) export is such a value. Loaded only by `--plugin NAME`.
 */
import { Effect, Schema } from "effect"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import type { CallObserver } from "./observer.js"
import type { MainHook } from "../layers/driver/ElectronDriver.js"
import { ALL_CODES } from "../errors/registry.js"
import { OPERATION_TYPES, type Tool } from "../tools/contract/Tool.js"

export type { MainHook } from "../layers/driver/ElectronDriver.js"
export {
  CallRefused,
  OBSERVER_BOUNDS,
  REDACTED_MARK,
  type CallObserver,
  type CallRecord,
  type CallSettled,
  type CallStart,
  type ObserverHooks
} from "./observer.js"

export interface Plugin<C = unknown> {
  readonly name: string
  readonly purpose: string
  /** The Stagewright versions the plugin supports, as a semver range (">=0.1.0 <1", "^0.1.0"); checked at load. */
  readonly stagewright: string
  /** Decodes `--plugin-config NAME=<json>` at start-up (an absent value decodes `{}`); a bad value stops the server. */
  readonly config?: Schema.Schema<C, any, never> // `any`: the encoded side is whatever JSON the operator wrote
  /** Code installed in the app's main process at every launch or attach, only while the plugin is loaded. */
  readonly mainHooks?: ReadonlyArray<MainHook>
  /** Observers of every tool call (./observer.ts): built once per server, bounded, able to refuse a call. */
  readonly observers?: ReadonlyArray<CallObserver>
  readonly tools: ReadonlyArray<Tool>
}

/** Declares a plugin (the identity function, for inference and documentation). */
export const definePlugin = <C = unknown>(plugin: Plugin<C>): Plugin<C> => plugin

/**
 * A plugin's decoded configuration, for its tool handlers: `--plugin-config NAME=<json>` decoded with the
 * plugin's Schema. The loader has already decoded it once at start-up, so this cannot fail.
 */
export const pluginSettings = <C, I>(name: string, schema: Schema.Schema<C, I, never>): Effect.Effect<C, never, ServerConfig> =>
  Effect.map(ServerConfig, (config) => Schema.decodeUnknownSync(schema)(config.pluginConfig?.[name] ?? {}))

const isFunction = (u: unknown): u is (...args: ReadonlyArray<unknown>) => unknown => typeof u === "function"

/** An argument path of Tool.targets / Tool.files: `file`, `paths[]`, `fields[].target`. */
const ArgumentPath = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_][A-Za-z0-9_]*(?:\[\])?(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\])?)*$/, {
    message: () => "an argument path (file, paths[], fields[].target)"
  })
).annotations({ description: "argument paths: file, paths[] (each item), fields[].target" })

/**
 * What a plugin tool may declare for the call pipeline (Tool.touchesPage, targets, files); checked at load
 * beside PluginValue, tool by tool.
 */
export const ToolNeedsValue = Schema.Struct({
  touchesPage: Schema.optional(Schema.Boolean),
  targets: Schema.optional(Schema.Array(ArgumentPath)),
  files: Schema.optional(Schema.Array(ArgumentPath))
})

/** What a plugin value must look like; checked when the plugin is loaded. */
export const PluginValue = Schema.Struct({
  name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9-]{1,39}$/, { message: () => "a lowercase name (letters, digits, -)" })),
  purpose: Schema.String.pipe(Schema.minLength(8), Schema.maxLength(200)),
  stagewright: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({ description: "a semver range of supported Stagewright versions" }),
  config: Schema.optional(
    Schema.declare((u): u is Schema.Schema.AnyNoContext => Schema.isSchema(u), {
      identifier: "EffectSchema",
      description: "an Effect Schema for the configuration"
    })
  ),
  mainHooks: Schema.optional(
    Schema.Array(
      Schema.Struct({
        name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9-]{1,63}$/, { message: () => "a lowercase hook name" })),
        install: Schema.declare(isFunction, { identifier: "Function", description: "a self-contained function (electron) => void" })
      })
    )
  ),
  observers: Schema.optional(
    Schema.Array(
      Schema.Struct({
        name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9-]{1,63}$/, { message: () => "a lowercase observer name" })),
        make: Schema.declare((u): u is Effect.Effect<unknown> => Effect.isEffect(u), {
          identifier: "Effect",
          description: "an Effect building the observer's hooks"
        })
      })
    )
  ),
  tools: Schema.Array(
    Schema.Struct({
      name: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_]{2,63}$/, { message: () => "a snake_case tool name" })),
      description: Schema.String.pipe(Schema.minLength(20)),
      input: Schema.declare((u): u is Schema.Schema.AnyNoContext => Schema.isSchema(u), {
        identifier: "EffectSchema",
        description: "an Effect Schema for the tool's input"
      }),
      type: Schema.Literal(...OPERATION_TYPES),
      evalTarget: Schema.optional(Schema.Literal("renderer", "main")),
      errors: Schema.Array(Schema.Literal(...ALL_CODES)),
      destructive: Schema.optional(Schema.Boolean),
      openWorld: Schema.optional(Schema.Boolean),
      readOnly: Schema.optional(Schema.Boolean),
      title: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60))),
      idempotent: Schema.optional(Schema.Boolean),
      handler: Schema.declare(isFunction, { identifier: "Function", description: "a function returning an Effect" })
    })
  ).pipe(Schema.minItems(1))
})
