/**
 * The types the driver's services and their callers share: a condition's
 * reading, a plugin's main-process hook, and the untyped Electron objects main-process code receives.
 */
import type * as Electron from "electron"
import type { AppCrashed, AppNotRunning, NeedsMainProcess, PlaywrightError } from "./errors.js"

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
