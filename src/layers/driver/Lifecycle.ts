/**
 * AppLifecycle: launches an app through playwright-core's `_electron` (or over CDP for a build whose
 * inspect fuse is off), attaches to a running one, closes it, and answers which session is current. The
 * session is a scoped resource in a child scope of the layer's: closing the app, replacing it, or the
 * server ending (however it ends) closes the Electron process. It also keeps the session's record of
 * steps (for test export) and whether Playwright tracing runs.
 */
import { Context, Effect, ExecutionStrategy, Exit, Layer, Option, Ref, Scope } from "effect"
import { DEFAULT_MAX_APPS, ServerConfig } from "../config/ServerConfig.js"
import { hideSecrets } from "../config/secrets-file.js"
import { launchOverCdp } from "./cdp-launch.js"
import { AppNotRunning, LaunchFailed, type InvalidArgument } from "./errors.js"
import { attachProcess, type ProcessAttachOptions } from "./attach-main.js"
import { attachSession, launchSession, prepareLaunch } from "./launch.js"
import { gracefulClose } from "./process.js"
import type { AppSession, AttachOptions, LaunchOptions, RecordedStep } from "./session.js"
import { SessionStore, type HeldSession, type HeldSessions } from "./SessionStore.js"
import type { SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"
import * as waits from "./waits.js"

/** One of the server's app sessions, as electron_status lists them. */
export interface SessionListing {
  readonly name: string
  readonly active: boolean
  readonly session: AppSession
}

export interface AppLifecycleShape {
  /**
   * Starts an app as the session `name` (default: the active session's name, else "app") and makes it active.
   * A session of that name is closed first; a new name beyond --max-apps fails.
   */
  readonly launch: (options: LaunchOptions, name?: string) => Effect.Effect<AppSession, LaunchFailed | InvalidArgument>
  readonly attach: (options: AttachOptions, name?: string) => Effect.Effect<AppSession, LaunchFailed>
  /** Attaches by pid to an app without a debug port, through its main-process inspector (opened with SIGUSR1). */
  readonly attachProcess: (options: ProcessAttachOptions, name?: string) => Effect.Effect<AppSession, LaunchFailed>
  /** Closes the named session (default: the active one); another session, if any, becomes active. */
  readonly close: (
    timeoutMs?: number,
    name?: string
  ) => Effect.Effect<{ readonly graceful: boolean; readonly pid?: number | undefined; readonly name: string }, AppNotRunning>
  /** Makes a session the active one (the one tools act on). */
  readonly selectSession: (name: string) => Effect.Effect<AppSession, AppNotRunning>
  /** The server's sessions, oldest first. */
  readonly sessions: Effect.Effect<ReadonlyArray<SessionListing>>
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
  const config = yield* Effect.serviceOption(ServerConfig)
  const xvfbMode = Option.match(config, { onNone: () => "auto" as const, onSome: (c) => c.xvfb ?? "auto" })
  // --app-root bounds where the app's own Electron is looked up (the launch policy checked the same folders).
  const appRoot = Option.match(config, { onNone: () => undefined, onSome: (c) => c.appRoot })
  // The operator's secrets (--secrets) never enter a recorded step: an exported test shows {{secret:NAME}}.
  const secrets = Option.match(config, { onNone: () => undefined, onSome: (c) => c.secrets })
  // --max-apps: how many app sessions this server holds at once.
  const maxApps = Option.match(config, { onNone: () => DEFAULT_MAX_APPS, onSome: (c) => c.maxApps ?? DEFAULT_MAX_APPS })

  const names = (held: HeldSessions) => held.sessions.map((h) => h.name).join(", ") || "none"

  /** Closes the session `name` (gone from the list first, so nothing picks it meanwhile); undefined when there is none. */
  const closeOne = (name: string, timeoutMs: number) =>
    Effect.gen(function* () {
      const held = yield* Ref.modify(store.state, (all): [HeldSession | undefined, HeldSessions] => {
        const found = all.sessions.find((h) => h.name === name)
        if (found === undefined) return [undefined, all]
        const rest = all.sessions.filter((h) => h !== found)
        return [found, { sessions: rest, active: all.active === name ? rest[rest.length - 1]?.name : all.active }]
      })
      if (held === undefined) return undefined
      held.session.closing = true
      const pid = held.session.pid
      const graceful = yield* gracefulClose(held.session, timeoutMs)
      yield* Scope.close(held.scope, Exit.void)
      yield* Effect.logInfo(`closed the app ${name}${pid ? ` (pid ${pid})` : ""}${graceful ? "" : ", killed after the bound"}`)
      return { graceful, pid, name }
    })

  /** Registers a fresh session `name` in its own scope; its finalizer makes sure the process is gone. */
  const install = <E>(requested: string | undefined, start: (scope: Scope.Scope) => Effect.Effect<AppSession, E>) =>
    Effect.gen(function* () {
      const before = yield* Ref.get(store.state)
      const name = requested ?? before.active ?? "app"
      if (!before.sessions.some((h) => h.name === name) && before.sessions.length >= maxApps) {
        return yield* new LaunchFailed({
          message: `This server already holds ${before.sessions.length} app sessions (${names(before)}), its bound (--max-apps ${maxApps})`,
          hint: "Close one (electron_select_window session=NAME, then electron_close), reuse a session's name to replace its app, or restart the server with a larger --max-apps."
        })
      }
      yield* closeOne(name, 5_000)
      const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
      // Failure or interruption (the operation timeout, a cancelled call) closes what was started so far.
      const started = yield* start(scope).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, Exit.void))))
      yield* Ref.update(store.state, (all) => ({ sessions: [...all.sessions, { name, session: started, scope }], active: name }))
      yield* store.installHooksIn(started, yield* Ref.get(store.hooks))
      yield* store.refresh(started)
      return started
    })

  const launch = Effect.fn("AppLifecycle.launch")(function* (options: LaunchOptions, name?: string) {
    const prepared = yield* prepareLaunch(options, appRoot)
    const start = (prepared.overCdp ? launchOverCdp : launchSession)(options, prepared, xvfbMode)
    return yield* waits
      .describing(`starting ${options.app ?? prepared.runtime.executablePath} and waiting for its first window`, store.oneAtATime(install(name, start)))
      .pipe(Effect.tapError((error) => Effect.logWarning(`launch failed: ${error.message}`)))
  })

  const attach = Effect.fn("AppLifecycle.attach")(function* (options: AttachOptions, name?: string) {
    return yield* store.oneAtATime(install(name, attachSession(options))).pipe(Effect.tapError((error) => Effect.logWarning(`attach failed: ${error.message}`)))
  })

  const attachToProcess = Effect.fn("AppLifecycle.attachProcess")(function* (options: ProcessAttachOptions, name?: string) {
    return yield* store
      .oneAtATime(install(name, attachProcess(options)))
      .pipe(Effect.tapError((error) => Effect.logWarning(`attach to pid ${options.pid} failed: ${error.message}`)))
  })

  const close = Effect.fn("AppLifecycle.close")(function* (timeoutMs: number = 5_000, name?: string) {
    const all = yield* Ref.get(store.state)
    const wanted = name ?? all.active
    const result = wanted === undefined ? undefined : yield* store.oneAtATime(closeOne(wanted, timeoutMs))
    if (result === undefined) {
      return yield* new AppNotRunning({ message: name === undefined ? "No app to close" : `No app session ${name} (sessions: ${names(all)})` })
    }
    return result
  })

  const selectSession = (name: string) =>
    store.serialized(
      Effect.flatMap(Ref.get(store.state), (all) => {
        const found = all.sessions.find((h) => h.name === name)
        if (found === undefined)
          return Effect.fail(new AppNotRunning({ message: `No app session ${name} (sessions: ${names(all)})`, hint: "electron_status lists the sessions." }))
        return Effect.as(Ref.set(store.state, { ...all, active: name }), found.session)
      })
    )

  const recordStep = (step: RecordedStep) =>
    Effect.flatMap(store.current, (s) =>
      Effect.sync(() => {
        if (s === undefined) return
        const page = s.windows.find((w) => w.id === step.window)?.page
        const kept = { ...step, code: hideSecrets(step.code, secrets) }
        s.addStep(page && !page.isClosed() ? { ...kept, windowUrl: page.url() } : kept)
      })
    )

  // Whatever way the server ends, the apps go with it.
  yield* Effect.addFinalizer(() =>
    Effect.flatMap(Ref.get(store.state), (all) => Effect.forEach(all.sessions, (h) => closeOne(h.name, 3_000), { discard: true, concurrency: "unbounded" }))
  )

  return AppLifecycle.of({
    launch,
    attach,
    attachProcess: attachToProcess,
    close,
    selectSession,
    sessions: Effect.map(Ref.get(store.state), (all) => all.sessions.map((h) => ({ name: h.name, active: h.name === all.active, session: h.session }))),
    current: store.current,
    session: store.session,
    recordStep,
    setTracing: (on) => Effect.flatMap(store.session, (s) => Effect.sync(() => s.setTracing(on)))
  })
})

export class AppLifecycle extends Context.Tag("stagewright/AppLifecycle")<AppLifecycle, AppLifecycleShape>() {
  static readonly layer = Layer.scoped(AppLifecycle, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<AppLifecycleShape>) =>
    Layer.succeed(AppLifecycle, testDouble("AppLifecycle", given, ["current", "session", "sessions"]))
}
