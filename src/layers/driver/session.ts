/**
 * The session model: an app session (launched or attached), its surfaces (windows, views, guests, frames:
 * ./surface.ts) and the active one, the latest snapshot of each, pending web dialogs and bounded buffers whose
 * entries name the surface they came from. Only the driver changes it (the setters are marked internal, and
 * src/index.ts exports these classes as types only); tools read it and ask the driver for every change.
 */
import type { ChildProcess } from "node:child_process"
import type { Browser, BrowserContext, ConsoleMessage, ElectronApplication, Frame, Page } from "playwright-core"
import { backfill } from "./backfill.js"
import { BUFFER_CAPACITY, keptStack, keptText, RingBuffer, type ConsoleEntry, type ErrorEntry, type RequestEntry } from "./buffers.js"
import { DialogAnswers, type DialogPolicy, type DialogSeen } from "./dialog-answers.js"
import type { InspectorClient } from "./inspector-client.js"
import { scriptOfStack, scriptSurface } from "./event-surface.js"
import { ModalRoom } from "./modal-room.js"
import { isShownWindow, kindOf, Surface, type PageFacts } from "./surface.js"
import type { AppSessionOptions, ExitInfo, LaunchInfo, PendingDialog, RecordedStep } from "./session-types.js"

export { Surface, type SurfaceKind } from "./surface.js"
/** @deprecated The old name of `Surface` (it names any surface, not only a window), kept for third-party plugins; use `Surface`. */
export type WindowEntry = Surface

export * from "./session-types.js"

export class AppSession {
  readonly #windows: Array<Surface> = []
  readonly #frames: Array<Surface> = []
  private frameSeq = 0
  #activeId: string | undefined
  #activeChosen = false
  /** The session's modal states: web dialogs, file choosers, held native dialogs, a popped-up menu (./modal-room.ts). */
  readonly modals = new ModalRoom()
  readonly #dialogAnswers = new DialogAnswers()
  #tracing = false
  readonly #steps: Array<RecordedStep> = []
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
  private viewSeq = 0
  private guestSeq = 0
  readonly #pendingPages = new Map<Page, Promise<Surface>>()
  readonly #windowListeners = new Set<() => void>()
  readonly #locals = new Map<symbol, unknown>()

  /** The session's value under `key`, made by `init` at its first use (session-local.ts: one declaration owns each key). */
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

  get windows(): ReadonlyArray<Surface> {
    return this.#windows
  }

  get activeId(): string | undefined {
    return this.#activeId
  }

  /** Whether the agent chose the active surface (a default one may move to a shown window). */
  get activeChosen(): boolean {
    return this.#activeChosen
  }

