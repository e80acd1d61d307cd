/**
 * ElectronDriver: owns the app session (launched through playwright-core's `_electron` or attached over
 * CDP), its windows and the active one, snapshot refs, pending web dialogs, and bounded buffers of console
 * messages, errors and requests. Tools never change the session themselves; they ask this service.
 *
 * The session is a scoped resource: it lives in a child scope of the layer's scope, so closing the
 * app, replacing it, or shutting the server down (however it ends) closes the Electron process.
 * Waiting is Effect (Schedule, timeout): a cancelled or timed-out call makes no further Playwright call.
 */
import { Context, Effect, ExecutionStrategy, Exit, FiberRef, Layer, Option, Ref, Scope } from "effect"
import { ServerConfig } from "../config/ServerConfig.js"
import { AppCrashed, AppNotRunning, NeedsMainProcess, WindowNotFound, type PlaywrightError } from "./errors.js"
import { attachSession, launchSession, prepareLaunch } from "./launch.js"
import { launchOverCdp } from "./cdp-launch.js"
import { fromPlaywright } from "./playwright-errors.js"
import { gracefulClose } from "./process.js"
import { mainSource, toFunction } from "./selectors.js"
import { dialogGate } from "./dialog-gate.js"
import { makeRunAction } from "./actions.js"
import { DialogClaims } from "./call-context.js"
import { snapshotOps } from "./snapshots.js"
import { hookSource, windowOfTarget } from "./main-hooks.js"
import * as failedLoads from "./failed-loads.js"
import * as waits from "./waits.js"
import type { BrowserWindowHandle, ElectronDriverShape, ElectronModule, MainError, MainHook, SessionError } from "./shape.js"
import {
  titleOf,
  type AppSession,
  type AttachOptions,
  type DialogPolicy,
  type LaunchOptions,
  type PendingDialog,
  type RecordedStep,
  type WindowEntry,
  type WindowInfo,
  type WindowSelector
} from "./session.js"

const describeWindowSelector = (selector: WindowSelector) =>
  Object.entries(selector)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")

/** The NEEDS_MAIN_PROCESS answer of a session without a main process: attached without the inspector, or launched over CDP. */
const needsMainProcess = (s: AppSession, what: string) =>
  s.overCdpReason !== undefined
    ? new NeedsMainProcess({
        message: `${what} needs the Electron main process, which this session does not have (${s.overCdpReason})`,
        hint: "This build's EnableNodeCliInspectArguments fuse is off, so Electron ignores --inspect: window tools (electron_snapshot, electron_click, electron_fill, electron_screenshot…) work; main-process tools need a build with that fuse on.",
        details: { reason: s.overCdpReason }
      })
    : new NeedsMainProcess({ message: `${what} needs the Electron main process, and this app was attached without its Node inspector` })

