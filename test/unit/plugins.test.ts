import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { fileURLToPath } from "node:url"
import { MainProcess, type MainHook } from "../../src/layers/driver/ElectronDriver.js"
import { ServerConfig } from "../../src/layers/config/ServerConfig.js"
import { definePlugin, pluginSettings, type Plugin } from "../../src/plugins/Plugin.js"
import { LoadedPlugins, PluginLoader } from "../../src/plugins/PluginLoader.js"
import { coreLayer } from "../../src/server/Stagewright.js"
import { Dispatcher } from "../../src/server/Dispatcher.js"

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url))

const Settings = Schema.Struct({
  greeting: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1)), { default: () => "hello" }),
  token: Schema.optional(Schema.Redacted(Schema.String))
})

const firstParty = definePlugin({
  name: "demo",
  purpose: "A first-party plugin for this test.",
  stagewright: ">=0.1.0 <1",
  config: Settings,
  tools: [
    {
      name: "electron_demo_hello",
      description: "Says hello, to prove registry plugins load.",
      input: Schema.Struct({}),
      type: "read",
      errors: [],
      handler: () => Effect.map(pluginSettings("demo", Settings), (s) => ({ text: s.greeting }))
    }
  ]
})

/** A MainProcess double that records the hooks it is asked to install. */
const recordingMainProcess = (installed: Array<string>) =>
  MainProcess.layerTest({
    installMainHooks: (hooks: ReadonlyArray<MainHook>) => Effect.sync(() => installed.push(...hooks.map((h) => h.name)))
  })

const loaderWith = (registry: Record<string, () => Promise<Plugin<any>>> = {}) => PluginLoader.layerRegistry(registry)

layer(loaderWith({ demo: async () => firstParty }))("PluginLoader", (it) => {
  it.effect("loads a third-party plugin from a module path and tags its tools", () =>
    Effect.gen(function* () {
      const loaded = yield* Effect.flatMap(PluginLoader, (l) => l.load([fixture("sample-plugin.mjs")]))
      expect(loaded.plugins.map((p) => p.name)).toEqual(["sample"])
      expect(loaded.tools.every((t) => t.plugin === "sample")).toBe(true)
    })
  )

  it.effect("lists a third-party tool's over-long description bounded", () =>
    Effect.gen(function* () {
      const loaded = yield* Effect.flatMap(PluginLoader, (l) => l.load([fixture("verbose-plugin.mjs")]))
      const description = loaded.tools[0]!.description
      expect(description.length).toBeLessThanOrEqual(1_000)
      expect(description).toMatch(/^Does one thing\. .*…$/)
    })
  )

  it.effect("fails an unknown name with PluginNotFound listing the first-party plugins", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.flatMap(PluginLoader, (l) => l.load(["no-such-plugin"])))
      expect(error._tag).toBe("PluginNotFound")
      expect(error.message).toContain("demo")
    })
  )

  it.effect("fails a malformed plugin value with PluginInvalid saying what is wrong", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.flatMap(PluginLoader, (l) => l.load([fixture("invalid-plugin.mjs")])))
      expect(error._tag).toBe("PluginInvalid")
      expect(error.message).toMatch(/purpose|handler|input|stagewright/)
    })
  )

  it.effect("fails a plugin that reuses a core tool name with ToolNameConflict", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.flatMap(PluginLoader, (l) => l.load([fixture("conflicting-plugin.mjs")])))
      expect(error._tag).toBe("ToolNameConflict")
      expect(error.message).toContain("electron_click")
    })
  )

  it.effect("decodes --plugin-config with the plugin's Schema, and names the plugin and the field of a bad value", () =>
    Effect.gen(function* () {
      const loader = yield* PluginLoader
      const good = yield* loader.load(["demo"], { demo: { greeting: "hi", token: "s3cret" } })
      expect(good.settings.demo).toMatchObject({ greeting: "hi" })
      expect(String((good.settings.demo as { token: unknown }).token)).not.toContain("s3cret")
      const bad = yield* Effect.flip(loader.load(["demo"], { demo: { greeting: "" } }))
      expect(bad._tag).toBe("PluginConfigInvalid")
      expect(bad.message).toMatch(/^--plugin-config demo: greeting: /)
      const stray = yield* Effect.flip(loader.load(["demo"], { other: {} }))
      expect(stray.message).toContain("--plugin-config other: no plugin of that name is loaded")
    })
  )
})

