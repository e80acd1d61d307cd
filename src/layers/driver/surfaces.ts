/**
 * Telling a window's page from a view's and a guest's, from main-process facts: each page's CDP target id
 * gives its webContents (`webContents.fromDevToolsTargetId`), whose `getType()` says `webview` for a guest
 * (its embedder is `hostWebContents`), and `BrowserWindow.fromWebContents` gives the window it is shown in:
 * the window's own page (`win.webContents`) is the window, any other page there is a view (a
 * WebContentsView's or a BrowserView's; its bounds from `contentView.children`). Without a main process
 * every page stays a window. Pages are classified once, the first time the driver looks after they opened.
 * The facts also say whether the window is visible: the default active surface is a shown window's own page
 * (the launch waits, bounded, for the window's page behind a view reported first, and for a window to show
 * when its first is hidden, such as a background window).
 */
import { Effect, Schedule } from "effect"
import type { PlaywrightError } from "./errors.js"
import type { AppSession } from "./session.js"
import type { MainValue, MainError, ElectronModule } from "./shape.js"
import type { Page } from "playwright-core"
import { mainSource, toFunction } from "./selectors.js"
import { kindOf, type PageFacts, type Surface } from "./surface.js"

type Run = <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
type EvaluateIn = <R, A>(s: AppSession, what: string, code: (electron: ElectronModule, arg: A) => R | Promise<R>, arg: A) => Effect.Effect<R, MainError>

/** A page's CDP target id (cached on the entry): the key main-process code finds its webContents by. */
export const targetIdOf = (s: AppSession, entry: Surface, run: Run): Effect.Effect<string, PlaywrightError> =>
  entry.targetId !== undefined
    ? Effect.succeed(entry.targetId)
    : run("read the window's target id", async () => {
        const cdp = await s.context.newCDPSession(entry.page)
        try {
          const { targetInfo } = (await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } }
          entry.targetId = targetInfo.targetId
          return targetInfo.targetId
        } finally {
          await cdp.detach().catch(() => undefined)
        }
      })

/** Runs in the main process: the facts of each target's webContents (null when it has none). */
const readFacts = (electron: ElectronModule, targetIds: ReadonlyArray<string | null>): Array<PageFacts | null> =>
  targetIds.map((id) => {
    if (id === null) return null
    const wc: MainValue = electron.webContents.fromDevToolsTargetId(id)
    if (!wc) return null
    const win: MainValue = electron.BrowserWindow.fromWebContents(wc)
    const own = Boolean(win) && win.webContents === wc
    let bounds: PageFacts["bounds"]
    if (win && !own) {
      const views: Array<MainValue> = win.contentView && Array.isArray(win.contentView.children) ? win.contentView.children : []
      const view =
        views.find((v) => v.webContents === wc) ??
        (typeof win.getBrowserViews === "function" ? win.getBrowserViews().find((v: MainValue) => v.webContents === wc) : undefined)
      if (view && typeof view.getBounds === "function") bounds = view.getBounds()
    }
    const ownerPage: MainValue = win && !own ? win.webContents : undefined
    return {
      webContentsId: wc.id,
      type: wc.getType(),
      windowId: win ? win.id : undefined,
      own,
      hostId: wc.hostWebContents ? wc.hostWebContents.id : undefined,
      bounds,
      windowPage: Boolean(ownerPage && !ownerPage.isDestroyed() && (ownerPage.isLoading() || ownerPage.getURL() !== "")),
      visible: win ? Boolean(win.isVisible()) : undefined
    }
  })

/** Runs `code` in the main process of a session that has one (launched: playwright-core's evaluate; attached: the inspector). */
const inMain = async <A, R>(s: AppSession, code: (electron: ElectronModule, arg: A) => R, arg: A): Promise<R> => {
  const source = mainSource(code)
  const app = s.electronApp
  return app
    ? ((await app.evaluate(toFunction(source) as Parameters<typeof app.evaluate>[0], arg as never)) as R)
    : await s.inspector!.evaluate<R, A>(source, arg)
}

/** Runs in the main process: whether each BrowserWindow (by id) is visible now (false when it is gone). */
const readVisible = (electron: ElectronModule, ids: ReadonlyArray<number>): Array<boolean> =>
  ids.map((id) => {
    const win: MainValue = electron.BrowserWindow.fromId(id)
    return Boolean(win && !win.isDestroyed() && win.isVisible())
  })

/** Whether the active surface is a default (not chosen) window that was hidden when its facts were last read. */
export const hiddenDefault = (s: AppSession): boolean => {
  const active = s.activeId === undefined ? undefined : s.surface(s.activeId)
  return !s.activeChosen && active?.kind === "window" && active.facts?.visible === false
}