const makeDriver = Effect.gen(function* () {
  const layerScope = yield* Effect.scope
  // --xvfb (ServerConfig, when the composition provides it): whether a headed launch gets a private Xvfb.
  const xvfbMode = Option.match(yield* Effect.serviceOption(ServerConfig), { onNone: () => "auto" as const, onSome: (config) => config.xvfb ?? "auto" })
  const state = yield* Ref.make<{ session: AppSession; scope: Scope.CloseableScope } | undefined>(undefined)
  const hooks = yield* Ref.make<ReadonlyArray<MainHook>>([])
  // Changes of the session's selection (active window, dialog answers) are made one at a time.
  const lock = yield* Effect.makeSemaphore(1)
  const serialized = <A, E, R>(effect: Effect.Effect<A, E, R>) => lock.withPermits(1)(effect)
  // Launches, attaches and closes run one at a time: two launches in parallel would each replace the
  // session, and the one replaced first would keep running untracked.
  const lifecycle = yield* Effect.makeSemaphore(1)
  const oneAtATime = <A, E, R>(effect: Effect.Effect<A, E, R>) => lifecycle.withPermits(1)(effect)

  const current = Effect.map(Ref.get(state), (s) => s?.session)

  const session: ElectronDriverShape["session"] = Effect.flatMap(current, (s): Effect.Effect<AppSession, SessionError> => {
    if (s === undefined) return Effect.fail(new AppNotRunning({ message: "No app is running" }))
    if (s.exit && !s.exit.expected) return Effect.fail(new AppCrashed({ message: `The app exited unexpectedly (${s.exit.detail})` }))
    if (s.exit) return Effect.fail(new AppNotRunning({ message: "The app was closed" }))
    return Effect.succeed(s)
  })

  // playwright-core captures (and parses) up to 50 stack frames on every call: started from a microtask,
  // the call sees a shallow stack instead of the fiber runtime's.
  const run = <A>(what: string, f: () => Promise<A>): Effect.Effect<A, PlaywrightError> =>
    Effect.flatMap(current, (s) => Effect.tryPromise({ try: () => Promise.resolve().then(f), catch: (error) => fromPlaywright(error, what, s) }))

  // The dialog the call's action opened is its result: claimed as the call's own (call-context.ts).
  const runUntilDialog = (what: string, f: () => Promise<unknown>): Effect.Effect<PendingDialog | undefined, PlaywrightError> =>
    Effect.flatMap(Effect.zip(current, FiberRef.get(DialogClaims)), ([s, claims]) =>
      s === undefined
        ? Effect.as(run(what, f), undefined)
        : run(
            what,
            () =>
              new Promise<PendingDialog | undefined>((resolve, reject) => {
                const off = s.onDialog((dialog) => {
                  off()
                  claims?.add(dialog)
                  resolve(dialog)
                })
                f().then(
                  () => {
                    off()
                    resolve(undefined)
                  },
                  (error) => {
                    off()
                    reject(error)
                  }
                )
              })
          )
    )

  const waitSliced = (what: string, attempt: (sliceMs: number) => Promise<unknown>, timeoutMs: number) =>
    waits.waitSliced((slice) => run(what, () => attempt(slice)), timeoutMs).pipe(Effect.asVoid, Effect.withSpan("ElectronDriver.waitSliced", { attributes: { what } }))

  const runAction = makeRunAction(run, runUntilDialog)

  const closeCurrent = (timeoutMs: number) =>
    Effect.gen(function* () {
      const held = yield* Ref.getAndSet(state, undefined)
      if (held === undefined) return undefined
      held.session.closing = true
      const pid = held.session.pid
      const graceful = yield* gracefulClose(held.session, timeoutMs)
      yield* Scope.close(held.scope, Exit.void)
      yield* Effect.logInfo(`closed the app${pid ? ` (pid ${pid})` : ""}${graceful ? "" : ", killed after the bound"}`)
      return { graceful, pid }
    })

  /** Registers a fresh session in its own scope; its finalizer makes sure the process is gone. */
  const install = <E>(make: (scope: Scope.Scope) => Effect.Effect<AppSession, E>) =>
    Effect.gen(function* () {
      yield* closeCurrent(5_000)
      const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
      // Failure or interruption (the operation timeout, a cancelled call) closes what was started so far.
      const started = yield* make(scope).pipe(Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, Exit.void))))
      yield* Ref.set(state, { session: started, scope })
      yield* installHooksIn(started, yield* Ref.get(hooks))
      return started
    })

  const launch = Effect.fn("ElectronDriver.launch")(function* (options: LaunchOptions) {
    const prepared = yield* prepareLaunch(options)
    return yield* waits.describing(`starting ${options.app ?? prepared.runtime.executablePath} and waiting for its first window`, oneAtATime(install((prepared.overCdp ? launchOverCdp : launchSession)(options, prepared, xvfbMode)))).pipe(Effect.tapError((error) => Effect.logWarning(`launch failed: ${error.message}`)))
  })

  const attach = Effect.fn("ElectronDriver.attach")(function* (options: AttachOptions) {
    return yield* oneAtATime(install(attachSession(options))).pipe(Effect.tapError((error) => Effect.logWarning(`attach failed: ${error.message}`)))
  })

  const close = Effect.fn("ElectronDriver.close")(function* (timeoutMs: number = 5_000) {
    const result = yield* oneAtATime(closeCurrent(timeoutMs))
    if (result === undefined) return yield* new AppNotRunning({ message: "No app to close" })
    return result
  })

  const window = Effect.fn("ElectronDriver.window")(function* (id?: string) {
    const s = yield* session
    const wanted = id ?? s.activeId
    const entry = s.windows.find((w) => w.id === wanted && !w.page.isClosed())
    if (entry) return yield* dialogGate(s, entry)
    const open = s.windows.map((w) => w.id).join(", ") || "none"
    return yield* new WindowNotFound({
      message: id === undefined ? `No active window (open windows: ${open})` : `No window ${id} (open windows: ${open})`
    })
  })

  const title = (entry: WindowEntry, ms?: number) => titleOf(entry.page, ms)

  const findWindow = Effect.fn("ElectronDriver.findWindow")(function* (selector: WindowSelector) {
    const s = yield* session
    const open = s.windows.filter((w) => !w.page.isClosed())
    if (selector.id !== undefined) {
      // Selecting is not touching the page: a window with an open dialog can be selected.
      const byId = open.find((w) => w.id === selector.id)
      if (byId) return byId
      return yield* new WindowNotFound({ message: `No window ${selector.id} (open windows: ${open.map((w) => w.id).join(", ") || "none"})` })
    }
    if (selector.index !== undefined) {
      const entry = open[selector.index]
      if (entry) return entry
    } else {
      // Titles are read together, each bounded (a stuck renderer answers "(not responding)"); a window
      // picked by title gets longer than a listing's 2 s, as a busy renderer can be slow to answer.
      const titles =
        selector.title !== undefined ? yield* Effect.forEach(open, (entry) => title(entry, 3_000), { concurrency: "unbounded" }) : open.map(() => "")
      // A window whose load failed also matches the URL it tried.
      const urls = selector.url !== undefined ? yield* Effect.forEach(open, (entry) => failedLoads.urlMatches(s, entry, selector.url!), { concurrency: "unbounded" }) : []
      const found = open.find((entry, i) => (selector.title === undefined || titles[i]!.includes(selector.title)) && (selector.url === undefined || urls[i]))
      if (found) return found
    }
    return yield* new WindowNotFound({ message: `No window matches ${describeWindowSelector(selector)} (${open.length} open)` })
  })

  const activate = (s: AppSession, entry: WindowEntry) =>
    Effect.sync(() => {
      s.setActive(entry.id)
      entry.page.bringToFront().catch(() => undefined)
      return entry
    })

  const selectWindow = Effect.fn("ElectronDriver.selectWindow")(function* (selector: WindowSelector) {
    return yield* serialized(
      Effect.gen(function* () {
        const entry = yield* findWindow(selector)
        return yield* activate(yield* session, entry)
      })
    )
  })

  const waitForWindow = Effect.fn("ElectronDriver.waitForWindow")(function* (
    filter: { readonly title?: string | undefined; readonly url?: string | undefined },
    options: { readonly timeoutMs: number; readonly select: boolean }
  ) {
    const s = yield* session
    const entry = yield* failedLoads.waitForWindow(s, filter, options.timeoutMs, title)
    if (options.select) yield* serialized(activate(s, entry))
    return entry
  })

  const evaluateIn = <R, A>(s: AppSession, what: string, code: string | ((electron: ElectronModule, arg: A) => R | Promise<R>), arg: A): Effect.Effect<R, MainError> => {
    const fn = typeof code === "string" ? code : mainSource(code)
    if (s.electronApp) {
      const app = s.electronApp
      const callable = toFunction(fn)
      // The function is rebuilt from its source (toFunction), so its type is restated for playwright-core.
      return run(what, () => app.evaluate(callable as Parameters<typeof app.evaluate>[0], arg as never) as Promise<R>)
    }
    if (s.inspector && !s.inspector.closed) {
      const inspector = s.inspector
      return run(what, () => inspector.evaluate<R, A>(fn, arg))
    }
    return Effect.fail(needsMainProcess(s, what))
  }

  const evaluateMain = <R, A>(what: string, fn: string | ((electron: ElectronModule, arg: A) => R | Promise<R>), arg: A): Effect.Effect<R, MainError> =>
    Effect.flatMap(session, (s) => evaluateIn<R, A>(s, what, fn, arg)).pipe(Effect.withSpan("ElectronDriver.evaluateMain", { attributes: { what } }))

  /** Installs hooks in a session's main process; a hook that fails is logged, never fatal. */
  const installHooksIn = (s: AppSession, list: ReadonlyArray<MainHook>) =>
    s.hasMainProcess
      ? Effect.forEach(list, (hook) =>
          evaluateIn(s, `install the ${hook.name} hook`, hookSource(hook), undefined).pipe(
            Effect.catchAll((error) => Effect.logWarning(`main-process hook ${hook.name} failed: ${error.message}`))
          ), { discard: true })
      : Effect.void

  const installMainHooks = (list: ReadonlyArray<MainHook>) =>
    Effect.gen(function* () {
      yield* Ref.update(hooks, (known) => [...known, ...list.filter((hook) => !known.some((k) => k.name === hook.name))])
      const s = yield* current
      if (s !== undefined && !s.exit) yield* installHooksIn(s, list)
    })

  const targetIdOf = (s: AppSession, entry: WindowEntry) =>
    entry.targetId !== undefined
      ? Effect.succeed(entry.targetId)
      : run("read the window's target id", async () => {
          const cdp = await s.context.newCDPSession(entry.page)
          try {
            const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } }
            entry.targetId = targetInfo.targetId
            return targetInfo.targetId
          } finally {
            await cdp.detach().catch(() => undefined)
          }
        })

  const evaluateWindow = <R, A>(entry: WindowEntry, what: string, fn: (win: BrowserWindowHandle, arg: A) => R | Promise<R>, arg: A): Effect.Effect<R, MainError> =>
    Effect.gen(function* () {
      const s = yield* session
      if (!s.hasMainProcess) {
        return yield* needsMainProcess(s, what)
      }
      const targetId = yield* targetIdOf(s, entry)
      const wrapper = `async (electron, input) => {
        const __name = (target) => target
        const win = (${windowOfTarget.toString()})(electron, input.targetId)
        return await (${fn.toString()})(win, input.arg)
      }`
      return yield* evaluateMain<R, { targetId: string; arg: A }>(what, wrapper, { targetId, arg })
    }).pipe(Effect.withSpan("ElectronDriver.evaluateWindow", { attributes: { what } }))

  const windowInfo = Effect.fn("ElectronDriver.windowInfo")(function* (entry: WindowEntry) {
    const s = yield* session
    const t = yield* title(entry)
    const failed = yield* failedLoads.failedUrlOf(s, entry)
    const base = { id: entry.id, active: s.activeId === entry.id, title: t, url: entry.page.url(), ...(failed !== undefined ? { failedUrl: failed } : {}) }
    if (!s.hasMainProcess) return base as WindowInfo
    const details = yield* evaluateWindow(entry, "read the window state", (win) => ({
      bounds: win.getBounds(),
      focused: win.isFocused(),
      visible: win.isVisible(),
      minimized: win.isMinimized(),
      maximized: win.isMaximized(),
      fullScreen: win.isFullScreen()
    }), undefined).pipe(Effect.orElseSucceed(() => ({})))
    return { ...base, ...details } as WindowInfo
  })

  const { locate, snapshot, pageChanges, recordSnapshot, refCode, markShown, forgetSnapshot } = snapshotOps(run)

  const pullMainErrors: ElectronDriverShape["pullMainErrors"] = Effect.gen(function* () {
    const s = yield* session
    if (!s.hasMainProcess) return
    const fresh = yield* evaluateMain("read main-process errors", (_electron: ElectronModule, after: number) => {
      const hooks = (globalThis as { __stagewright?: { errors: Array<{ seq: number }> } }).__stagewright
      return hooks ? hooks.errors.filter((e) => e.seq > after) : []
    }, s.mainErrorCursor).pipe(Effect.orElseSucceed(() => []))
    for (const e of fresh as Array<{ seq: number; at: number; kind: "main" | "crash" | "unresponsive"; message: string }>) {
      s.mainErrorCursor = Math.max(s.mainErrorCursor, e.seq)
      s.errors.push({ at: e.at, kind: e.kind, message: e.message })
    }
    yield* failedLoads.resolveFailedLoadWindows(s)
  }).pipe(Effect.withSpan("ElectronDriver.pullMainErrors"))

  const recordStep = (step: RecordedStep) =>
    Effect.flatMap(current, (s) =>
      Effect.sync(() => {
        if (s === undefined) return
        const page = s.windows.find((w) => w.id === step.window)?.page
        s.addStep(page && !page.isClosed() ? { ...step, windowUrl: page.url() } : step)
      })
    )

  const setDialogPolicy = (policy: DialogPolicy | undefined) => serialized(Effect.flatMap(session, (s) => Effect.sync(() => s.setDialogPolicy(policy))))
  const onDialog = (listener: (dialog: PendingDialog) => void) => Effect.map(current, (s) => (s === undefined ? () => undefined : s.onDialog(listener)))
  const takeDialog = serialized(Effect.flatMap(session, (s) => Effect.sync(() => s.takeDialog())))
  const setTracing = (on: boolean) => Effect.flatMap(session, (s) => Effect.sync(() => s.setTracing(on)))

  // Whatever way the server ends, the app goes with it.
  yield* Effect.addFinalizer(() => Effect.asVoid(closeCurrent(3_000)))

  return ElectronDriver.of({
    launch,
    attach,
    close,
    current,
    session,
    window,
    findWindow,
    selectWindow,
    waitForWindow,
    windowInfo,
    title,
    locate,
    run,
    poll: waits.poll,
    waitSliced,
    snapshot,
    pageChanges,
    recordSnapshot,
    refCode,
    markShown,
    forgetSnapshot,
    evaluateMain,
    evaluateWindow,
    recordStep,
    pullMainErrors,
    setDialogPolicy,
    onDialog,
    runUntilDialog,
    runAction,
    takeDialog,
    installMainHooks,
    setTracing
  })
})

export class ElectronDriver extends Context.Tag("stagewright/ElectronDriver")<ElectronDriver, ElectronDriverShape>() {
  static readonly layer = Layer.scoped(ElectronDriver, makeDriver)
}

export { titleOf, type AppSession, type AttachOptions, type LaunchOptions, type PendingDialog, type RecordedStep, type WindowEntry, type WindowInfo, type WindowSelector } from "./session.js"
export { toFunction, expandSelector, pageFunction, REF_PATTERN } from "./selectors.js"
export type { FieldChange, PageChanges } from "./page-changes.js"
export type { Action, BrowserWindowHandle, Check, ElectronDriverShape, ElectronModule, MainError, MainHook, MainValue, SessionError } from "./shape.js"
export { discoverApps, probeDebugPort, untrustedText, whyNotDebuggable, type DebuggableApp, type Discovery } from "./discovery.js"
export { OVER_CDP_REASON } from "./fuses.js"
export { budgetMs, CallDeadline, DialogClaims } from "./call-context.js"
