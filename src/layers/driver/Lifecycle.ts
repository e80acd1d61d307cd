/**
 * AppLifecycle: launches an app through playwright-core's `_electron` (or over CDP for a build whose
 * inspect fuse is off), attaches to a running one, closes it, and answers which session is current. The
 * session is a scoped resource in a child scope of the layer's: closing the app, replacing it, or the
 * server ending (however it ends) closes the Electron process. It also keeps the session's record of
 * steps (for test export) and whether Playwright tracing runs.
 */
import { Context, Effect, ExecutionStrategy, Exit, Layer, Option, Ref, Scope } from "effect"
import { ServerConfig } from "../config/ServerConfig.js"
import { launchOverCdp } from "./cdp-launch.js"
import { AppNotRunning, type InvalidArgument, type LaunchFailed } from "./errors.js"
import { attachSession, launchSession, prepareLaunch } from "./launch.js"
import { gracefulClose } from "./process.js"
import type { AppSession, AttachOptions, LaunchOptions, RecordedStep } from "./session.js"
import { SessionStore } from "./SessionStore.js"
import type { SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"
import * as waits from "./waits.js"

export interface AppLifecycleShape {
  readonly launch: (options: LaunchOptions) => Effect.Effect<AppSession, LaunchFailed | InvalidArgument>
  readonly attach: (options: AttachOptions) => Effect.Effect<AppSession, LaunchFailed>
  readonly close: (timeoutMs?: number) => Effect.Effect<{ readonly graceful: boolean; readonly pid?: number | undefined }, AppNotRunning>
  /** The current session, whether running or ended. */
  readonly current: Effect.Effect<AppSession | undefined>
  /** The running session; fails when none is running or it crashed. */
  readonly session: Effect.Effect<AppSession, SessionError>
  /** Records a step for test export (with the URL its window showed). */
  readonly recordStep: (step: RecordedStep) => Effect.Effect<void>
  /** Records whether Playwright tracing runs. */
  readonly setTracing: (on: boolean) => Effect.Effect<void, SessionError>
}

const make = Effect.gen(function* () {
  const store = yield* SessionStore
  const layerScope = yield* Effect.scope
  // --xvfb (ServerConfig, when the composition provides it): whether a headed launch gets a private Xvfb.
  const xvfbMode = Option.match(yield* Effect.serviceOption(ServerConfig), { onNone: () => "auto" as const, onSome: (config) => config.xvfb ?? "auto" })

  const closeCurrent = (timeoutMs: number) =>
    Effect.gen(function* () {
      const held = yield* Ref.getAndSet(store.state, undefined)
      if (held === undefined) return undefined
      held.session.closing = true
      const pid = held.session.pid
      const graceful = yield* gracefulClose(held.session, timeoutMs)
      yield* Scope.close(held.scope, Exit.void)
      yield* Effect.logInfo(`closed the app${pid ? ` (pid ${pid})` : ""}${graceful ? "" : ", killed after the bound"}`)
      return { graceful, pid }
    })

  /** Registers a fresh session in its own scope; its finalizer makes sure the process is gone. */
  const install = <E>(start: (scope: Scope.Scope) => Effect.Effect<AppSession, E>) =>
    Effect.gen(function* () {
      yield* closeCurrent(5_000)
      const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
      // Failure or interruption (the operation timeout, a cancelled call) closes what was started so far.
      const started = yield* start(scope).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, Exit.void))))
      yield* Ref.set(store.state, { session: started, scope })
      yield* store.installHooksIn(started, yield* Ref.get(store.hooks))
      yield* store.refresh(started)
      return started
    })

  const launch = Effect.fn("AppLifecycle.launch")(function* (options: LaunchOptions) {
    const prepared = yield* prepareLaunch(options)
    const start = (prepared.overCdp ? launchOverCdp : launchSession)(options, prepared, xvfbMode)
    return yield* waits
      .describing(`starting ${options.app ?? prepared.runtime.executablePath} and waiting for its first window`, store.oneAtATime(install(start)))
      .pipe(Effect.tapError((error) => Effect.logWarning(`launch failed: ${error.message}`)))
  })

  const attach = Effect.fn("AppLifecycle.attach")(function* (options: AttachOptions) {
    return yield* store.oneAtATime(install(attachSession(options))).pipe(Effect.tapError((error) => Effect.logWarning(`attach failed: ${error.message}`)))
  })

  const close = Effect.fn("AppLifecycle.close")(function* (timeoutMs: number = 5_000) {
    const result = yield* store.oneAtATime(closeCurrent(timeoutMs))
    if (result === undefined) return yield* new AppNotRunning({ message: "No app to close" })
    return result
  })

  const recordStep = (step: RecordedStep) =>
    Effect.flatMap(store.current, (s) =>
      Effect.sync(() => {
        if (s === undefined) return
        const page = s.windows.find((w) => w.id === step.window)?.page
        s.addStep(page && !page.isClosed() ? { ...step, windowUrl: page.url() } : step)
      })
    )

  // Whatever way the server ends, the app goes with it.
  yield* Effect.addFinalizer(() => Effect.asVoid(closeCurrent(3_000)))

  return AppLifecycle.of({
    launch,
    attach,
    close,
    current: store.current,
    session: store.session,
    recordStep,
    setTracing: (on) => Effect.flatMap(store.session, (s) => Effect.sync(() => s.setTracing(on)))
  })
})

export class AppLifecycle extends Context.Tag("stagewright/AppLifecycle")<AppLifecycle, AppLifecycleShape>() {
  static readonly layer = Layer.scoped(AppLifecycle, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<AppLifecycleShape>) => Layer.succeed(AppLifecycle, testDouble("AppLifecycle", given, ["current", "session"]))
}