  get pendingDialogs(): ReadonlyArray<PendingDialog> {
    return this.modals.pendingDialogs
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

  windowOf(page: Page): Surface | undefined {
    return this.#windows.find((w) => w.page === page)
  }

  /** The frame surfaces (subframes of every page), in the order they attached. */
  get frames(): ReadonlyArray<Surface> {
    return this.#frames
  }

  /** A surface by id: a page's (window, view, guest) or a frame's. */
  surface(id: string): Surface | undefined {
    return this.#windows.find((w) => w.id === id) ?? this.#frames.find((f) => f.id === id)
  }

  /**
   * Every open surface, parents first (each followed by what is shown in it); siblings by kind (views, then
   * guests, then frames), each kind in the order it appeared, so a listing does not depend on which page
   * the app's renderers happened to open first.
   */
  get surfaces(): ReadonlyArray<Surface> {
    const rank: Record<string, number> = { window: 0, view: 1, guest: 2, frame: 3 }
    const open = [...this.#windows, ...this.#frames].filter((s) => !s.closed).sort((a, b) => (rank[a.kind] ?? 4) - (rank[b.kind] ?? 4))
    const ids = new Set(open.map((s) => s.id))
    const out: Array<Surface> = []
    const visit = (parent: string | undefined) => {
      for (const s of open) {
        if ((parent === undefined ? s.parentId === undefined || !ids.has(s.parentId) : s.parentId === parent) && !out.includes(s)) {
          out.push(s)
          visit(s.id)
        }
      }
    }
    visit(undefined)
    return out
  }

  /** @internal driver only: the frame surface of a subframe (made at its first sight; undefined for a main frame). */
  frameEntry(page: Surface, frame: Frame): Surface | undefined {
    if (frame === page.page.mainFrame()) return undefined
    const known = this.#frames.find((f) => f.frame === frame)
    if (known) return known
    const parentFrame = frame.parentFrame()
    const parent = parentFrame === null || parentFrame === page.page.mainFrame() ? page : this.frameEntry(page, parentFrame)
    const entry = new Surface(`fr${++this.frameSeq}`, page.page, Date.now(), frame, (parent ?? page).id, page)
    this.#frames.push(entry)
    return entry
  }

  /** @internal driver only */
  addWindow(page: Page, facts?: PageFacts | null): Surface {
    const existing = this.windowOf(page)
    if (existing) return existing
    // What the page is decides its id: w<n> a window, v<n> a view, g<n> a guest (undefined facts: not known, a window).
    const kind = facts ? kindOf(facts) : "window"
    const id = kind === "view" ? `v${++this.viewSeq}` : kind === "guest" ? `g${++this.guestSeq}` : `w${++this.windowSeq}`
    const entry = new Surface(id, page, Date.now())
    entry.kind = kind
    entry.facts = facts ?? undefined
    entry.classified = facts !== undefined || !this.hasMainProcess
    this.#windows.push(entry)
    if (this.#activeId === undefined) this.#activeId = entry.id
    this.watchPage(entry)
    this.linkParents()
    this.preferWindow()
    if (kind === "window") for (const listener of [...this.#windowListeners]) listener()
    return entry
  }

  /** @internal driver only: calls `listener` each time a window's own page is registered; returns its removal. */
  onWindowAdded(listener: () => void): () => void {
    this.#windowListeners.add(listener)
    return () => void this.#windowListeners.delete(listener)
  }

  /**
   * @internal driver only: registers a page once the main process said what it is (`facts`, ./surfaces.ts), so
   * its id says so from the start; what it logged or threw meanwhile is taken from playwright-core's history.
   */
  addPage(page: Page, facts: Promise<PageFacts | null | undefined>): Promise<Surface> {
    const existing = this.windowOf(page)
    if (existing) return Promise.resolve(existing)
    const pending = this.#pendingPages.get(page)
    if (pending) return pending
    const added = facts.then(
      (f) => this.addWindow(page, f),
      () => this.addWindow(page)
    )
    this.#pendingPages.set(page, added)
    void added.finally(() => this.#pendingPages.delete(page))
    return added
  }

  /** @internal driver only: resolves once the pages seen so far are registered. */
  pagesSettled(): Promise<void> {
    return Promise.all([...this.#pendingPages.values()]).then(() => undefined)
  }

  /** @internal driver only: gives views and guests their parent (a view's window page, a guest's embedder) once it is known. */
  linkParents(): void {
    for (const w of this.#windows) {
      const facts = w.facts
      if (facts === undefined || w.kind === "window" || w.parentId !== undefined) continue
      const parent =
        w.kind === "guest"
          ? this.#windows.find((p) => p.facts?.webContentsId === facts.hostId)
          : this.#windows.find((p) => p.kind === "window" && p.facts?.own === true && p.facts.windowId === facts.windowId)
      if (parent !== undefined) w.parentId = parent.id
    }
  }

  /** @internal driver only: `chosen` when the agent selected it (a default choice may move to a window). */
  setActive(id: string, chosen = false): void {
    this.#activeId = id
    if (chosen) this.#activeChosen = true
  }

  /** @internal driver only: the launch's first page is the default active surface; a view or guest gives way to a window (now or once registered). */
  launchedWith(id: string): void {
    this.setActive(id)
    this.preferWindow()
  }

  /** @internal driver only: a default active surface that is a view, a guest or a hidden window gives way to a shown window. */
  preferWindow(): void {
    if (this.#activeChosen) return
    const active = this.#activeId === undefined ? undefined : this.surface(this.#activeId)
    if (active !== undefined && active.kind === "window" && (isShownWindow(active) || !this.#windows.some(isShownWindow))) return
    const window = this.#windows.find(isShownWindow) ?? this.#windows.find((w) => w.kind === "window" && !w.closed)
    if (window !== undefined) this.#activeId = window.id
  }

  /** @internal driver only: adds a one-shot answer, replaces a standing one, or (undefined) clears them all. */
  setDialogPolicy(policy: DialogPolicy | undefined): void {
    this.#dialogAnswers.set(policy)
  }

  /** @internal driver only: records that the agent answered a pending dialog. */
  noteDialogAnswer(dialog: PendingDialog, action: "accept" | "dismiss"): void {
    this.modals.dialogAnswered(dialog)
    this.#dialogAnswers.ended(dialog, action)
  }

  /** @internal driver only: the oldest pending dialog of a window still open, removed from the queue (dialogs of closed windows need no answer and are dropped). */
  takeDialog(): PendingDialog | undefined {
    return this.modals.takeDialog(
      (dialog) => this.#windows.some((w) => w.id === dialog.window && !w.page.isClosed()),
      (dialog) => this.#dialogAnswers.ended(dialog, "window closed")
    )
  }

  /** @internal driver only */
  setTracing(on: boolean): void {
    this.#tracing = on
  }

  /** @internal driver only */
  addStep(step: RecordedStep): void {
    this.#steps.push(step)
  }

  /** @internal driver only: after a surface went away, the active one is the window a modal `gone` disabled, or the newest window left (a shown one first). */
  private activeGone(gone?: Surface): void {
    if (this.#activeId === undefined || this.surface(this.#activeId)?.closed === false) return
    const open = this.#windows.filter((w) => !w.closed)
    const parent = this.modals.modalParentOf(gone?.facts?.webContentsId)
    const back = parent === undefined ? undefined : open.find((w) => w.facts?.webContentsId === parent)
    this.#activeId = (back ?? open.filter(isShownWindow).pop() ?? open.filter((w) => w.kind === "window").pop() ?? open.pop())?.id
  }

  private watchPage(entry: Surface): void {
    const page = entry.page
    const window = entry.id
    for (const frame of page.frames()) this.frameEntry(entry, frame)
    page.on("frameattached", (frame) => void this.frameEntry(entry, frame))
    page.on("framedetached", (frame) => {
      const index = this.#frames.findIndex((f) => f.frame === frame)
      if (index >= 0) this.#frames.splice(index, 1)
      this.activeGone()
    })
    page.on("close", () => {
      const index = this.#windows.indexOf(entry)
      if (index >= 0) this.#windows.splice(index, 1)
      for (let i = this.#frames.length - 1; i >= 0; i--) if (this.#frames[i]!.page === page) this.#frames.splice(i, 1)
      this.activeGone(entry)
    })
    // Which surface an event came from: a frame's when its script's URL says so (./event-surface.ts).
    const frameOfScript = scriptSurface(entry, () => this.#frames.filter((f) => f.page === page && !f.closed))
    const recordConsole = (message: ConsoleMessage) => {
      const location = message.location()
      const item = {
        at: Date.now(),
        source: "renderer" as const,
        window,
        surface: window,
        level: message.type(),
        text: keptText(message.text()),
        ...(location.url ? { location: `${location.url}:${location.lineNumber}`, column: location.columnNumber } : {})
      }
      this.console.push(item)
      frameOfScript(location.url, (surface) => (item.surface = surface))
    }
    const recordPageError = (error: Error) => {
      const item = {
        at: Date.now(),
        kind: "pageerror" as const,
        window,
        surface: window,
        message: keptText(error.message),
        ...(error.stack ? { stack: keptStack(error.stack) } : {})
      }
      this.errors.push(item)
      frameOfScript(scriptOfStack(item.stack), (surface) => (item.surface = surface))
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
    backfill(
      page,
      "pageerror",
      () => page.pageErrors(),
      recordPageError,
      (e) => `${e.message}\u0000${e.stack ?? ""}`
    )
    page.on("crash", () => {
      this.errors.push({ at: Date.now(), kind: "crash", window, message: `The renderer of window ${window} crashed` })
    })
    const started = new WeakMap<object, { entry: RequestEntry; at: number }>()
    page.on("request", (request) => {
      let origin: Frame | undefined
      try {
        origin = request.frame()
      } catch {
        origin = undefined // a service worker's request has no frame
      }
      const frame = origin === undefined ? undefined : this.#frames.find((f) => f.frame === origin)
      const item: RequestEntry = {
        at: Date.now(),
        window,
        surface: frame?.id ?? window,
        method: request.method(),
        url: keptText(request.url()),
        resourceType: request.resourceType()
      }
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
      this.modals.dialogOpened(pending)
    })
    // Listening intercepts the page's native file picker: the chooser waits in the modal room instead.
    page.on("filechooser", (chooser) => this.modals.chooserOpened(window, chooser))
  }
}
