/**
 * MainProcess: code run in the app's Electron main process (playwright-core's evaluate for a launched app,
 * the Node inspector for an attached one), for the app or for one window's BrowserWindow; the hooks loaded
 * plugins install there at every launch or attach; and the errors the main process recorded.
 */
import { Context, Effect, Layer, Ref } from "effect"
import { spanned } from "./spans.js"
import * as failedLoads from "./failed-loads.js"
import { windowOfTarget } from "./main-hooks.js"
import type { AppSession, Surface } from "./session.js"
import { needsMainProcess, SessionStore, type MainCode } from "./SessionStore.js"
import type { BrowserWindowHandle, ElectronModule, MainError, MainHook, SessionError } from "./shape.js"
import { targetIdOf as readTargetId } from "./surfaces.js"
import { testDouble } from "./test-double.js"
import { keptText } from "./buffers.js"

export interface MainProcessShape {
  /** Runs `fn(electron, arg)` in the main process (needs a launched app or an attached inspector). */
  readonly evaluateMain: <R, A>(what: string, fn: MainCode<R, A>, arg: A) => Effect.Effect<R, MainError>
  /** Runs `fn(browserWindow, arg)` in the main process for a window. */
  readonly evaluateWindow: <R, A>(entry: Surface, what: string, fn: (win: BrowserWindowHandle, arg: A) => R | Promise<R>, arg: A) => Effect.Effect<R, MainError>
  /**
   * Registers main-process hooks: installed in the running app now (when it has a main process) and at
   * every later launch or attach. Only loaded plugins call it, so an unloaded plugin's hooks never run.
   */
  readonly installMainHooks: (hooks: ReadonlyArray<MainHook>) => Effect.Effect<void>
  /** Moves main-process errors (uncaught exceptions, crashed or unresponsive renderers) into the session's buffer. */
  readonly pullMainErrors: Effect.Effect<void, SessionError>
}

const make = Effect.gen(function* () {
  const store = yield* SessionStore

  const evaluateMain = <R, A>(what: string, fn: MainCode<R, A>, arg: A): Effect.Effect<R, MainError> =>
    Effect.flatMap(store.session, (s) => store.evaluateIn<R, A>(s, what, fn, arg)).pipe(spanned("MainProcess.evaluateMain", { what }))

  const targetIdOf = (s: AppSession, entry: Surface) => readTargetId(s, entry, store.run)

  const evaluateWindow = <R, A>(entry: Surface, what: string, fn: (win: BrowserWindowHandle, arg: A) => R | Promise<R>, arg: A): Effect.Effect<R, MainError> =>
    Effect.gen(function* () {
      const s = yield* store.session
      if (!s.hasMainProcess) return yield* needsMainProcess(s, what)
      const targetId = yield* targetIdOf(s, entry)
      const wrapper = `async (electron, input) => {
        const __name = (target) => target
        const win = (${windowOfTarget.toString()})(electron, input.targetId)
        return await (${fn.toString()})(win, input.arg)
      }`
      return yield* store.evaluateIn<R, { targetId: string; arg: A }>(s, what, wrapper, { targetId, arg })
    }).pipe(spanned("MainProcess.evaluateWindow", { what }))

  const installMainHooks = (list: ReadonlyArray<MainHook>) =>
    Effect.gen(function* () {
      yield* Ref.update(store.hooks, (known) => [...known, ...list.filter((hook) => !known.some((k) => k.name === hook.name))])
      const s = yield* store.current
      if (s !== undefined && !s.exit) yield* store.installHooksIn(s, list)
    })

  const pullMainErrors: MainProcessShape["pullMainErrors"] = Effect.gen(function* () {
    const s = yield* store.session
    if (!s.hasMainProcess) return
    const fresh = yield* store
      .evaluateIn(
        s,
        "read main-process errors",
        (_electron: ElectronModule, after: number) => {
          const hooks = (globalThis as { __stagewright?: { errors: Array<{ seq: number }> } }).__stagewright
          return hooks ? hooks.errors.filter((e) => e.seq > after) : []
        },
        s.mainErrorCursor
      )
      .pipe(Effect.orElseSucceed(() => []))
    for (const e of fresh as Array<{ seq: number; at: number; kind: "main" | "crash" | "unresponsive"; message: string }>) {
      s.mainErrorCursor = Math.max(s.mainErrorCursor, e.seq)
      s.errors.push({ at: e.at, kind: e.kind, message: keptText(e.message) })
    }
    yield* failedLoads.resolveFailedLoadWindows(s)
  }).pipe(spanned("MainProcess.pullMainErrors"))

  return MainProcess.of({ evaluateMain, evaluateWindow, installMainHooks, pullMainErrors })
})

export class MainProcess extends Context.Tag("stagewright/MainProcess")<MainProcess, MainProcessShape>() {
  static readonly layer = Layer.effect(MainProcess, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<MainProcessShape>) => Layer.succeed(MainProcess, testDouble("MainProcess", given, ["pullMainErrors"]))
}