/** Reads the windows' visibility again (one main-process call, bounded) and lets a shown window take the default place. */
const refreshVisibility = (s: AppSession): Effect.Effect<void> =>
  Effect.suspend(() => {
    const windows = s.windows.filter((w) => w.kind === "window" && !w.closed && w.facts?.windowId !== undefined)
    if (!s.hasMainProcess || windows.length === 0) return Effect.void
    return Effect.tryPromise(() =>
      inMain(
        s,
        readVisible,
        windows.map((w) => w.facts!.windowId!)
      )
    ).pipe(
      Effect.timeoutOption(3_000),
      Effect.flatMap((read) =>
        Effect.sync(() => {
          if (read._tag === "Some") windows.forEach((w, i) => void (w.facts = { ...w.facts!, visible: read.value[i] === true }))
          s.preferWindow()
        })
      ),
      Effect.ignore
    )
  })

/**
 * When a call looks for the default active surface and it is a window hidden when last read while other windows
 * are open (a background window the app made first): their visibility is read again, so a shown one takes over.
 */
export const preferShownWindow = (s: AppSession): Effect.Effect<void> =>
  Effect.suspend(() => (hiddenDefault(s) && s.windows.filter((w) => w.kind === "window" && !w.closed).length > 1 ? refreshVisibility(s) : Effect.void))

/**
 * At the launch's end, while the default active surface is a window hidden when last read: waits up to `ms`
 * (the windows' visibility read again every 100 ms) for a shown window, a main window shown on `ready-to-show`
 * or one made after a hidden background window. An app that shows no window (a tray app) launches `ms` later.
 */
export const awaitShownWindow = (s: AppSession, ms: number): Effect.Effect<void> =>
  Effect.suspend(() => (hiddenDefault(s) ? refreshVisibility(s) : Effect.void)).pipe(
    Effect.map(() => !hiddenDefault(s)),
    Effect.repeat({ schedule: Schedule.spaced("100 millis"), until: (shown) => shown }),
    Effect.timeoutOption(ms),
    Effect.asVoid
  )

/**
 * A page's facts as it opens (before it is registered, so its id says what it is): undefined when the main
 * process did not answer within `ms` (the page is then a window until the driver next looks), null when it
 * has no webContents there or the session has no main process.
 */
export const pageFacts = (s: AppSession, page: Page, ms = 3_000): Promise<PageFacts | null | undefined> => {
  if (!s.hasMainProcess) return Promise.resolve(null)
  const read = async () => {
    const cdp = await s.context.newCDPSession(page)
    let targetId: string
    try {
      targetId = ((await cdp.send("Target.getTargetInfo")) as { targetInfo: { targetId: string } }).targetInfo.targetId
    } finally {
      await cdp.detach().catch(() => undefined)
    }
    return (await inMain(s, readFacts, [targetId]))[0] ?? null
  }
  // An event callback, not a call: a main process that does not answer within `ms` leaves the page a window,
  // never unregistered (the read is bounded by Effect's timeout; a failed read is "not known" too).
  return Effect.runPromise(
    Effect.tryPromise(read).pipe(
      Effect.timeoutOption(ms),
      Effect.map((facts) => (facts._tag === "Some" ? facts.value : undefined)),
      Effect.orElseSucceed(() => undefined)
    )
  )
}

/**
 * When `first` (the launch's first page) is a view or guest whose window has a page of its own that is not
 * registered yet, waits up to `ms` for that page, so the launch answers with the window active and not with
 * whichever of its pages a busy machine reported first (a BaseWindow's views have no such page: no wait).
 */
export const windowPageOf = (s: AppSession, first: Surface, ms: number): Effect.Effect<void> =>
  Effect.suspend(() =>
    first.kind === "window" || first.facts?.windowPage !== true || s.windows.some((w) => w.kind === "window" && !w.closed)
      ? Effect.void
      : Effect.async<void>((resume) => {
          const off = s.onWindowAdded(() => {
            off()
            resume(Effect.void)
          })
          return Effect.sync(off)
        }).pipe(Effect.timeoutOption(ms), Effect.asVoid)
  )

/** Classifies the pages not classified yet (one main-process call for all), then links parents. Never fails. */
export const classifyPages = (s: AppSession, run: Run, evaluateIn: EvaluateIn): Effect.Effect<void> => {
  const pending = s.windows.filter((w) => !w.classified && !w.closed)
  // On every page-touching call there is usually nothing to ask the main process: no fiber work for that.
  if (pending.length === 0 || !s.hasMainProcess)
    return Effect.sync(() => {
      for (const w of pending) w.classified = true
      s.linkParents()
      s.preferWindow()
    })
  return Effect.gen(function* () {
    const ids = yield* Effect.forEach(pending, (w) => targetIdOf(s, w, run).pipe(Effect.orElseSucceed(() => null)), { concurrency: "unbounded" })
    const facts = yield* evaluateIn(s, "tell windows from views", readFacts, ids).pipe(Effect.timeout(5_000), Effect.either)
    // A main process that did not answer in time is asked again next time; one that failed, never.
    if (facts._tag === "Right" || facts.left._tag !== "TimeoutException") {
      pending.forEach((w, i) => {
        const f = facts._tag === "Right" ? (facts.right[i] ?? null) : null
        w.classified = true
        if (f === null) return
        w.facts = f
        w.kind = kindOf(f)
      })
    }
    s.linkParents()
    s.preferWindow()
  }).pipe(Effect.catchAllCause(() => Effect.void))
}
