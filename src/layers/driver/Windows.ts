/**
 * Windows: the app's open windows, the active one (the target of later calls), finding one by id, index,
 * title or URL, waiting for one to open, and what a window is (title, URL, its BrowserWindow's state).
 * `window()` passes the modal room's gate (./modal-room.ts): a page an unanswered web dialog blocks is refused at once.
 */
import { Context, Effect, Layer } from "effect"
import type { DialogOpen, Timeout } from "./errors.js"
import { WindowNotFound } from "./errors.js"
import * as failedLoads from "./failed-loads.js"
import { MainProcess } from "./MainProcess.js"
import { modalGate } from "./modal-gate.js"
import { titleOf, type AppSession, type Surface, type WindowInfo, type WindowSelector } from "./session.js"
import { surfaceFacts } from "./surface-info.js"
import { hiddenDefault, preferShownWindow } from "./surfaces.js"
import { SessionStore } from "./SessionStore.js"
import type { MainValue, SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"

export interface WindowsShape {
  /** A window by id, or the active one; fails at once with DialogOpen while a web dialog blocks its page. */
  readonly window: (id?: string) => Effect.Effect<Surface, SessionError | WindowNotFound | DialogOpen>
  /**
   * Every open window, for a call that touches each page; fails at once with DialogOpen when a web dialog
   * blocks one of them (its page runs no script: the call would wait out its bound).
   */
  readonly every: Effect.Effect<ReadonlyArray<Surface>, SessionError | DialogOpen>
  /** Every open surface (windows, views, guests, frames), parents first, new pages told apart first. */
  readonly surfaces: Effect.Effect<ReadonlyArray<Surface>, SessionError>
  readonly findWindow: (selector: WindowSelector) => Effect.Effect<Surface, SessionError | WindowNotFound>
  /** Makes the window the selector finds the active one. */
  readonly selectWindow: (selector: WindowSelector) => Effect.Effect<Surface, SessionError | WindowNotFound>
  /**
   * Waits for a window whose title / URL contain the given text (one already open counts), or without
   * filters for the next new window; makes it active unless `select` is false.
   */
  readonly waitForWindow: (
    filter: { readonly title?: string | undefined; readonly url?: string | undefined },
    options: { readonly timeoutMs: number; readonly select: boolean }
  ) => Effect.Effect<Surface, SessionError | Timeout>
  readonly windowInfo: (entry: Surface) => Effect.Effect<WindowInfo, SessionError>
  /** A window's title, "(not responding)" after `ms`. */
  readonly title: (entry: Surface, ms?: number) => Effect.Effect<string>
}

const describeWindowSelector = (selector: WindowSelector) =>
  Object.entries(selector)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")

const make = Effect.gen(function* () {
  const store = yield* SessionStore
  const main = yield* MainProcess

  /** The running session, its new pages told apart (window, view, guest). */
  const session = Effect.tap(store.session, (s) => store.refresh(s))
  const openIds = (s: AppSession) => s.surfaces.map((w) => w.id).join(", ") || "none"
  const gate = (s: AppSession, entry: Surface) => modalGate(s.pendingDialogs, (e) => (e.frame === undefined ? e.id : s.windowOf(e.page)?.id), entry)

  // On every page-touching call: untraced (the call has its span, Dispatcher.call).
  const window = Effect.fnUntraced(function* (id?: string) {
    const s = yield* session
    const found = (wanted: string | undefined) => (wanted === undefined ? undefined : s.surface(wanted))
    const entry = found(id ?? s.activeId)
    if (entry && !entry.closed && (id !== undefined || !hiddenDefault(s))) return yield* gate(s, entry)
    // A page playwright-core reported may still be on its way in (what it is, asked of the main process; bounded):
    // the window that replaces a closed one (a splash screen's successor) is active once it is registered, and
    // a default active window that was hidden (a background window) gives way to one shown since.
    yield* Effect.promise(() => s.pagesSettled())
    if (id === undefined) yield* preferShownWindow(s)
    const settled = found(id ?? s.activeId)
    if (settled && !settled.closed) return yield* gate(s, settled)
    const none = s.surfaces.length === 0
    return yield* new WindowNotFound({
      message: id === undefined ? `No active window (open surfaces: ${openIds(s)})` : `No window or surface ${id} (open: ${openIds(s)})`,
      // With no window at all the app may be between two (a splash screen closed, its successor not made yet).
      ...(none ? { hint: 'The app has no open window now; electron_wait_for { "text": "…" } waits for the next one to show it.' } : {})
    })
  })

  const title = (entry: Surface, ms?: number) => titleOf(entry.scope, ms)

  /** A view's bounds within its window, read now (they follow the app's layout), else as last read. */
  const viewBounds = (entry: Surface) =>
    entry.facts === undefined
      ? Effect.succeed({})
      : main
          .evaluateMain(
            "read the view's bounds",
            (electron, id: number) => {
              const wc = electron.webContents.fromId(id)
              const win = wc ? (electron.BrowserWindow.fromWebContents(wc) as MainValue) : null
              const views: Array<MainValue> =
                win && win.contentView ? [...win.contentView.children, ...(typeof win.getBrowserViews === "function" ? win.getBrowserViews() : [])] : []
              const view = views.find((v) => v.webContents === wc)
              return view ? (view.getBounds() as { x: number; y: number; width: number; height: number }) : null
            },
            entry.facts.webContentsId
          )
          .pipe(
            Effect.map((bounds) => (bounds === null ? {} : { bounds })),
            Effect.orElseSucceed(() => (entry.facts?.bounds !== undefined ? { bounds: entry.facts.bounds } : {}))
          )

  const every = Effect.flatMap(session, (s) =>
    Effect.forEach(
      s.windows.filter((w) => !w.page.isClosed()),
      (entry) => gate(s, entry)
    )
  )

  const findWindow = Effect.fn("Windows.findWindow")(function* (selector: WindowSelector) {
    const s = yield* session
    const open = s.surfaces
    if (selector.id !== undefined) {
      // Selecting is not touching the page: a window with an open dialog can be selected.
      const byId = open.find((w) => w.id === selector.id)
      if (byId) return byId
      return yield* new WindowNotFound({
        message: `No window or surface ${selector.id} (open: ${openIds(s)})`,
        hint: "electron_windows lists the surfaces: windows, views, guests and frames."
      })
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
      const urls =
        selector.url !== undefined ? yield* Effect.forEach(open, (entry) => failedLoads.urlMatches(s, entry, selector.url!), { concurrency: "unbounded" }) : []
      const found = open.find((entry, i) => (selector.title === undefined || titles[i]!.includes(selector.title)) && (selector.url === undefined || urls[i]))
      if (found) return found
    }
    return yield* new WindowNotFound({ message: `No window matches ${describeWindowSelector(selector)} (${open.length} open)` })
  })

  const activate = (s: AppSession, entry: Surface) =>
    Effect.sync(() => {
      s.setActive(entry.id, true)
      // A view, guest or frame is shown in its window: selecting it does not raise a page of its own.
      if (entry.kind === "window") entry.page.bringToFront().catch(() => undefined)
      return entry
    })

  const selectWindow = Effect.fn("Windows.selectWindow")(function* (selector: WindowSelector) {
    return yield* store.serialized(Effect.flatMap(findWindow(selector), (entry) => Effect.flatMap(session, (s) => activate(s, entry))))
  })

  const waitForWindow = Effect.fn("Windows.waitForWindow")(function* (
    filter: { readonly title?: string | undefined; readonly url?: string | undefined },
    options: { readonly timeoutMs: number; readonly select: boolean }
  ) {
    const s = yield* session
    const entry = yield* failedLoads.waitForWindow(s, filter, options.timeoutMs, title)
    if (options.select) yield* store.serialized(activate(s, entry))
    return entry
  })

  const windowInfo = Effect.fn("Windows.windowInfo")(function* (entry: Surface) {
    const s = yield* session
    const t = yield* title(entry)
    const failed = entry.frame === undefined ? yield* failedLoads.failedUrlOf(s, entry) : undefined
    const base = {
      ...surfaceFacts(s, entry),
      active: s.activeId === entry.id,
      title: t,
      url: entry.shownUrl(),
      ...(failed !== undefined ? { failedUrl: failed } : {})
    }
    if (entry.kind === "view") return { ...base, ...(yield* viewBounds(entry)) } as WindowInfo
    if (!s.hasMainProcess || entry.kind !== "window") return base as WindowInfo
    const details = yield* main
      .evaluateWindow(
        entry,
        "read the window state",
        (win) => ({
          bounds: win.getBounds(),
          focused: win.isFocused(),
          visible: win.isVisible(),
          minimized: win.isMinimized(),
          maximized: win.isMaximized(),
          fullScreen: win.isFullScreen()
        }),
        undefined
      )
      .pipe(Effect.orElseSucceed(() => ({})))
    return { ...base, ...details } as WindowInfo
  })

  return Windows.of({ window, every, surfaces: Effect.map(session, (s) => s.surfaces), findWindow, selectWindow, waitForWindow, windowInfo, title })
})

export class Windows extends Context.Tag("stagewright/Windows")<Windows, WindowsShape>() {
  static readonly layer = Layer.effect(Windows, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<WindowsShape>) => Layer.succeed(Windows, testDouble("Windows", given, ["every", "surfaces"]))
}
