/**
 * The production report's model: the facts gathered about a build and a running app, and the findings, checks
 * not run and release checks the report holds (checklist.ts turns the one into the other).
 */
export type Severity = "high" | "medium" | "low" | "info"
export const SEVERITIES: ReadonlyArray<Severity> = ["high", "medium", "low", "info"]

export interface Finding {
  readonly severity: Severity
  /** The checklist item number (CHECKLIST), or null for release hygiene outside the checklist. */
  readonly item: number | null
  /** A stable id, e.g. "context-isolation-off", for machines and comparisons. */
  readonly id: string
  readonly message: string
  /** The window (w1) or build part the finding is about. */
  readonly where?: string | undefined
}

export interface NotRun {
  readonly check: string
  readonly item: number | null
  readonly reason: string
}

export type FuseState = "enabled" | "disabled" | "removed" | "unknown"

/** How a release check came out; "not-checked" always says why (another OS, a file missing, unreadable). */
export type ReleaseStatus = "pass" | "fail" | "warn" | "not-checked"

/** One release check of a packaged build: a signature, a notarization staple, the update feed. */
export interface ReleaseCheck {
  /** A stable id, e.g. "win-authenticode". */
  readonly id: string
  readonly check: string
  readonly status: ReleaseStatus
  readonly detail: string
  /** The file or bundle checked, relative to the folder given. */
  readonly where: string
  /** The finding's severity for a fail (default medium) or a warn (default low). */
  readonly severity?: Severity | undefined
}

export interface BuildFacts {
  readonly path: string
  readonly platform: "linux" | "windows" | "macos"
  /** Fuse states by @electron/fuses name, or why they could not be read. */
  readonly fuses: { readonly wire: Readonly<Record<string, FuseState>> } | { readonly error: string }
  readonly asar?:
    | {
        readonly path: string
        readonly files: number
        /** Files whose content does not match the integrity recorded in the asar header. */
        readonly corrupt: ReadonlyArray<string>
        /** Files without integrity in the header (made by an old asar). */
        readonly withoutIntegrity: number
        /** The header hash the build records (ElectronAsarIntegrity), checked against the archive. */
        readonly headerIntegrity: { readonly status: "match" | "mismatch" | "missing" } | { readonly status: "unchecked"; readonly reason: string }
      }
    | { readonly error: string }
    | undefined
  /** Release signatures and the update feed, each pass / fail / warn / not checked. */
  readonly release?: ReadonlyArray<ReleaseCheck> | undefined
}

export interface WebPrefsFacts {
  readonly contextIsolation: boolean
  readonly sandbox: boolean
  readonly nodeIntegration: boolean
  readonly nodeIntegrationInWorker: boolean
  readonly nodeIntegrationInSubFrames: boolean
  readonly webSecurity: boolean
  readonly allowRunningInsecureContent: boolean
  readonly experimentalFeatures: boolean
  readonly enableBlinkFeatures: string
  readonly webviewTag: boolean
  readonly devTools: boolean
}

export interface WindowFacts {
  readonly id: string
  readonly url: string
  readonly prefs: WebPrefsFacts | undefined
  /** CSP meta tags of the page; undefined when the page could not be read. */
  readonly cspMeta: ReadonlyArray<string> | undefined
  /** CSP response headers seen by the hook, or undefined when none could be seen. */
  readonly cspHeader: ReadonlyArray<string> | undefined
  readonly willNavigateListeners: number
  readonly windowOpenHandler: boolean | "unknown"
  /** The window's session has a permission request handler: true, false, or unknown (set before the hook). */
  readonly permissionHandler: boolean | "unknown"
  readonly devToolsOpened: boolean
}

export interface AppFacts {
  readonly electron: string
  readonly packaged: boolean
  readonly windows: ReadonlyArray<WindowFacts>
  /** URLs given to shell.openExternal since the hook was installed (the latest ones). */
  readonly openExternal: ReadonlyArray<string>
  /** Whether the hook ran before the app's own code (then "no handler" is certain). */
  readonly hookedEarly: boolean
}

export interface Facts {
  readonly build?: BuildFacts | undefined
  readonly app?: AppFacts | undefined
  /** Why a tier is missing (no build found, no app running, no main process...). */
  readonly missing?: ReadonlyArray<NotRun> | undefined
}

export interface Report {
  readonly findings: ReadonlyArray<Finding>
  readonly notRun: ReadonlyArray<NotRun>
  readonly counts: Readonly<Record<Severity, number>>
  /** The release checks as they came out (each is also a finding, or a check not run). */
  readonly release: ReadonlyArray<ReleaseCheck>
}
