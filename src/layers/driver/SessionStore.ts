/**
 * The driver's own state, shared by its services (AppLifecycle, Windows, Snapshots, MainProcess, Dialogs,
 * PageOps) and by nothing else: the app session with the scope that owns its process, the main-process
 * hooks loaded plugins registered, the locks, and the primitives every service builds on (running a
 * playwright-core call, evaluating in the main process). Tools never import this module (deps:check rule
 * `tools-use-driver-services`): they ask the services.
 */
import { Context, Effect, Layer, Ref, type Scope } from "effect"
import { AppCrashed, AppNotRunning, NeedsMainProcess, Timeout, type PlaywrightError } from "./errors.js"
import { hookSource } from "./main-hooks.js"
import { laneOf } from "./main-lane.js"
import { fromPlaywright } from "./playwright-errors.js"
import { mainSource, toFunction } from "./selectors.js"
import type { AppSession } from "./session.js"
import type { ElectronModule, MainError, MainHook, SessionError } from "./shape.js"
import { PastBound, shallow, shallowWithin } from "./shallow.js"
import { classifyPages } from "./surfaces.js"

/** A running (or ended) session, the name tools give it, and the scope its process lives in. */
export interface HeldSession {
  readonly name: string
  readonly session: AppSession
  readonly scope: Scope.CloseableScope
}

/** The app sessions of this server (several apps at once, each its own session) and the active one tools act on. */
export interface HeldSessions {
  readonly sessions: ReadonlyArray<HeldSession>
  readonly active: string | undefined
}

/** Main-process code: a function of the `electron` module and an argument, or its source. */
export type MainCode<R, A> = string | ((electron: ElectronModule, arg: A) => R | Promise<R>)

export interface SessionStoreShape {
  readonly state: Ref.Ref<HeldSessions>
  readonly hooks: Ref.Ref<ReadonlyArray<MainHook>>
  /** Changes of the session's selection (active window, dialog answers), one at a time. */
  readonly serialized: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Launches, attaches and closes, one at a time (two launches would each replace the session). */
  readonly oneAtATime: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  readonly current: Effect.Effect<AppSession | undefined>
  readonly session: Effect.Effect<AppSession, SessionError>
  readonly run: <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
  /**
   * Runs main-process code in a given session (playwright-core's evaluate, or the attached inspector). With
   * `withinMs`, it fails with Timeout past that bound, leaving the evaluation to finish unread (for reads only).
   */
  readonly evaluateIn: <R, A>(s: AppSession, what: string, code: MainCode<R, A>, arg: A, withinMs?: number) => Effect.Effect<R, MainError>
  /**
   * The driver's own frequent main-process read (its source self-contained, JSON in and out): over a launched
   * session's lane when it has one (./main-lane.ts), else as evaluateIn.
   */
  readonly readMain: <R, A>(s: AppSession, what: string, code: MainCode<R, A>, arg: A, withinMs: number) => Effect.Effect<R, MainError>
  /** Installs hooks in a session's main process; a hook that fails is logged, never fatal. */
  readonly installHooksIn: (s: AppSession, list: ReadonlyArray<MainHook>) => Effect.Effect<void>
  /** Tells the session's new pages apart (window, view, guest: ./surfaces.ts); never fails. */
  readonly refresh: (s: AppSession) => Effect.Effect<void>
}

/** The NEEDS_MAIN_PROCESS answer of a session without a main process: attached without the inspector, or launched over CDP. */
export const needsMainProcess = (s: AppSession, what: string) =>
  s.overCdpReason !== undefined
    ? new NeedsMainProcess({
        message: `${what} needs the Electron main process, which this session does not have (${s.overCdpReason})`,
        hint: "This build's EnableNodeCliInspectArguments fuse is off, so Electron ignores --inspect: window tools (electron_snapshot, electron_click, electron_fill, electron_screenshot…) work; main-process tools need a build with that fuse on.",
        details: { reason: s.overCdpReason }
      })
    : new NeedsMainProcess({ message: `${what} needs the Electron main process, and this app was attached without its Node inspector` })