describe("plugin contract checks", () => {
  it.effect("refuses an error code outside the shared vocabulary, a bad version range and an unsupported version", () =>
    Effect.gen(function* () {
      const oddCode = { ...firstParty, tools: [{ ...firstParty.tools[0]!, errors: ["SOMETHING_ODD" as never] }] }
      const notARange = { ...firstParty, stagewright: "whenever" }
      const tooNew = { ...firstParty, stagewright: ">=99" }
      const loadOne = (plugin: Plugin<any>) =>
        Effect.flip(Effect.flatMap(PluginLoader, (l) => l.load(["demo"])).pipe(Effect.provide(loaderWith({ demo: async () => plugin }))))
      const odd = yield* loadOne(oddCode)
      expect(odd._tag).toBe("PluginInvalid")
      expect(odd.message).toContain("SOMETHING_ODD")
      const range = yield* loadOne(notARange)
      expect(range.message).toContain('"whenever" is not a semver range')
      const version = yield* loadOne(tooNew)
      expect(version._tag).toBe("PluginVersionMismatch")
      expect(version.message).toMatch(/supports Stagewright >=99, and this is Stagewright \d/)
    })
  )

  it.effect("registers the main-process hooks of loaded plugins only", () =>
    Effect.gen(function* () {
      const hooked = { ...firstParty, mainHooks: [{ name: "demo-recorder", install: () => undefined }] }
      const installed: Array<string> = []
      const loadedWith = (plugins: ReadonlyArray<string>) =>
        Effect.map(LoadedPlugins, (p) => p.plugins.map((x) => x.name)).pipe(
          Effect.provide(
            PluginLoader.layerLoaded.pipe(
              Layer.provide(loaderWith({ demo: async () => hooked })),
              Layer.provide(recordingMainProcess(installed)),
              Layer.provide(ServerConfig.layer({ plugins }))
            )
          )
        )
      expect(yield* loadedWith([])).toEqual([])
      expect(installed).toEqual([])
      expect(yield* loadedWith(["demo"])).toEqual(["demo"])
      expect(installed).toEqual(["demo-recorder"])
    })
  )
})

describe("the dispatcher and plugins", () => {
  it.live("hints `restart with --plugin NAME` for a tool of a first-party plugin that is not loaded, and serves it once loaded", () =>
    Effect.gen(function* () {
      const registry = { demo: async () => firstParty }
      // coreLayer with the test's registry in place of the first-party one.
      const callHello = (plugins: ReadonlyArray<string>, pluginConfig?: Record<string, unknown>) =>
        Effect.scoped(
          Effect.flatMap(Dispatcher, (d) => d.call("electron_demo_hello", {})).pipe(
            Effect.provide(coreLayer({ plugins, ...(pluginConfig ? { pluginConfig } : {}) }, loaderWith(registry)))
          )
        )
      const missing = yield* callHello([])
      expect(missing.isError).toBe(true)
      expect((missing.content[0] as { text: string }).text).toMatch(/^PLUGIN_NOT_LOADED: .*\nHint: restart with --plugin demo$/)
      const loaded = yield* callHello(["demo"])
      expect(loaded.isError).toBeUndefined()
      expect((loaded.content[0] as { text: string }).text).toBe("hello")
      const configured = yield* callHello(["demo"], { demo: { greeting: "good day" } })
      expect((configured.content[0] as { text: string }).text).toBe("good day")
    })
  )
})
