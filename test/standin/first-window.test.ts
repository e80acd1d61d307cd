/**
 * The first window as Electron reports it, and one failure per failed load.
 *
 * - A new BrowserWindow starts on its initial empty document (webContents.getURL() is ''), and
 *   playwright-core reports a page on that document only once its first navigation commits. So right after
 *   `firstWindow()` the page is the app's page: the caller's first actions (evaluate, title, click) act on it,
 *   and the app's own load does not land on top of them ("Execution context was destroyed", "navigation
 *   interrupted by another navigation").
 * - Closing a window while its first load is in flight closes it: `page.close()` right after `firstWindow()`
 *   (the page's image is held by the test's server, so the load cannot finish), `win.close()` before the first
 *   commit (the document itself is held).
 * - A failed load fails once: one did-fail-load, one "Failed to load URL" warning, one navigation. Chromium
 *   would otherwise reload its network error page by itself after ~1 s and ~5 s (its auto-reload), which
 *   Electron does not have. Absence cannot be awaited, so the test uses a control: a second launch with
 *   Chromium's `--enable-auto-reload` switch (it wins over the stand-in's `--disable-auto-reload`) fails the
 *   same way *after* the first launch failed, and the test waits for the control's retry (an event: its
 *   second did-fail-load). Chromium's retry delays are fixed, so a retry of the first launch would have come before
 *   the control's; then the first launch's counts are read. On a real Electron the control is not run
 *   (Electron has no such retry to compare with).
 *
 * Each run is a sample of a race: the outcomes of all runs are collected and compared at the end, so a
 * failure shows how many runs went wrong and how.
 */
import type { ElectronApplication } from "playwright-core"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { createServer as createNetServer, type AddressInfo } from "node:net"
import { EventEmitter, once } from "node:events"
import { afterAll, describe, expect, it } from "vitest"
import { fixture, isStandin, launch, runtime } from "./helpers.js"

const RACE_RUNS = 20
const CLOSE_RUNS = 10
const appPage = /first-window\/index\.html$/

/** What the fixture app records (test/fixtures/electron-standin-tests/first-window/main.js). */
interface WindowRecord {
  readonly url: string
  readonly closed: number
  readonly load: string
  readonly didFailLoad: ReadonlyArray<[number, string, string]>
  readonly didStartNavigation: ReadonlyArray<string>
  readonly didFinishLoad: number
}
interface FixtureState {
  readonly windows: Record<string, WindowRecord>
  readonly warnings: ReadonlyArray<string>
}
const fixtureState = (app: ElectronApplication): Promise<FixtureState> => app.evaluate(() => (globalThis as any).firstWindowState)

/**
 * A local server whose responses the test holds: `/page?run=N` is an HTML page whose image `/held?run=N`
 * never answers, `/held-doc?run=N` is a document that never answers. `requested(path)` resolves once the
 * server has received that request.
 */
const heldServer = async (): Promise<{ base: string; requested: (path: string) => Promise<void>; close: () => Promise<void> }> => {
  const seen = new Set<string>()
  const arrivals = new EventEmitter()
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? "/"
    seen.add(path)
    arrivals.emit(path)
    if (path.startsWith("/page")) {
      const run = new URL(path, "http://localhost").searchParams.get("run") ?? ""
      response.writeHead(200, { "content-type": "text/html" })
      response.end(`<!doctype html><title>Held ${run}</title><p>loading</p><img src="/held?run=${run}">`)
    }
    // /held and /held-doc: no answer until the page or the server goes away.
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    requested: (path) => (seen.has(path) ? Promise.resolve() : once(arrivals, path).then(() => undefined)),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

/** A local port with nothing listening on it. */
const closedPort = async (): Promise<number> => {
  const server = createNetServer()
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Registers a listener for window `id`'s `closed` in the main process (resolves once it is registered), and
 * gives a function resolving with the number of windows left once `closed` has fired.
 */
const watchClosed = async (app: ElectronApplication, id: number): Promise<() => Promise<number>> => {
  await app.evaluate(({ BrowserWindow }, windowId) => {
    const win = BrowserWindow.fromId(windowId)!
    ;(globalThis as any).closedWatch = new Promise<number>((resolve) =>
      win.once("closed", () => setImmediate(() => resolve(BrowserWindow.getAllWindows().length)))
    )
  }, id)
  return () => app.evaluate(() => (globalThis as any).closedWatch as Promise<number>)
}

/** `promise`, or a rejection naming `what` after `ms` (a bound for a run that went wrong, not a wait). */
const bounded = async <T>(promise: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, expired])
  } finally {
    clearTimeout(timer)
  }
}

