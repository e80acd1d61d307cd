/**
 * Issue 24, item 1: the stages every tool call runs through (src/tools/pipeline/guard.ts), from what the tool
 * declares (Tool.ts). Over test doubles of the driver's services (a running app, and web dialogs the test
 * fires): a dialog the call did not claim ends a page-touching call with DIALOG_OPEN (the handler is
 * interrupted), a dialog its own action claimed leaves its result to it, a tool that declares it touches
 * no page is not held to dialogs, declared file arguments are confined before the handler runs, and
 * declared targets are read by path.
 * The documentation manifest declares DIALOG_OPEN for every page-touching tool, plugin tools included.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Deferred, Effect, Exit, Fiber, FiberRef, Layer, Option, Schema } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ServerConfig } from "../../src/layers/config/ServerConfig.js"
import {
  AppLifecycle,
  budgetMs,
  CallDeadline,
  ModalClaims,
  Dialogs,
  MainProcess,
  PageOps,
  Snapshots,
  Windows,
  type DriverServices,
  type PendingDialog
} from "../../src/layers/driver/ElectronDriver.js"
import { AppSession } from "../../src/layers/driver/session.js"
import { PluginLoader } from "../../src/plugins/PluginLoader.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { ProfileSelector } from "../../src/profile/ProfileSelector.js"
import { runStages } from "../../src/tools/pipeline/guard.js"
import { manifestEntry } from "../../src/tools/pipeline/manifest.js"
import { argumentsAt } from "../../src/tools/contract/tool-args.js"
import { defineTool, type Tool } from "../../src/tools/contract/Tool.js"

/** A driver with a running app whose web dialogs the test opens; only what the stages use. */
const fakeDriver = Effect.gen(function* () {
  const listeners = new Set<(dialog: PendingDialog) => void>()
  const watched = yield* Deferred.make<void>()
  // A running app (it has not exited); the stages read nothing else of it.
  const running = new AppSession({ kind: "launched", context: undefined as never })
  const lifecycle = AppLifecycle.layerTest({ current: Effect.succeed(running) })
  const dialogs = Dialogs.layerTest({
    onModal: (listener: (dialog: PendingDialog) => void) =>
      Effect.sync(() => {
        listeners.add(listener)
        Deferred.unsafeDone(watched, Exit.void)
        return () => listeners.delete(listener)
      })
  })
  const open = (message: string): PendingDialog => {
    const dialog = { window: "w1", type: "confirm", message, defaultValue: "", dialog: undefined as never }
    for (const listener of [...listeners]) listener(dialog)
    return dialog
  }
  // The stages use no other driver service: any call to one is a defect naming it.
  const unused = Layer.mergeAll(Windows.layerTest({}), Snapshots.layerTest({}), MainProcess.layerTest({}), PageOps.layerTest({}))
  return { layer: Layer.mergeAll(lifecycle, dialogs, unused), watched, open, listeners }
})

const services = (driver: Layer.Layer<DriverServices>, config: Partial<ServerConfig["Type"]> = {}) =>
  Layer.mergeAll(driver, ServerConfig.layer(config), ProfileSelector.layer({ toolProfile: "full" }))

type Services = DriverServices | ServerConfig
const tool = (fields: Partial<Omit<Tool<any, Services>, "errors">> & Pick<Tool<any, Services>, "handler">): Tool<any, Services> =>
  defineTool({ name: "electron_test_tool", description: "A tool for the stage tests.", type: "interact", errors: [], input: Schema.Struct({}), ...fields })

const failureOf = <A, E>(exit: Exit.Exit<A, E>) => (Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined)