const make = Effect.gen(function* () {
  const state = yield* Ref.make<HeldSessions>({ sessions: [], active: undefined })
  const hooks = yield* Ref.make<ReadonlyArray<MainHook>>([])
  const lock = yield* Effect.makeSemaphore(1)
  const lifecycle = yield* Effect.makeSemaphore(1)

  // Read on nearly every call (several times): one step of the fiber (a modify that changes nothing), not a get and a map.
  const current = Ref.modify(state, (held): [AppSession | undefined, HeldSessions] => [held.sessions.find((s) => s.name === held.active)?.session, held])

  const session = Effect.flatMap(current, (s): Effect.Effect<AppSession, SessionError> => {
    if (s === undefined) return Effect.fail(new AppNotRunning({ message: "No app is running" }))
    if (s.exit && !s.exit.expected) return Effect.fail(new AppCrashed({ message: `The app exited unexpectedly (${s.exit.detail})` }))
    if (s.exit) return Effect.fail(new AppNotRunning({ message: "The app was closed" }))
    return Effect.succeed(s)
  })

  // Each playwright-core call from a shallow stack (./shallow.ts).
  const run = <A>(what: string, f: () => Promise<A>): Effect.Effect<A, PlaywrightError> =>
    Effect.flatMap(current, (s) => Effect.tryPromise({ try: () => shallow(f), catch: (error) => fromPlaywright(error, what, s) }))

  // `run` bounded by a timer of its own (./shallow.ts), not Effect.timeout's race: on every read after an action.
  const runWithin = <A>(what: string, ms: number, f: () => Promise<A>): Effect.Effect<A, PlaywrightError> =>
    Effect.flatMap(current, (s) =>
      Effect.tryPromise({
        try: (signal) => shallowWithin(ms, f, signal),
        catch: (error) => (error instanceof PastBound ? new Timeout({ message: `${what}: ${error.message}` }) : fromPlaywright(error, what, s))
      })
    )

  const evaluateIn = <R, A>(s: AppSession, what: string, code: MainCode<R, A>, arg: A, withinMs?: number): Effect.Effect<R, MainError> => {
    const fn = typeof code === "string" ? code : mainSource(code)
    const bounded = (f: () => Promise<R>) => (withinMs === undefined ? run(what, f) : runWithin(what, withinMs, f))
    if (s.electronApp) {
      const app = s.electronApp
      const callable = toFunction(fn)
      // The function is rebuilt from its source (toFunction), so its type is restated for playwright-core.
      return bounded(() => app.evaluate(callable as Parameters<typeof app.evaluate>[0], arg as never) as Promise<R>)
    }
    if (s.inspector && !s.inspector.closed) {
      const inspector = s.inspector
      return bounded(() => inspector.evaluate<R, A>(fn, arg))
    }
    return Effect.fail(needsMainProcess(s, what))
  }

  const readMain = <R, A>(s: AppSession, what: string, code: MainCode<R, A>, arg: A, withinMs: number): Effect.Effect<R, MainError> => {
    const lane = laneOf(s)
    if (lane === undefined) return evaluateIn(s, what, code, arg, withinMs)
    const fn = typeof code === "string" ? code : mainSource(code)
    return runWithin(what, withinMs, () => lane.evaluate<R, A>(fn, arg))
  }

  const installHooksIn = (s: AppSession, list: ReadonlyArray<MainHook>) =>
    s.hasMainProcess
      ? Effect.forEach(
          list,
          (hook) =>
            evaluateIn(s, `install the ${hook.name} hook`, hookSource(hook), undefined).pipe(
              Effect.catchAll((error) => Effect.logWarning(`main-process hook ${hook.name} failed: ${error.message}`))
            ),
          { discard: true }
        )
      : Effect.void

  return SessionStore.of({
    state,
    hooks,
    serialized: (effect) => lock.withPermits(1)(effect),
    oneAtATime: (effect) => lifecycle.withPermits(1)(effect),
    current,
    session,
    run,
    evaluateIn,
    readMain,
    installHooksIn,
    refresh: (s) => classifyPages(s, run, evaluateIn)
  })
})

export class SessionStore extends Context.Tag("stagewright/SessionStore")<SessionStore, SessionStoreShape>() {
  static readonly layer = Layer.effect(SessionStore, make)
}