describe(`the first window on ${runtime.kind}`, () => {
  it(`reports the first window on the app's page, so the first actions act on it (${RACE_RUNS} launches)`, async () => {
    const outcomes: Array<unknown> = []
    for (let run = 0; run < RACE_RUNS; run++) {
      const app = await launch(fixture("first-window"))
      try {
        const page = await app.firstWindow()
        // The caller's first actions, at once: none may fail, all must see the app's page.
        const reportedUrl = page.url()
        const href = await page.evaluate(() => location.href)
        await page.title()
        await page.click("#go")
        const clicks = await page.textContent("#count")
        await page.waitForLoadState("load")
        const title = await page.title()
        const { windows } = await fixtureState(app)
        outcomes.push({
          reportedUrl: appPage.test(reportedUrl),
          href: appPage.test(href),
          clicks,
          title,
          urlBeforeLoad: windows["1"]!.url,
          windows: app.windows().length
        })
      } catch (error) {
        outcomes.push({ error: String((error as Error).message).split("\n")[0] })
      } finally {
        await app.close()
      }
    }
    const expected = { reportedUrl: true, href: true, clicks: "1", title: "First Window", urlBeforeLoad: "", windows: 1 }
    expect(outcomes).toEqual(Array.from({ length: RACE_RUNS }, () => expected))
  }, 180_000)

  it(`closes the first window with page.close() during its first load (${CLOSE_RUNS} launches)`, async () => {
    const server = await heldServer()
    const outcomes: Array<unknown> = []
    try {
      for (let run = 0; run < CLOSE_RUNS; run++) {
        // The page's image is never answered: its first load cannot finish before the close.
        const app = await launch(fixture("first-window"), { args: [`--load-url=${server.base}/page?run=${run}`] })
        try {
          const page = await app.firstWindow()
          const closed = await watchClosed(app, 1)
          await bounded(page.close(), 15_000, "page.close()")
          const left = await bounded(closed(), 15_000, "closed")
          const record = (await fixtureState(app)).windows["1"]!
          outcomes.push({ left, closed: record.closed, loaded: record.didFinishLoad, pageClosed: page.isClosed(), windows: app.windows().length })
        } catch (error) {
          outcomes.push({ error: String((error as Error).message).split("\n")[0] })
        } finally {
          await app.close()
        }
      }
    } finally {
      await server.close()
    }
    expect(outcomes).toEqual(Array.from({ length: CLOSE_RUNS }, () => ({ left: 0, closed: 1, loaded: 0, pageClosed: true, windows: 0 })))
  }, 120_000)

  it(`closes a window with win.close() while its first document is still requested (${CLOSE_RUNS} windows, one launch)`, async () => {
    const server = await heldServer()
    // The launch's own first window loads the app's page. It must commit: playwright-core's connect waits
    // for every page it finds at connect to be initialized, and a page on its initial document initializes
    // at its first commit — a first window whose document is held would hold the launch itself (on
    // Electron too, whenever the window exists before Playwright connects).
    const app = await launch(fixture("first-window"))
    const outcomes: Array<unknown> = []
    try {
      await app.firstWindow()
      for (let run = 0; run < CLOSE_RUNS; run++) {
        try {
          const id: number = await app.evaluate((_electron, url) => (globalThis as any).openWindow(url), `${server.base}/held-doc?run=${run}`)
          await server.requested(`/held-doc?run=${run}`)
          const closed = await watchClosed(app, id)
          await app.evaluate(({ BrowserWindow }, windowId) => BrowserWindow.fromId(windowId)!.close(), id)
          const left = await bounded(closed(), 15_000, "closed")
          const record = (await fixtureState(app)).windows[String(id)]!
          outcomes.push({ left, closed: record.closed, loaded: record.didFinishLoad })
        } catch (error) {
          outcomes.push({ error: String((error as Error).message).split("\n")[0] })
        }
      }
      // A window whose first document never arrived was never reported to Playwright (as on Electron):
      // only the first window's page is.
      expect(app.windows().map((page) => page.url())).toEqual([expect.stringMatching(appPage)])
    } finally {
      await app.close()
      await server.close()
    }
    // The launch's own first window stays open: one window left each time.
    expect(outcomes).toEqual(Array.from({ length: CLOSE_RUNS }, () => ({ left: 1, closed: 1, loaded: 0 })))
  }, 120_000)

  describe("a failed load", () => {
    const apps: Array<ElectronApplication> = []

    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()))
    })

    /** Launches the fixture with its first window loading `url`. */
    const launchFailing = async (url: string, switches: Array<string> = []): Promise<ElectronApplication> => {
      const app = await launch(fixture("first-window"), { args: [...switches, `--load-url=${url}`] })
      apps.push(app)
      return app
    }
    /** Resolves once the app's first window has had `count` failed loads (the app's own did-fail-load event). */
    const failedLoads = (app: ElectronApplication, count: number): Promise<number> =>
      app.evaluate((_electron, n) => (globalThis as any).whenFailed(1, n), count)

    it("emits one did-fail-load, one warning and one navigation per failed loadURL (no error-page auto-reload)", async () => {
      const failing = `http://127.0.0.1:${await closedPort()}/`
      const subject = await launchFailing(failing)
      await failedLoads(subject, 1)
      if (isStandin) {
        // The control reloads its error page by itself ~1 s after its own failure, which came after the
        // subject's: by the time of the control's retry, a retry of the subject would have come too.
        const control = await launchFailing(failing, ["--enable-auto-reload"])
        await expect(failedLoads(control, 2)).resolves.toBe(2)
      }
      const failed = await fixtureState(subject)
      expect(failed.windows["1"]).toMatchObject({
        load: "ERR_CONNECTION_REFUSED",
        didFailLoad: [[-102, "ERR_CONNECTION_REFUSED", failing]],
        didStartNavigation: [failing]
      })
      expect(failed.warnings).toEqual([`Failed to load URL: ${failing} with error: ERR_CONNECTION_REFUSED`])

      // A good load afterwards: one more navigation, nothing more failed.
      await subject.evaluate(({ BrowserWindow }) => BrowserWindow.fromId(1)!.loadFile("index.html"))
      const after = await fixtureState(subject)
      expect(after.windows["1"]).toMatchObject({ didFailLoad: [[-102, "ERR_CONNECTION_REFUSED", failing]], didFinishLoad: 1 })
      expect(after.windows["1"]!.didStartNavigation).toEqual([failing, expect.stringMatching(appPage)])
      expect(after.warnings).toHaveLength(1)
    }, 60_000)
  })
})
