/**
 * What the ElectronDriver offers (its service shape) and the types its callers share: a condition's
 * reading, a plugin's main-process hook, and the untyped Electron objects main-process code receives.
 */
import type { Effect } from "effect"
import type * as Electron from "electron"
import type { Locator } from "playwright-core"
import type { AppCrashed, AppNotRunning, DialogOpen, InvalidArgument, LaunchFailed, NeedsMainProcess, PlaywrightError, RefStale, Timeout, WindowNotFound } from "./errors.js"
import type { PageChanges } from "./page-changes.js"
import type { AppSession, AttachOptions, DialogPolicy, LaunchOptions, PendingDialog, RecordedStep, WindowEntry, WindowInfo, WindowSelector } from "./session.js"

/**
 * The app's `electron` module, as main-process code receives it: typed by Electron's own published
 * definitions (the `electron` devDependency, types only — a type-only import, nothing loads at run time),
 * so a wrong member fails `tsc`.
 */
export type ElectronModule = typeof Electron
/**
 * A value of the app's main process whose shape is not known here (an IPC payload, an app-defined object,
 * a private member of an Electron object): untyped. Electron's own objects use `ElectronModule`'s types.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Electron's objects have no types here
export type MainValue = any
/** A BrowserWindow of the app, as main-process code receives it (Electron's own type). */
export type BrowserWindowHandle = Electron.BrowserWindow

/**
 * Code a plugin installs in the app's main process at every launch or attach (recorders for IPC, shell
 * calls, notifications...). `install` must be self-contained: it is serialized and run there with the
 * `electron` module as its argument, once per app (by name).
 */
export interface MainHook {
  readonly name: string
  readonly install: (electron: ElectronModule) => void
}

/** One read of a condition: whether it holds, and what was seen. */
export interface Check<A> {
  readonly ok: boolean
  readonly actual: A
}

/** An action on an element, as the driver's `runAction` makes it (./actions.ts). */
export interface Action<R> {
  /** Names the action in errors ("click testid=save"). */
  readonly what: string
  /** The action's own bound in ms (its timeoutMs; 0 is none). */
  readonly timeoutMs: number
  /**
   * A probe that changes nothing (its result goes to `perform`), made in slices until it passes. Without
   * one the action itself is made in slices: only for an action that either does nothing or all of
   * itself, and may be repeated (fill, selectOption, setInputFiles).
   */
  readonly ready?: ((sliceMs: number) => Promise<R>) | undefined
  /**
   * Try the action itself first, within one slice (the element is usually there: no extra round trip);
   * the probe takes over only when that attempt waited without starting the action.
   */
  readonly tryFirst?: boolean | undefined
  /** The action, given its Playwright bound: what is left of the smaller of its own bound and the call's budget. */
  readonly perform: (timeoutMs: number, ready: R | undefined) => Promise<unknown>
  /**
   * Whether a web dialog that opens while the action is made is its result (returned, and claimed as the
   * call's own); otherwise it blocks the call like any other (default true).
   */
  readonly reportsDialogs?: boolean | undefined
}

export type SessionError = AppNotRunning | AppCrashed
export type MainError = PlaywrightError | SessionError | NeedsMainProcess

