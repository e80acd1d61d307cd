/**
 * The session model: an app session (launched or attached), its windows and the active one, the
 * latest snapshot of each window, pending web dialogs and bounded buffers. Only the driver changes it
 * (the setters are marked internal, and src/index.ts exports these classes as types only); tools read
 * it and ask the driver for every change.
 */
import type { ChildProcess } from "node:child_process"
import type { Browser, BrowserContext, ConsoleMessage, Dialog, ElectronApplication, Page } from "playwright-core"
import { Effect } from "effect"
import { backfill } from "./backfill.js"
import { BUFFER_CAPACITY, RingBuffer, type ConsoleEntry, type ErrorEntry, type RequestEntry } from "./buffers.js"
import { DialogAnswers, type DialogPolicy, type DialogSeen } from "./dialog-answers.js"
import type { InspectorClient } from "./inspector-client.js"
import type { DisplayInfo } from "./display.js"

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

export class WindowEntry {
  #latestSnapshot: string | undefined
  #refs: ReadonlySet<string> = new Set()
  #shownSnapshot: string | undefined
  #fieldsToldSinceSnapshot = false
  /** @internal driver only: refs' normalized locator code, valid for the latest snapshot */
  readonly refCodes = new Map<string, string>()
  /** @internal the driver caches the CDP target id here */
  targetId: string | undefined
  constructor(
    readonly id: string,
    readonly page: Page,
    readonly openedAt: number
  ) {}

  /** The latest full snapshot of this window the agent was given (the baseline of since:"last"). */
  get latestSnapshot(): string | undefined {
    return this.#latestSnapshot
  }

  /** The refs of that snapshot: the only refs a target may use. */
  get refs(): ReadonlySet<string> {
    return this.#refs
  }

  /**
   * The last whole-window snapshot the agent was shown: the baseline of `electron_snapshot since:"last"`.
   * The latest snapshot moves with every change summary and ref refresh, which the agent never saw in full.
   */
  get shownSnapshot(): string | undefined {
    return this.#shownSnapshot
  }

  /** @internal driver only */
  markShown(text: string | undefined): void {
    this.#shownSnapshot = text
  }

  /**
   * Whether an answer named field changes (a quiet page's summary) since the latest snapshot: a diff against
   * that snapshot then holds those changes again.
   */
  get fieldsToldSinceSnapshot(): boolean {
    return this.#fieldsToldSinceSnapshot
  }

  /** @internal driver only */
  noteFieldsTold(): void {
    this.#fieldsToldSinceSnapshot = true
  }

  /** @internal driver only: records a full snapshot and its refs. */
  recordSnapshot(text: string | undefined): void {
    this.#fieldsToldSinceSnapshot = false
    this.#latestSnapshot = text
    this.refCodes.clear()
    this.#refs = text === undefined ? new Set() : new Set(Array.from(text.matchAll(/\[ref=([a-z0-9]+)\]/g), (m) => m[1]!))
  }
}

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

export class AppSession {
  readonly #windows: Array<WindowEntry> = []
  #activeId: string | undefined
  readonly #pendingDialogs: Array<PendingDialog> = []
  readonly #dialogAnswers = new DialogAnswers()
  #tracing = false
  readonly #steps: Array<RecordedStep> = []
  readonly #dialogListeners = new Set<(dialog: PendingDialog) => void>()
  /** @internal driver only */
  exit: ExitInfo | undefined
  /** @internal driver only */
  closing = false
  /** @internal driver only */
  mainErrorCursor = 0
  readonly console = new RingBuffer<ConsoleEntry>(BUFFER_CAPACITY.console)
  readonly errors = new RingBuffer<ErrorEntry>(BUFFER_CAPACITY.errors)
  readonly requests = new RingBuffer<RequestEntry>(BUFFER_CAPACITY.requests)
  private windowSeq = 0
  readonly #locals = new Map<symbol, unknown>()

