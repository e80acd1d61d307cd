/**
 * Which surface a launch makes active (issue 34 item 7): playwright-core's firstWindow is whichever page a
 * loaded machine reports first, possibly a WebContentsView's. The window is the active surface in either
 * order: the view reported first and the window after it, or the window registered before the view.
 */
import { describe, expect, it } from "vitest"
import { EventEmitter } from "node:events"
import type { Page } from "playwright-core"
import { AppSession } from "../../src/layers/driver/session.js"
import type { PageFacts } from "../../src/layers/driver/surface.js"

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
