import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { fileURLToPath } from "node:url"
import { PluginLoader } from "../../src/plugins/PluginLoader.js"
import { Dispatcher } from "../../src/server/Dispatcher.js"
import { LoadedPlugins } from "../../src/plugins/PluginLoader.js"
import { ServerConfig } from "../../src/layers/config/ServerConfig.js"
import { Layer } from "effect"
import { ProfileSelector } from "../../src/profile/ProfileSelector.js"
import { EvalPolicy } from "../../src/eval-policy/EvalPolicy.js"
import { ServerState } from "../../src/server/ServerState.js"
import { ElectronDriver } from "../../src/layers/driver/ElectronDriver.js"
import type { Plugin } from "../../src/plugins/Plugin.js"

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/plugins/${name}`, import.meta.url))

const load = (specs: ReadonlyArray<string>, registry: Record<string, () => Promise<Plugin>> = {}) =>
  Effect.runPromise(Effect.either(Effect.flatMap(PluginLoader, (l) => l.load(specs)).pipe(Effect.provide(PluginLoader.layerRegistry(registry)))))

const firstParty: Plugin = {
  name: "demo",
  purpose: "A first-party plugin for this test.",
  tools: [
    {
      name: "electron_demo_hello",
      description: "Says hello, to prove registry plugins load.",
      input: Schema.Struct({}),
      type: "read",
      errors: [],
      handler: () => Effect.succeed({ text: "hello" })
    }
  ]
}

describe("PluginLoader", () => {
  it("loads a third-party plugin from a module path and tags its tools", async () => {
    const result = await load([fixture("sample-plugin.mjs")])
    expect(Either.isRight(result)).toBe(true)
    if (Either.isRight(result)) {
      expect(result.right.plugins.map((p) => p.name)).toEqual(["sample"])
      expect(result.right.tools.every((t) => t.plugin === "sample")).toBe(true)
    }
  })

  it("fails an unknown name with PluginNotFound listing the first-party plugins", async () => {
    const result = await load(["no-such-plugin"], { demo: async () => firstParty })
    expect(Either.isLeft(result) && result.left._tag).toBe("PluginNotFound")
    if (Either.isLeft(result)) expect(result.left.message).toContain("demo")
  })

  it("fails a malformed plugin value with PluginInvalid saying what is wrong", async () => {
    const result = await load([fixture("invalid-plugin.mjs")])
    expect(Either.isLeft(result) && result.left._tag).toBe("PluginInvalid")
    if (Either.isLeft(result)) expect(result.left.message).toMatch(/purpose|handler|input/)
    // An error code outside the shared vocabulary is refused too (hosts and docs read these codes).
    const unknownCode: Plugin = { ...firstParty, tools: [{ ...firstParty.tools[0]!, errors: ["SOMETHING_ODD" as never] }] }
    const odd = await load(["demo"], { demo: async () => unknownCode })
    expect(Either.isLeft(odd) && odd.left._tag).toBe("PluginInvalid")
    if (Either.isLeft(odd)) expect(odd.left.message).toContain("SOMETHING_ODD")
  })

  it("fails a plugin that reuses a core tool name with ToolNameConflict", async () => {
    const result = await load([fixture("conflicting-plugin.mjs")])
    expect(Either.isLeft(result) && result.left._tag).toBe("ToolNameConflict")
    if (Either.isLeft(result)) expect(result.left.message).toContain("electron_click")
  })

  it("hints `restart with --plugin NAME` for a tool of a first-party plugin that is not loaded", async () => {
    const registry = { demo: async () => firstParty }
    const layerFor = (plugins: ReadonlyArray<string>) =>
      Dispatcher.layer.pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            PluginLoader.layerLoaded.pipe(Layer.provide(PluginLoader.layerRegistry(registry))),
            ProfileSelector.layer({}),
            EvalPolicy.layer([]),
            ServerState.layer,
            ElectronDriver.layer
          ).pipe(Layer.provideMerge(ServerConfig.layer({ plugins })))
        )
      )
    const callHello = (plugins: ReadonlyArray<string>) =>
      Effect.runPromise(Effect.scoped(Effect.flatMap(Dispatcher, (d) => d.call("electron_demo_hello", {})).pipe(Effect.provide(layerFor(plugins)))))
    const result = await callHello([])
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toMatch(/^PLUGIN_NOT_LOADED: .*\nHint: restart with --plugin demo$/)
    const loaded = await callHello(["demo"])
    expect(loaded.isError).toBeUndefined()
    expect((loaded.content[0] as { text: string }).text).toBe("hello")
    const names = await Effect.runPromise(Effect.map(LoadedPlugins, (p) => p.available).pipe(
      Effect.provide(PluginLoader.layerLoaded.pipe(Layer.provide(PluginLoader.layerRegistry(registry)), Layer.provide(ServerConfig.layer({}))))
    ))
    expect(names).toEqual(["demo"])
  })
})