export interface ElectronDriverShape {
  readonly launch: (options: LaunchOptions) => Effect.Effect<AppSession, LaunchFailed | InvalidArgument>
  readonly attach: (options: AttachOptions) => Effect.Effect<AppSession, LaunchFailed>
  readonly close: (timeoutMs?: number) => Effect.Effect<{ readonly graceful: boolean; readonly pid?: number | undefined }, AppNotRunning>
  /** The current session, whether running or ended. */
  readonly current: Effect.Effect<AppSession | undefined>
  /** The running session; fails when none is running or it crashed. */
  readonly session: Effect.Effect<AppSession, SessionError>
  /** A window by id, or the active one; fails at once with DialogOpen while a web dialog blocks its page. */
  readonly window: (id?: string) => Effect.Effect<WindowEntry, SessionError | WindowNotFound | DialogOpen>
  readonly findWindow: (selector: WindowSelector) => Effect.Effect<WindowEntry, SessionError | WindowNotFound>
  /** Makes the window the selector finds the active one. */
  readonly selectWindow: (selector: WindowSelector) => Effect.Effect<WindowEntry, SessionError | WindowNotFound>
  /**
   * Waits for a window whose title / URL contain the given text (one already open counts), or without
   * filters for the next new window; makes it active unless `select` is false.
   */
  readonly waitForWindow: (
    filter: { readonly title?: string | undefined; readonly url?: string | undefined },
    options: { readonly timeoutMs: number; readonly select: boolean }
  ) => Effect.Effect<WindowEntry, SessionError | Timeout>
  readonly windowInfo: (entry: WindowEntry) => Effect.Effect<WindowInfo, SessionError>
  /** A window's title, "(not responding)" after `ms`. */
  readonly title: (entry: WindowEntry, ms?: number) => Effect.Effect<string>
  /** Resolves a target (ref or selector) in a window to a Locator; refs are checked against its latest snapshot. */
  readonly locate: (entry: WindowEntry, target: string) => Effect.Effect<Locator, RefStale | InvalidArgument>
  /** Runs a playwright-core call, mapping its rejection onto the error vocabulary. */
  readonly run: <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
  /**
   * Reads `check` until it holds or `timeoutMs` passes (backing off 100 ms → 1 s); succeeds with the last
   * reading. A failed reading fails the poll at once. Interrupted, it makes no further reading.
   */
  readonly poll: <A, E>(check: Effect.Effect<Check<A>, E>, timeoutMs: number) => Effect.Effect<Check<A>, E>
  /**
   * Waits with playwright-core in slices of at most a second (`attempt` gets the slice's bound), until an
   * attempt succeeds or `timeoutMs` passes. A cancelled or timed-out call therefore stops driving the page
   * within a slice, instead of leaving a long Playwright wait running.
   */
  readonly waitSliced: (what: string, attempt: (sliceMs: number) => Promise<unknown>, timeoutMs: number) => Effect.Effect<void, PlaywrightError>
  /** An AI-mode aria snapshot of a window (or of a target in it); records its refs. */
  readonly snapshot: (entry: WindowEntry, options?: { readonly target?: string; readonly depth?: number }) => Effect.Effect<string, PlaywrightError>
  /**
   * Whether the window's page changed since its latest full snapshot, without taking one: quiet when its
   * DOM and visibility are as they were (then the fields whose values changed, and where the focus went).
   */
  readonly pageChanges: (entry: WindowEntry) => Effect.Effect<PageChanges>
  /** Records a full snapshot the agent was given as the window's latest (its refs become the valid ones). */
  readonly recordSnapshot: (entry: WindowEntry, text: string) => Effect.Effect<void>
  /** Records the whole-window snapshot the agent was shown (the baseline of since:"last"). */
  readonly markShown: (entry: WindowEntry, text: string) => Effect.Effect<void>
  /** A ref's locator code, computed once per snapshot of the window (`code` runs on a miss). */
  readonly refCode: (entry: WindowEntry, ref: string, code: () => Promise<string>) => Effect.Effect<string>
  /** Forgets a window's snapshot and refs (after a navigation: the page they described is gone). */
  readonly forgetSnapshot: (entry: WindowEntry) => Effect.Effect<void>
  /** Runs `fn(electron, arg)` in the main process (needs a launched app or an attached inspector). */
  readonly evaluateMain: <R, A>(what: string, fn: string | ((electron: ElectronModule, arg: A) => R | Promise<R>), arg: A) => Effect.Effect<R, MainError>
  /** Runs `fn(browserWindow, arg)` in the main process for a window. */
  readonly evaluateWindow: <R, A>(entry: WindowEntry, what: string, fn: (win: BrowserWindowHandle, arg: A) => R | Promise<R>, arg: A) => Effect.Effect<R, MainError>
  readonly recordStep: (step: RecordedStep) => Effect.Effect<void>
  /** Moves main-process errors (uncaught exceptions, crashed or unresponsive renderers) into the session's buffer. */
  readonly pullMainErrors: Effect.Effect<void, SessionError>
  /** Sets (or clears) the standing answer to web dialogs. */
  readonly setDialogPolicy: (policy: DialogPolicy | undefined) => Effect.Effect<void, SessionError>
  /** Calls `listener` with each web dialog that opens in the current app from now on; returns the unsubscribe (without an app, nothing). */
  readonly onDialog: (listener: (dialog: PendingDialog) => void) => Effect.Effect<() => void>
  /**
   * Runs a playwright-core call that may open a web dialog: a dialog that opens ends the wait (the call
   * is blocked until it is answered) and is returned; otherwise undefined when the call succeeded.
   */
  readonly runUntilDialog: (what: string, f: () => Promise<unknown>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
  /**
   * Performs an action on an element without leaving it in flight (./actions.ts): waits in slices with a
   * probe that changes nothing, then acts within the smaller of its timeout and the call's remaining budget.
   * A dialog the action opens is returned (unless `reportsDialogs` is false).
   */
  readonly runAction: <R>(action: Action<R>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
  /** Takes the oldest pending web dialog off the queue. */
  readonly takeDialog: Effect.Effect<PendingDialog | undefined, SessionError>
  /**
   * Registers main-process hooks: installed in the running app now (when it has a main process) and at
   * every later launch or attach. Only loaded plugins call it, so an unloaded plugin's hooks never run.
   */
  readonly installMainHooks: (hooks: ReadonlyArray<MainHook>) => Effect.Effect<void>
  /** Records whether Playwright tracing runs. */
  readonly setTracing: (on: boolean) => Effect.Effect<void, SessionError>
}
