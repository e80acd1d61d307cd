/**
 * Windows: the app's open windows, the active one (the target of later calls), finding one by id, index,
 * title or URL, waiting for one to open, and what a window is (title, URL, its BrowserWindow's state). The
 * one dialog gate is here: `window()` refuses at once a page that an unanswered web dialog blocks.
 */
import { Context, Effect, Layer } from "effect"
import { dialogGate } from "./dialog-gate.js"
import type { DialogOpen, Timeout } from "./errors.js"
import { WindowNotFound } from "./errors.js"
import * as failedLoads from "./failed-loads.js"
import { MainProcess } from "./MainProcess.js"
import { titleOf, type AppSession, type WindowEntry, type WindowInfo, type WindowSelector } from "./session.js"
import { SessionStore } from "./SessionStore.js"
import type { SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"

export interface WindowsShape {
  /** A window by id, or the active one; fails at once with DialogOpen while a web dialog blocks its page. */
  readonly window: (id?: string) => Effect.Effect<WindowEntry, SessionError | WindowNotFound | DialogOpen>
  /**
   * Every open window, for a call that touches each page; fails at once with DialogOpen when a web dialog
   * blocks one of them (its page runs no script: the call would wait out its bound).
   */
  readonly every: Effect.Effect<ReadonlyArray<WindowEntry>, SessionError | DialogOpen>
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
}

const describeWindowSelector = (selector: WindowSelector) =>
  Object.entries(selector)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")

const make = Effect.gen(function* () {
  const store = yield* SessionStore
  const main = yield* MainProcess

  const window = Effect.fn("Windows.window")(function* (id?: string) {
    const s = yield* store.session
    const wanted = id ?? s.activeId
    const entry = s.windows.find((w) => w.id === wanted && !w.page.isClosed())
    if (entry) return yield* dialogGate(s, entry)
    const open = s.windows.map((w) => w.id).join(", ") || "none"
    return yield* new WindowNotFound({
      message: id === undefined ? `No active window (open windows: ${open})` : `No window ${id} (open windows: ${open})`
    })
  })

  const title = (entry: WindowEntry, ms?: number) => titleOf(entry.page, ms)

  const every = Effect.flatMap(store.session, (s) =>
    Effect.forEach(
      s.windows.filter((w) => !w.page.isClosed()),
      (entry) => dialogGate(s, entry)
    )
  )

  const findWindow = Effect.fn("Windows.findWindow")(function* (selector: WindowSelector) {
    const s = yield* store.session
    const open = s.windows.filter((w) => !w.page.isClosed())
    if (selector.id !== undefined) {
      // Selecting is not touching the page: a window with an open dialog can be selected.
      const byId = open.find((w) => w.id === selector.id)
      if (byId) return byId
      return yield* new WindowNotFound({ message: `No window ${selector.id} (open windows: ${open.map((w) => w.id).join(", ") || "none"})` })
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
      const urls = selector.url !== undefined ? yield* Effect.forEach(open, (entry) => failedLoads.urlMatches(s, entry, selector.url!), { concurrency: "unbounded" }) : []
      const found = open.find((entry, i) => (selector.title === undefined || titles[i]!.includes(selector.title)) && (selector.url === undefined || urls[i]))
      if (found) return found
    }
    return yield* new WindowNotFound({ message: `No window matches ${describeWindowSelector(selector)} (${open.length} open)` })
  })

  const activate = (s: AppSession, entry: WindowEntry) =>
    Effect.sync(() => {
      s.setActive(entry.id)
      entry.page.bringToFront().catch(() => undefined)
      return entry
    })

  const selectWindow = Effect.fn("Windows.selectWindow")(function* (selector: WindowSelector) {
    return yield* store.serialized(Effect.flatMap(findWindow(selector), (entry) => Effect.flatMap(store.session, (s) => activate(s, entry))))
  })

  const waitForWindow = Effect.fn("Windows.waitForWindow")(function* (
    filter: { readonly title?: string | undefined; readonly url?: string | undefined },
    options: { readonly timeoutMs: number; readonly select: boolean }
  ) {
    const s = yield* store.session
    const entry = yield* failedLoads.waitForWindow(s, filter, options.timeoutMs, title)
    if (options.select) yield* store.serialized(activate(s, entry))
    return entry
  })

  const windowInfo = Effect.fn("Windows.windowInfo")(function* (entry: WindowEntry) {
    const s = yield* store.session
    const t = yield* title(entry)
    const failed = yield* failedLoads.failedUrlOf(s, entry)
    const base = { id: entry.id, active: s.activeId === entry.id, title: t, url: entry.page.url(), ...(failed !== undefined ? { failedUrl: failed } : {}) }
    if (!s.hasMainProcess) return base as WindowInfo
    const details = yield* main
      .evaluateWindow(entry, "read the window state", (win) => ({
        bounds: win.getBounds(),
        focused: win.isFocused(),
        visible: win.isVisible(),
        minimized: win.isMinimized(),
        maximized: win.isMaximized(),
        fullScreen: win.isFullScreen()
      }), undefined)
      .pipe(Effect.orElseSucceed(() => ({})))
    return { ...base, ...details } as WindowInfo
  })

  return Windows.of({ window, every, findWindow, selectWindow, waitForWindow, windowInfo, title })
})

export class Windows extends Context.Tag("stagewright/Windows")<Windows, WindowsShape>() {
  static readonly layer = Layer.effect(Windows, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<WindowsShape>) => Layer.succeed(Windows, testDouble("Windows", given, ["every"]))
}