  /**
   * The session's value under `key`, made by `init` at its first use (session-local.ts: each key belongs
   * to one declaration, which alone reads and writes it, so the value has the declaration's type).
   */
  local<A>(key: symbol, init: () => A): A {
    if (!this.#locals.has(key)) this.#locals.set(key, init())
    return this.#locals.get(key) as A
  }

  readonly kind: "launched" | "attached"
  readonly context: BrowserContext
  readonly startedAt: Date
  readonly launch: LaunchInfo | undefined
  readonly electronApp: ElectronApplication | undefined
  readonly browser: Browser | undefined
  readonly inspector: InspectorClient | undefined
  /** The launched process, captured at launch (playwright-core's handle to it does not outlive the app). */
  readonly child: ChildProcess | undefined
  /** Set on a session launched over CDP (a build whose inspect fuse is off): why it has no main process. */
  readonly overCdpReason: string | undefined

  constructor(options: AppSessionOptions) {
    this.kind = options.kind
    this.context = options.context
    this.startedAt = options.startedAt ?? new Date()
    this.launch = options.launch
    this.electronApp = options.electronApp
    this.browser = options.browser
    this.inspector = options.inspector
    this.child = options.child
    this.overCdpReason = options.overCdpReason
  }

  get hasMainProcess(): boolean {
    return this.electronApp !== undefined || (this.inspector !== undefined && !this.inspector.closed)
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  get windows(): ReadonlyArray<WindowEntry> {
    return this.#windows
  }

  get activeId(): string | undefined {
    return this.#activeId
  }

  get pendingDialogs(): ReadonlyArray<PendingDialog> {
    return this.#pendingDialogs
  }

  /** The prepared answers to web dialogs: standing (by type) and one-shot. */
  get dialogPolicies(): DialogAnswers["policies"] {
    return this.#dialogAnswers.policies
  }

  /** The web dialogs seen in this session (the last DIALOG_HISTORY), with how each was answered. */
  get dialogHistory(): ReadonlyArray<DialogSeen> {
    return this.#dialogAnswers.history.since().map((item) => item.value)
  }

  get tracing(): boolean {
    return this.#tracing
  }

  get steps(): ReadonlyArray<RecordedStep> {
    return this.#steps
  }

  windowOf(page: Page): WindowEntry | undefined {
    return this.#windows.find((w) => w.page === page)
  }

  /** @internal driver only */
  addWindow(page: Page): WindowEntry {
    const existing = this.windowOf(page)
    if (existing) return existing
    const entry = new WindowEntry(`w${++this.windowSeq}`, page, Date.now())
    this.#windows.push(entry)
    if (this.#activeId === undefined) this.#activeId = entry.id
    this.watchPage(entry)
    return entry
  }

  /** @internal driver only */
  setActive(id: string): void {
    this.#activeId = id
  }

  /** @internal driver only: adds a one-shot answer, replaces a standing one, or (undefined) clears them all. */
  setDialogPolicy(policy: DialogPolicy | undefined): void {
    this.#dialogAnswers.set(policy)
  }

  /** @internal driver only: records that the agent answered a pending dialog. */
  noteDialogAnswer(dialog: PendingDialog, action: "accept" | "dismiss"): void {
    this.#dialogAnswers.ended(dialog, action)
  }

  /** @internal driver only: the oldest pending dialog of a window still open, removed from the queue (dialogs of closed windows need no answer and are dropped). */
  takeDialog(): PendingDialog | undefined {
    for (let dialog = this.#pendingDialogs.shift(); dialog !== undefined; dialog = this.#pendingDialogs.shift()) {
      const window = dialog.window
      if (this.#windows.some((w) => w.id === window && !w.page.isClosed())) return dialog
      this.#dialogAnswers.ended(dialog, "window closed")
    }
    return undefined
  }

  /** @internal driver only: calls `listener` with each dialog that opens from now on; returns the unsubscribe. */
  onDialog(listener: (dialog: PendingDialog) => void): () => void {
    this.#dialogListeners.add(listener)
    return () => this.#dialogListeners.delete(listener)
  }

  /** @internal driver only */
  setTracing(on: boolean): void {
    this.#tracing = on
  }

  /** @internal driver only */
  addStep(step: RecordedStep): void {
    this.#steps.push(step)
  }

  private watchPage(entry: WindowEntry): void {
    const page = entry.page
    const window = entry.id
    page.on("close", () => {
      const index = this.#windows.indexOf(entry)
      if (index >= 0) this.#windows.splice(index, 1)
      if (this.#activeId === window) this.#activeId = this.#windows[this.#windows.length - 1]?.id
    })
    const recordConsole = (message: ConsoleMessage) => {
      const location = message.location()
      this.console.push({
        at: Date.now(),
        source: "renderer",
        window,
        level: message.type(),
        text: message.text(),
        ...(location.url ? { location: `${location.url}:${location.lineNumber}` } : {})
      })
    }
    const recordPageError = (error: Error) => {
      this.errors.push({ at: Date.now(), kind: "pageerror", window, message: error.message, ...(error.stack ? { stack: error.stack } : {}) })
    }
    // A window's first messages can come before this listener exists (an app opens its window while the
    // launch is still settling): take them from playwright-core's per-page history, then go live.
    backfill(
      page,
      "console",
      () => page.consoleMessages(),
      recordConsole,
      (m) => `${m.type()}\u0000${m.text()}\u0000${m.location().url}:${m.location().lineNumber}`
    )
    backfill(page, "pageerror", () => page.pageErrors(), recordPageError, (e) => `${e.message}\u0000${e.stack ?? ""}`)
    page.on("crash", () => {
      this.errors.push({ at: Date.now(), kind: "crash", window, message: `The renderer of window ${window} crashed` })
    })
    const started = new WeakMap<object, { entry: RequestEntry; at: number }>()
    page.on("request", (request) => {
      const item: RequestEntry = { at: Date.now(), window, method: request.method(), url: request.url(), resourceType: request.resourceType() }
      this.requests.push(item)
      started.set(request, { entry: item, at: Date.now() })
    })
    page.on("requestfinished", async (request) => {
      const record = started.get(request)
      if (!record) return
      record.entry.durationMs = Date.now() - record.at
      const response = await request.response().catch(() => null)
      if (response) record.entry.status = response.status()
    })
    page.on("requestfailed", (request) => {
      const record = started.get(request)
      if (!record) return
      record.entry.durationMs = Date.now() - record.at
      record.entry.failure = request.failure()?.errorText ?? "failed"
    })
    page.on("dialog", (dialog) => {
      const { seen, answered } = this.#dialogAnswers.opened(window, dialog)
      if (answered) return
      const pending = { window, type: dialog.type(), message: dialog.message(), defaultValue: dialog.defaultValue(), dialog }
      this.#dialogAnswers.track(pending, seen)
      this.#pendingDialogs.push(pending)
      for (const listener of this.#dialogListeners) listener(pending)
    })
  }
}

/**
 * A window's title without waiting on a renderer that does not answer (stuck in a loop, crashed):
 * after `ms` it gives up with "(not responding)", so listing windows never hangs. Titles are read
 * concurrently, so a listing waits this long at most; 2 s leaves a busy machine's renderers time to answer.
 */
export const titleOf = (page: Page, ms = 2_000): Effect.Effect<string> =>
  Effect.tryPromise(() => page.title()).pipe(
    Effect.orElseSucceed(() => ""),
    Effect.timeout(ms),
    Effect.orElseSucceed(() => "(not responding)")
  )

export interface WindowSelector {
  readonly id?: string | undefined
  readonly index?: number | undefined
  readonly title?: string | undefined
  readonly url?: string | undefined
}

export interface WindowInfo {
  readonly id: string
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
