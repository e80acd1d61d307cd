/**
 * The operator's settings for one server: where artifacts go, how long an operation may take, and
 * the flags that decide what is visible (kept beside them for electron_status and the manifest).
 */
import { Context, Layer } from "effect"
import { resolve } from "node:path"
import type { EvalTarget } from "../../eval-policy/EvalPolicy.js"
import type { ProfileName } from "../../profile/profiles.js"

export interface ServerConfigShape {
  /** Profile chosen with --tool-profile (or the default). Ignored when `tools` is given. */
  readonly toolProfile?: ProfileName | undefined
  /** An explicit list of core tool names (createServer({ tools })), exclusive with toolProfile. */
  readonly tools?: ReadonlyArray<string> | undefined
  readonly allowEval: ReadonlyArray<EvalTarget>
  /** --allow-profile-switch: electron_profile is listed and may change the active profile at run time. */
  readonly allowProfileSwitch?: boolean | undefined
  readonly plugins: ReadonlyArray<string>
  /** Each plugin's raw configuration (`--plugin-config NAME=<json>`), decoded by the plugin's Schema at start-up. */
  readonly pluginConfig?: Readonly<Record<string, unknown>> | undefined
  /** Folder for screenshots, traces, exports and oversized responses. */
  readonly outputDir: string
  /** When set, screenshots are also saved here (names never escape it). */
  readonly screenshotDir?: string | undefined
  /** The visual plugin's baseline folder (--visual-dir); default <outputDir>/visual-baselines. */
  readonly visualDir?: string | undefined
  /** Bound on one tool call, in milliseconds. */
  readonly operationTimeoutMs: number
  /** When set, launch paths, cwd, uploaded files and dialog-stub file answers must lie inside it (symlinks resolved). */
  readonly appRoot?: string | undefined
  /** A result longer than this is cut; the whole of it is written under outputDir and linked. */
  readonly maxResponseChars: number
  /** --xvfb: when a headed launch on Linux gets a private Xvfb display (default auto: only without DISPLAY/WAYLAND_DISPLAY). */
  readonly xvfb?: XvfbMode | undefined
  /** --secrets FILE: the operator's secrets by name, which the agent writes as {{secret:NAME}} (never shown to it). */
  readonly secrets?: ReadonlyArray<readonly [name: string, value: string]> | undefined
  /** --max-apps: how many app sessions (launched or attached apps) the server holds at once (default DEFAULT_MAX_APPS). */
  readonly maxApps?: number | undefined
}

/** The default bound on app sessions per server: a few apps at once (a second instance, a peer) without runaway processes. */
export const DEFAULT_MAX_APPS = 4

/** --xvfb: auto starts a private Xvfb only when a headed app on Linux has no display; always starts one anyway; never does not. */
export const XVFB_MODES = ["auto", "always", "never"] as const
export type XvfbMode = (typeof XVFB_MODES)[number]

export const defaultServerConfig: ServerConfigShape = {
  allowEval: [],
  plugins: [],
  outputDir: resolve("stagewright-output"),
  operationTimeoutMs: 60_000,
  maxResponseChars: 60_000
}

export class ServerConfig extends Context.Tag("stagewright/ServerConfig")<ServerConfig, ServerConfigShape>() {
  static readonly layer = (config: Partial<ServerConfigShape> = {}) => Layer.succeed(ServerConfig, ServerConfig.of({ ...defaultServerConfig, ...config }))
}
