/**
 * Which display a launched app gets: a pure description (no process is started here), shared by the
 * launch (xvfb.ts starts what it says) and by `stagewright doctor`. Real Electron on Linux opens its
 * windows on the X server of DISPLAY (or the Wayland compositor of WAYLAND_DISPLAY); without either, a
 * headed launch fails at once. `--xvfb` decides whether the server then gives the app a private Xvfb.
 */
import type { XvfbMode } from "../config/ServerConfig.js"

export type { XvfbMode } from "../config/ServerConfig.js"

/** The command that installs Xvfb on Debian and Ubuntu (named in every answer that needs it). */
export const XVFB_INSTALL = "sudo apt-get install -y xvfb"

/** The variable that names a display, when it is set and not empty. */
const variable = (env: Readonly<Record<string, string | undefined>>, name: "DISPLAY" | "WAYLAND_DISPLAY") => {
  const value = env[name]
  return value === undefined || value === "" ? undefined : value
}

export type DisplaySituation =
  /** No display is needed, or it is not ours to provide (headless, or not Linux). */
  | { readonly action: "none"; readonly reason: string }
  /** The environment's display is used. */
  | { readonly action: "use"; readonly variable: "DISPLAY" | "WAYLAND_DISPLAY"; readonly display: string; readonly reason: string }
  /** A private Xvfb is started for the session; `because` completes "started because …". */
  | { readonly action: "start-xvfb"; readonly because: string; readonly reason: string }
  /** A headed launch would fail: no display, and --xvfb never forbids starting one. */
  | { readonly action: "fail"; readonly reason: string; readonly hint: string }

/**
 * What a launch would do for its display, from the environment the app would get, the platform and
 * the --xvfb mode. `headed` says whether the app opens real windows (real Electron always does; the
 * test stand-in only with STAGEWRIGHT_STANDIN_HEADED=1: see `runsHeaded`).
 */
export const displaySituation = (
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  mode: XvfbMode,
  headed = true
): DisplaySituation => {
  if (platform !== "linux") return { action: "none", reason: `on ${platform} Electron uses the system's window server; --xvfb ${mode} applies to Linux only` }
  if (!headed) return { action: "none", reason: "the app runs headless and needs no display" }
  if (mode === "always") {
    return {
      action: "start-xvfb",
      because: "--xvfb always is set",
      reason: "a private Xvfb is started for each headed launch (--xvfb always), whatever DISPLAY says"
    }
  }
  const x = variable(env, "DISPLAY")
  if (x !== undefined) return { action: "use", variable: "DISPLAY", display: x, reason: `the app uses DISPLAY=${x} from the environment` }
  const wayland = variable(env, "WAYLAND_DISPLAY")
  if (wayland !== undefined)
    return { action: "use", variable: "WAYLAND_DISPLAY", display: wayland, reason: `the app uses WAYLAND_DISPLAY=${wayland} from the environment` }
  if (mode === "never") {
    return {
      action: "fail",
      reason: "the app runs headed and needs a display, but DISPLAY and WAYLAND_DISPLAY are unset and --xvfb never forbids starting a private Xvfb",
      hint: `Set DISPLAY to a running X server, or restart stagewright with --xvfb auto (it then starts a private Xvfb; install it with ${XVFB_INSTALL}).`
    }
  }
  return {
    action: "start-xvfb",
    because: "DISPLAY and WAYLAND_DISPLAY are unset",
    reason: "a private Xvfb is started for the session, as DISPLAY and WAYLAND_DISPLAY are unset"
  }
}

/**
 * Whether the launched runtime opens real windows: real Electron always does; the project's test
 * stand-in runs Chromium headless unless its environment sets STAGEWRIGHT_STANDIN_HEADED=1.
 */
export const runsHeaded = (runtime: "electron" | "standin", env: Readonly<Record<string, string | undefined>>): boolean =>
  runtime === "electron" || env.STAGEWRIGHT_STANDIN_HEADED === "1"

/** The display a launched app was given, as the launch answer and electron_status report it. */
export interface DisplayInfo {
  /** `:99` for an X display, the socket name for Wayland. */
  readonly display: string
  readonly source: "xvfb" | "DISPLAY" | "WAYLAND_DISPLAY"
  /** The private Xvfb's pid (source xvfb). */
  readonly xvfbPid?: number | undefined
  /** One line: "private Xvfb, started because DISPLAY and WAYLAND_DISPLAY are unset". */
  readonly note: string
}

export const describeDisplay = (info: DisplayInfo): string => `display ${info.display} (${info.note})`
