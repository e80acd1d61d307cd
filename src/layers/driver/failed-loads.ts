/**
 * Windows whose load failed. Chromium (Electron's and the stand-in's alike) commits its error document
 * `chrome-error://chromewebdata/` for a main-frame load that failed, so `page.url()` is that, while the
 * navigation entry (and `webContents.getURL()` in main) keeps the URL the window tried to load. This module
 * reads that URL over CDP (no main process needed: it works for attached apps too), so that waiting for a
 * window by URL matches a window whose load failed, failed-load errors name their window, and a wait that
 * times out can say which windows it saw.
 */
import { Effect, Schedule } from "effect"
import { Timeout } from "./errors.js"
import { NotYet } from "./waits.js"
import type { AppSession, Surface } from "./session.js"

export const isErrorPage = (url: string) => url.startsWith("chrome-error://")

/** For a window showing Chromium's error document: the URL it failed to load (else undefined). Never fails. */
export const failedUrlOf = (s: AppSession, entry: Surface): Effect.Effect<string | undefined> =>
  !isErrorPage(entry.page.url()) || entry.page.isClosed()
    ? Effect.succeed(undefined)
    : Effect.tryPromise(async () => {
        const cdp = await s.context.newCDPSession(entry.page)
        try {
          const history = (await cdp.send("Page.getNavigationHistory")) as { currentIndex: number; entries: Array<{ url: string }> }
          const url = history.entries[history.currentIndex]?.url
          return url !== undefined && !isErrorPage(url) ? url : undefined
        } finally {
          await cdp.detach().catch(() => undefined)
        }
      }).pipe(
        Effect.timeout(2_000),
        Effect.orElseSucceed(() => undefined)
      )

/** Whether a window's URL, or for a failed load the URL it tried, contains `wanted`. */
export const urlMatches = (s: AppSession, entry: Surface, wanted: string): Effect.Effect<boolean> =>
  entry.page.url().includes(wanted) ? Effect.succeed(true) : Effect.map(failedUrlOf(s, entry), (failed) => failed?.includes(wanted) === true)

/** Gives the failed-load errors recorded without a window the window now showing the error for their URL. */
export const resolveFailedLoadWindows = (s: AppSession): Effect.Effect<void> =>
  Effect.gen(function* () {
    const pending = s.errors
      .since()
      .map((item) => item.value)
      .filter((e) => e.kind === "load-failed" && e.window === undefined)
    if (pending.length === 0) return
    const failed = yield* Effect.forEach(
      s.windows.filter((w) => isErrorPage(w.page.url())),
      (w) => Effect.map(failedUrlOf(s, w), (url) => ({ id: w.id, url })),
      { concurrency: "unbounded" }
    )
    for (const entry of pending) {
      const match = failed.find((f) => f.url !== undefined && f.url === entry.url)
      if (match) entry.window = match.id
    }
  })

/** One line per open window: id, title, URL, and for a failed load the URL it tried. */
const describeWindows = (s: AppSession, title: (entry: Surface, ms?: number) => Effect.Effect<string>) =>
  Effect.forEach(
    s.windows.filter((w) => !w.page.isClosed()),
    (w) =>
      Effect.all({ title: title(w, 1_000), failed: failedUrlOf(s, w) }).pipe(
        Effect.map(({ title, failed }) => ({ id: w.id, title, url: w.shownUrl(), ...(failed !== undefined ? { failedUrl: failed } : {}) }))
      ),
    { concurrency: "unbounded" }
  )

/**
 * Waits for a window whose title / URL contain the given text (one already open counts; a window whose load
 * failed matches the URL it tried), or without filters for the next new window. A timeout lists the windows seen.
 */
export const waitForWindow = (
  s: AppSession,
  filter: { readonly title?: string | undefined; readonly url?: string | undefined },
  timeoutMs: number,
  title: (entry: Surface, ms?: number) => Effect.Effect<string>
): Effect.Effect<Surface, Timeout> => {
  const filtered = filter.title !== undefined || filter.url !== undefined
  const known = new Set(s.windows)
  const matches = (entry: Surface) =>
    Effect.map(
      Effect.all([
        filter.title !== undefined ? Effect.map(title(entry), (t) => t.includes(filter.title!)) : Effect.succeed(true),
        filter.url !== undefined ? urlMatches(s, entry, filter.url) : Effect.succeed(true)
      ]),
      ([byTitle, byUrl]) => byTitle && byUrl
    )
  // Windows opened since the call started, or (with filters) any open window whose title / URL match now.
  const look = Effect.suspend(() =>
    Effect.filter(
      s.windows.filter((w) => !w.page.isClosed()),
      (w) => (filtered ? matches(w) : Effect.succeed(!known.has(w))),
      { concurrency: "unbounded" }
    )
  ).pipe(Effect.flatMap((found) => (found[0] ? Effect.succeed(found[0]) : Effect.fail(new NotYet()))))
  return look.pipe(
    Effect.retry({ schedule: Schedule.spaced("100 millis"), while: (error) => error instanceof NotYet }),
    Effect.timeout(timeoutMs),
    Effect.catchTag("NotYet", () => Effect.dieMessage("waitForWindow: retried without end")),
    Effect.catchTag("TimeoutException", () =>
      Effect.flatMap(describeWindows(s, title), (windows) => {
        const seen = windows.map((w) => `${w.id} "${w.title}" ${w.url}${w.failedUrl !== undefined ? ` (failed to load ${w.failedUrl})` : ""}`)
        return Effect.fail(
          new Timeout({
            message: `No ${filtered ? "matching " : "new "}window within ${timeoutMs} ms; open windows: ${seen.length > 0 ? seen.join("; ") : "none"}`,
            hint: "electron_windows lists them; pass a larger timeoutMs if the window opens later.",
            details: { windows }
          })
        )
      })
    )
  )
}
