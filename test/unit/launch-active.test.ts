/**
 * Which surface a launch makes active (issue 34 item 7): playwright-core's firstWindow is whichever page a
 * loaded machine reports first, possibly a WebContentsView's. The window is the active surface in either
 * order: the view reported first and the window after it, or the window registered before the view. The launch
 * waits (bounded) for the window's own page when the first page is a view or guest of a window that has one
 * loading; a page still being registered when the active window closes becomes active once registered.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { EventEmitter } from "node:events"
import type { Page } from "playwright-core"
import { AppSession } from "../../src/layers/driver/session.js"
import type { PageFacts } from "../../src/layers/driver/surface.js"
import { windowPageOf } from "../../src/layers/driver/surfaces.js"

const newSession = () => new AppSession({ kind: "launched", context: undefined as never, hasMainProcess: true } as never)
/** A page as the session watches it: frames, events, a URL. */
const fakePage = (url: string) =>
  Object.assign(new EventEmitter(), {
    frames: () => [],
    mainFrame: () => ({}),
    isClosed: () => false,
    url: () => url,
    consoleMessages: async () => [],
    pageErrors: async () => []
  }) as unknown as Page
const windowFacts: PageFacts = { webContentsId: 1, type: "window", windowId: 1, own: true, hostId: undefined }
const viewFacts: PageFacts = { webContentsId: 2, type: "window", windowId: 1, own: false, hostId: undefined }

describe("the active surface after a launch", () => {
  it("is the window when the view's page was reported first and the window registered before it", () => {
    const s = newSession()
    const window = s.addWindow(fakePage("file:///index.html"), windowFacts)
    const view = s.addWindow(fakePage("file:///view.html"), viewFacts)
    expect(view.kind).toBe("view")
    s.launchedWith(view.id)
    expect(s.activeId).toBe(window.id)
  })

  it("is the window when the view's page was reported first and the window registers after the launch", () => {
    const s = newSession()
    const view = s.addWindow(fakePage("file:///view.html"), viewFacts)
    s.launchedWith(view.id)
    expect(s.activeId).toBe(view.id)
    const window = s.addWindow(fakePage("file:///index.html"), windowFacts)
    expect(s.activeId).toBe(window.id)
  })

  it("stays where the agent chose, a view included", () => {
    const s = newSession()
    s.addWindow(fakePage("file:///index.html"), windowFacts)
    const view = s.addWindow(fakePage("file:///view.html"), viewFacts)
    s.setActive(view.id, true)
    s.preferWindow()
    expect(s.activeId).toBe(view.id)
  })
})

describe("the launch's wait for the window's own page (windowPageOf)", () => {
  const viewOfLoadingWindow: PageFacts = { ...viewFacts, windowPage: true }

  it("waits when the first page is a view whose window's own page is loading, until that page registers", async () => {
    const s = newSession()
    const view = s.addWindow(fakePage("file:///view.html"), viewOfLoadingWindow)
    s.launchedWith(view.id)
    let done = false
    const waited = Effect.runPromise(windowPageOf(s, view, 5_000)).then(() => (done = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(done).toBe(false)
    const window = s.addWindow(fakePage("file:///index.html"), windowFacts)
    await waited
    expect(s.activeId).toBe(window.id)
  })

  it("does not wait for a BaseWindow's views (no page of its own), nor when the window is there already", async () => {
    const s = newSession()
    const view = s.addWindow(fakePage("file:///view.html"), { ...viewFacts, windowPage: false })
    // A bound far past the test's own: a wait here would fail the test by its timeout.
    await Effect.runPromise(windowPageOf(s, view, 600_000))
    const other = newSession()
    other.addWindow(fakePage("file:///index.html"), windowFacts)
    const laterView = other.addWindow(fakePage("file:///view.html"), viewOfLoadingWindow)
    await Effect.runPromise(windowPageOf(other, laterView, 600_000))
    expect(s.activeId).toBe(view.id)
  })

  it("gives up after its bound when the window's page never comes, the view still active", async () => {
    const s = newSession()
    const view = s.addWindow(fakePage("file:///view.html"), viewOfLoadingWindow)
    s.launchedWith(view.id)
    await Effect.runPromise(windowPageOf(s, view, 50))
    expect(s.activeId).toBe(view.id)
  })
})

describe("a page still being registered when the active window closes", () => {
  it("becomes the active surface once registered (a splash screen's successor)", async () => {
    const s = newSession()
    const splashPage = fakePage("file:///splash.html")
    let closed = false
    Object.assign(splashPage, { isClosed: () => closed })
    const splash = s.addWindow(splashPage, windowFacts)
    s.launchedWith(splash.id)
    let facts: (f: PageFacts) => void = () => undefined
    void s.addPage(fakePage("file:///index.html"), new Promise<PageFacts>((resolve) => (facts = resolve)))
    closed = true
    ;(splashPage as unknown as EventEmitter).emit("close")
    expect(s.activeId).toBeUndefined()
    facts({ ...windowFacts, webContentsId: 3, windowId: 2 })
    await s.pagesSettled()
    expect(s.activeId).toBe("w2")
  })
})

describe("a hidden window (a background window the app made) as the default active surface", () => {
  const hidden: PageFacts = { ...windowFacts, visible: false }
  const shown = (n: number): PageFacts => ({ ...windowFacts, webContentsId: 10 + n, windowId: 10 + n, visible: true })

  it("gives way to a shown window when one registers", () => {
    const s = newSession()
    const worker = s.addWindow(fakePage("file:///worker.html"), hidden)
    s.launchedWith(worker.id)
    expect(s.activeId).toBe(worker.id)
    const main = s.addWindow(fakePage("file:///index.html"), shown(1))
    expect(s.activeId).toBe(main.id)
  })

  it("stays where the agent chose it", () => {
    const s = newSession()
    const worker = s.addWindow(fakePage("file:///worker.html"), hidden)
    s.setActive(worker.id, true)
    s.addWindow(fakePage("file:///index.html"), shown(1))
    expect(s.activeId).toBe(worker.id)
  })

  it("is not where the active window's close leads while a shown window is left, however new", () => {
    const s = newSession()
    const main = s.addWindow(fakePage("file:///index.html"), shown(1))
    s.addWindow(fakePage("file:///worker.html"), hidden)
    const dialogPage = fakePage("file:///about.html")
    let closed = false
    Object.assign(dialogPage, { isClosed: () => closed })
    const about = s.addWindow(dialogPage, shown(2))
    s.setActive(about.id, true)
    closed = true
    ;(dialogPage as unknown as EventEmitter).emit("close")
    expect(s.activeId).toBe(main.id)
  })
})
