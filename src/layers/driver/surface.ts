/**
 * A surface: one renderer an agent can target — a window's own page, a WebContentsView/BrowserView's page
 * (a view), a `<webview>` guest's page (a guest), or a frame inside any of them (same- or cross-origin).
 * Each has an id that survives navigation and is never reused in its session (`w<n>` a window, `v<n>` a
 * view, `g<n>` a guest, `fr<n>` a frame), its kind, its parent surface, and the latest snapshot with
 * its refs. What kind a page is comes from the main process (webContents.getType(),
 * BrowserWindow.fromWebContents, hostWebContents: ./surfaces.ts); a page is a window until that is known
 * (and for good without a main process).
 */
import type { Frame, Page } from "playwright-core"
import { clipText, MAX_URL_CHARS } from "./clip.js"

export type SurfaceKind = "window" | "view" | "guest" | "frame"

/** What an agent can do in a surface: snapshot and refs, element tools, renderer eval, window state and bounds. */
export type SurfaceAbility = "snapshot" | "interact" | "eval" | "window-state"

/** Main-process facts about a page's webContents (./surfaces.ts reads them). */
export interface PageFacts {
  readonly webContentsId: number
  /** `webContents.getType()`: window (a window's page or a WebContentsView's), browserView, webview. */
  readonly type: string
  /** The BrowserWindow (or BaseWindow) it is shown in. */
  readonly windowId: number | undefined
  /** Whether it is that window's own page. */
  readonly own: boolean
  /** A guest's embedder (`hostWebContents.id`). */
  readonly hostId: number | undefined
  /** A view's bounds within its window. */
  readonly bounds?: { x: number; y: number; width: number; height: number } | undefined
  /**
   * A view's or guest's: the window it is shown in has a page of its own with a document, loaded or loading
   * (playwright-core will report that page as well); false for a BaseWindow's views.
   */
  readonly windowPage?: boolean
  /** Whether the window it is shown in was visible when the facts were read (a hidden window: a background worker). */
  readonly visible?: boolean
}

/** An open window's own page not known to be hidden (when facts were last read): what a default active surface prefers. */
export const isShownWindow = (s: Surface): boolean => s.kind === "window" && !s.closed && s.facts?.visible !== false

/** What main-process facts make a page: a guest (`webview`), a window's own page, or a view shown in a window. */
export const kindOf = (facts: PageFacts): SurfaceKind => (facts.type === "webview" ? "guest" : facts.own || facts.windowId === undefined ? "window" : "view")

/**
 * A surface: anything the agent acts on by id — a window's own page (`w1`), a view shown in a window, a
 * guest (`<webview>`) or a frame inside one of them — with its latest snapshot's refs. (Was `WindowEntry`.)
 */
export class Surface {
  #latestSnapshot: string | undefined
  #refs: ReadonlySet<string> = new Set()
  #shownSnapshot: string | undefined
  #fieldsToldSinceSnapshot = false
  /** @internal driver only: refs' normalized locator code, valid for the latest snapshot */
  readonly refCodes = new Map<string, string>()
  /**
   * @internal driver only: the page was armed by the last change check (it was not quiet: a snapshot
   * follows), so the change summary's snapshot need not arm it again (./page-changes.ts).
   */
  armedAhead = false
  /**
   * @internal driver only: the values of the page's password fields the arming check read (in the same
   * evaluation), for masking the snapshot that follows without reading them again; undefined when not read.
   */
  armedPasswords: ReadonlyArray<string> | undefined = undefined
  /** @internal the driver caches the CDP target id here */
  targetId: string | undefined
  /** @internal set by the driver once the main process said what this page is (frames: at creation) */
  kind: SurfaceKind
  /** @internal the surface this one is shown in (a view's window, a guest's embedder, a frame's parent) */
  parentId: string | undefined
  /** @internal main-process facts of a page surface, once read (undefined without a main process) */
  facts: PageFacts | undefined
  /** @internal whether the driver has classified this page (frames are born classified) */
  classified: boolean
  constructor(
    readonly id: string,
    readonly page: Page,
    readonly openedAt: number,
    /** Set on a frame surface: the frame, inside `page`. */
    readonly frame?: Frame | undefined,
    parentId?: string,
    /** A frame's page surface (whose refs its refs are). */
    readonly owner?: Surface
  ) {
    this.kind = frame === undefined ? "window" : "frame"
    this.parentId = parentId
    this.classified = frame !== undefined
  }

  /** Where locators, evaluations and text waits run: the frame of a frame surface, else the page. */
  get scope(): Page | Frame {
    return this.frame ?? this.page
  }

  /** Whether the surface is gone (its page closed, or its frame detached). */
  get closed(): boolean {
    return this.page.isClosed() || (this.frame !== undefined && this.frame.isDetached())
  }

  url(): string {
    return this.scope.url()
  }

  /** The URL as answers show it: cut past MAX_URL_CHARS (a page can make its URL megabytes long). */
  shownUrl(): string {
    return clipText(this.scope.url(), MAX_URL_CHARS)
  }

  /**
   * The prefix of this surface's refs (refs are unique per session, so a ref says which page it is of): a
   * view's or guest's refs carry its id (`v1e5`); a window's refs are bare (`e5`), as Playwright
   * writes them. A frame's refs are its page's (Playwright's `f<n>e<m>` inside the page).
   */
  get refPrefix(): string {
    if (this.owner !== undefined) return this.owner.refPrefix
    return this.kind === "view" || this.kind === "guest" ? this.id : ""
  }

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
