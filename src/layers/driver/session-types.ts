/**
 * The plain shapes of an app session: how it was started, its recorded steps and pending dialogs, and what a
 * window listing says (session.ts holds the session itself).
 */
import type { ChildProcess } from "node:child_process"
import type { Browser, BrowserContext, Dialog, ElectronApplication, Page } from "playwright-core"
import { Effect } from "effect"
import type { InspectorClient } from "./inspector-client.js"
import type { DisplayInfo } from "./display.js"
import type { SurfaceAbility, SurfaceKind } from "./surface.js"
import { clipText, MAX_TITLE_CHARS } from "./clip.js"

export interface LaunchOptions {
  /** App folder (with package.json) or main script. */
  readonly app?: string | undefined
  readonly executablePath?: string | undefined
  readonly args?: ReadonlyArray<string> | undefined
  readonly env?: Readonly<Record<string, string>> | undefined
  readonly cwd?: string | undefined
  readonly timeoutMs?: number | undefined
}

export interface AttachOptions {
  /** Chromium's remote debugging endpoint: http://127.0.0.1:9222, ws://..., or a port. */
  readonly cdpUrl: string
  /** The main process's Node inspector: ws://..., http://127.0.0.1:9229 or a port. */
  readonly inspectorUrl?: string | undefined
  readonly timeoutMs?: number | undefined
}

/** One recorded step, for test export. */
export interface RecordedStep {
  readonly tool: string
  readonly window: string
  readonly code: string
  /** The window's URL when the step ran (the export finds the window by it). */
  readonly windowUrl?: string
  /** The step uses what the core's main-process hooks record (a popped-up menu): the export installs them at launch. */
  readonly mainHooks?: boolean
  /** Set on answered web dialogs: the export registers the answer before the action that opened it. */
  readonly dialog?: { readonly action: "accept" | "dismiss"; readonly promptText?: string | undefined }
}

export interface PendingDialog {
  readonly window: string
  readonly type: string
  readonly message: string
  readonly defaultValue: string
  readonly dialog: Dialog
}

export type { DialogPolicy, DialogSeen, DialogType } from "./dialog-answers.js"

export type ExitInfo = { readonly at: string; readonly expected: boolean; readonly detail: string }

export type LaunchInfo = {
  readonly executablePath: string
  readonly runtime: string
  /** How the runtime was chosen (the app's own electron, executablePath, STAGEWRIGHT_ELECTRON). */
  readonly reason?: string | undefined
  readonly app?: string | undefined
  readonly args: ReadonlyArray<string>
  readonly cwd?: string | undefined
  /** Only the variables the caller passed (the rest came from the server's environment). */
  readonly env: Readonly<Record<string, string>>
  /** The display the app was given on Linux (a private Xvfb, or the environment's). */
  readonly display?: DisplayInfo | undefined
}

/** What an app session is made of; the driver fills in what the way it started gives it. */
export interface AppSessionOptions {
  readonly kind: "launched" | "attached"
  readonly context: BrowserContext
  /** Defaults to now. */
  readonly startedAt?: Date | undefined
  /** How a launched app was started (undefined for an attached one). */
  readonly launch?: LaunchInfo | undefined
  /** playwright-core's handle to an app launched with its main process. */
  readonly electronApp?: ElectronApplication | undefined
  /** The CDP connection of an attached app or of one launched over CDP. */
  readonly browser?: Browser | undefined
  /** The main process's Node inspector of an attached app. */
  readonly inspector?: InspectorClient | undefined
  /** The launched process, captured at launch (playwright-core's handle to it does not outlive the app). */
  readonly child?: ChildProcess | undefined
  /** Set on a session launched over CDP (a build whose inspect fuse is off): why it has no main process. */
  readonly overCdpReason?: string | undefined
}

/**
 * A window's title without waiting on a renderer that does not answer (stuck in a loop, crashed):
 * after `ms` it gives up with "(not responding)", so listing windows never hangs. Titles are read
 * concurrently, so a listing waits this long at most; 2 s leaves a busy machine's renderers time to answer.
 * A title over MAX_TITLE_CHARS is cut.
 */
/** What `titleOf` answers for a renderer that did not answer in time. */
export const NOT_RESPONDING = "(not responding)"

export const titleOf = (page: Pick<Page, "title">, ms = 2_000): Effect.Effect<string> =>
  Effect.tryPromise(() => page.title()).pipe(
    // The page sets it: a title of megabytes would be in every header (./clip.ts). Matching sees what is shown.
    Effect.map((title) => clipText(title, MAX_TITLE_CHARS)),
    Effect.orElseSucceed(() => ""),
    Effect.timeout(ms),
    Effect.orElseSucceed(() => NOT_RESPONDING)
  )

export interface WindowSelector {
  readonly id?: string | undefined
  readonly index?: number | undefined
  readonly title?: string | undefined
  readonly url?: string | undefined
}

export interface WindowInfo {
  readonly id: string
  /** window, view (WebContentsView / BrowserView), guest (<webview>) or frame. */
  readonly kind?: SurfaceKind
  /** The surface it is shown in. */
  readonly parent?: string
  /** A frame whose origin differs from its parent's. */
  readonly crossOrigin?: boolean
  /** What works in it. */
  readonly works?: ReadonlyArray<SurfaceAbility>
  readonly active: boolean
  readonly title: string
  readonly url: string
  /** For a window showing Chromium's error document (chrome-error://…): the URL whose load failed. */
  readonly failedUrl?: string
  readonly bounds?: { x: number; y: number; width: number; height: number }
  readonly focused?: boolean
  readonly visible?: boolean
  readonly minimized?: boolean
  readonly maximized?: boolean
  readonly fullScreen?: boolean
}