describe("the call's stages", () => {
  it.live("a dialog that opens during a page-touching call, unclaimed, ends it at once with DIALOG_OPEN", () =>
    Effect.gen(function* () {
      const fake = yield* fakeDriver
      const interrupted = yield* Deferred.make<void>()
      const hanging = tool({ handler: () => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))) })
      const fiber = yield* Effect.fork(runStages(hanging, {}).pipe(Effect.provide(services(fake.layer))))
      yield* Deferred.await(fake.watched)
      fake.open("Delete it?")
      const exit = yield* Fiber.await(fiber)
      expect(failureOf(exit)).toMatchObject({
        _tag: "DialogOpen",
        window: "w1",
        dialog: "confirm",
        dialogMessage: "Delete it?",
        hint: expect.stringContaining("electron_web_dialog")
      })
      expect(String((failureOf(exit) as { message: string }).message)).toContain('A confirm dialog is open in w1: "Delete it?"')
      yield* Deferred.await(interrupted)
      expect(fake.listeners.size).toBe(0)
    })
  )

  it.live("a dialog the call's own action claimed is left to the action's result", () =>
    Effect.gen(function* () {
      const fake = yield* fakeDriver
      const listening = yield* Deferred.make<void>()
      // What the driver's race (the modal room) does: claim the dialog in the same event, and answer with it.
      const claiming = tool({
        handler: () =>
          Effect.gen(function* () {
            const claims = yield* FiberRef.get(ModalClaims)
            const seen = yield* Deferred.make<PendingDialog>()
            const dialogs = yield* Dialogs
            yield* dialogs.onModal((dialog) => {
              claims?.add(dialog)
              Deferred.unsafeDone(seen, Exit.succeed(dialog))
            })
            yield* Deferred.succeed(listening, undefined)
            const dialog = yield* Deferred.await(seen)
            return { text: `The action opened a ${dialog.type}` }
          })
      })
      const fiber = yield* Effect.fork(runStages(claiming, {}).pipe(Effect.provide(services(fake.layer))))
      yield* Deferred.await(listening)
      fake.open("Mine")
      expect(yield* Fiber.join(fiber)).toEqual({ text: "The action opened a confirm" })
    })
  )

  it.live("a tool that touches no page is not held to dialogs", () =>
    Effect.gen(function* () {
      const fake = yield* fakeDriver
      const release = yield* Deferred.make<void>()
      const offPage = tool({ touchesPage: false, handler: () => Effect.as(Deferred.await(release), { text: "done" }) })
      const fiber = yield* Effect.fork(runStages(offPage, {}).pipe(Effect.provide(services(fake.layer))))
      yield* Effect.yieldNow()
      fake.open("Not mine")
      expect(fake.listeners.size).toBe(0)
      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(fiber)).toEqual({ text: "done" })
    })
  )

  it.live("declared file arguments are confined to --app-root before the handler runs", () =>
    Effect.gen(function* () {
      const fake = yield* fakeDriver
      const root = mkdtempSync(join(tmpdir(), "stagewright-root-"))
      let ran = false
      const reading = tool({
        files: ["paths[]", "rules[].answer.filePath"],
        touchesPage: false,
        handler: () => Effect.sync(() => ((ran = true), { text: "read" }))
      })
      const outside = yield* Effect.exit(
        runStages(reading, { paths: [join(root, "a.txt"), "/etc/passwd"] }).pipe(Effect.provide(services(fake.layer, { appRoot: root })))
      )
      expect(failureOf(outside)).toMatchObject({ _tag: "PathNotAllowed" })
      expect((failureOf(outside) as { message: string }).message).toContain("paths[1]")
      const nested = yield* Effect.exit(
        runStages(reading, { rules: [{ answer: { filePath: "/etc/hosts" } }] }).pipe(Effect.provide(services(fake.layer, { appRoot: root })))
      )
      expect((failureOf(nested) as { message: string }).message).toContain("rules[0].answer.filePath")
      expect(ran).toBe(false)
      expect(yield* runStages(reading, { paths: [join(root, "a.txt")] }).pipe(Effect.provide(services(fake.layer, { appRoot: root })))).toEqual({
        text: "read"
      })
    })
  )
})

describe("argument paths", () => {
  it("name each value by its argument, through lists and nested fields, strings only", () => {
    expect(argumentsAt({ source: "a", target: "b" }, ["source", "target"])).toEqual([
      { name: "source", value: "a", inList: false },
      { name: "target", value: "b", inList: false }
    ])
    expect(argumentsAt({ fields: [{ target: "x" }, { target: 5 }, { target: "z" }] }, ["fields[].target"]).map((a) => a.name)).toEqual([
      "fields[0].target",
      "fields[2].target"
    ])
    expect(argumentsAt({ paths: ["/a", "/b"] }, ["paths[]"])).toEqual([
      { name: "paths[0]", value: "/a", inList: true },
      { name: "paths[1]", value: "/b", inList: true }
    ])
    expect(argumentsAt({}, ["target", "fields[].target"])).toEqual([])
    expect(argumentsAt(null, ["target"])).toEqual([])
  })
})

describe("the call's budget", () => {
  it.live("bounds a Playwright call by the smaller of its own timeout and what is left of the call", () =>
    Effect.gen(function* () {
      expect(yield* budgetMs(5_000)).toBe(5_000)
      const now = Date.now()
      const within = (ms: number) => Effect.locally(budgetMs(ms), CallDeadline, now + 2_000)
      expect(yield* within(600_000)).toBeLessThanOrEqual(2_000)
      expect(yield* within(500)).toBe(500)
      // 0 is Playwright's "no timeout": the call's budget bounds it.
      expect(yield* within(0)).toBeLessThanOrEqual(2_000)
      expect(yield* Effect.locally(budgetMs(5_000), CallDeadline, now - 10)).toBe(1)
    })
  )
})

describe("the documentation manifest", () => {
  it.effect("declares DIALOG_OPEN for every page-touching tool, plugin tools included, and not for the others", () =>
    Effect.gen(function* () {
      const perf = yield* Effect.promise(() => firstPartyPlugins["perf"]!())
      const production = yield* Effect.promise(() => firstPartyPlugins["production"]!())
      for (const t of perf.tools) expect(manifestEntry({ ...t, plugin: "perf" }).errors, t.name).toContain("DIALOG_OPEN")
      const byName = new Map(production.tools.map((t) => [t.name, manifestEntry({ ...t, plugin: "production" })]))
      expect(byName.get("electron_production_audit")!.errors).toContain("DIALOG_OPEN")
      expect(byName.get("electron_production_find_build")!.errors).not.toContain("DIALOG_OPEN")
      expect(manifestEntry(tool({ handler: () => Effect.succeed({ text: "" }) })).errors).toContain("DIALOG_OPEN")
      expect(manifestEntry(tool({ touchesPage: false, handler: () => Effect.succeed({ text: "" }) })).errors).not.toContain("DIALOG_OPEN")
    })
  )
})

describe("a plugin tool's declarations", () => {
  it.effect("are checked when the plugin is loaded: a bad argument path is refused naming the tool", () =>
    Effect.gen(function* () {
      const plugin = (targets: ReadonlyArray<string>) => ({
        name: "needs",
        purpose: "Declares what its tool needs.",
        stagewright: ">=0.1.0 <1",
        tools: [
          {
            name: "needs_tool",
            description: "A tool that declares its targets.",
            input: Schema.Struct({}),
            type: "read",
            errors: [],
            targets,
            handler: () => Effect.succeed({ text: "" })
          }
        ]
      })
      const load = (targets: ReadonlyArray<string>) =>
        Effect.flatMap(PluginLoader, (l) => l.load(["needs"])).pipe(Effect.provide(PluginLoader.layerRegistry({ needs: async () => plugin(targets) as never })))
      const loaded = yield* load(["source", "fields[].target"])
      expect(loaded.tools[0]).toMatchObject({ name: "needs_tool", targets: ["source", "fields[].target"], plugin: "needs" })
      const refused = yield* Effect.flip(load(["not a path"]))
      expect(refused._tag).toBe("PluginInvalid")
      expect(refused.message).toContain("tools[0] (needs_tool): targets.0")
    })
  )
})
