import type { Page } from "playwright-core"

/**
 * Listens to a page event and also records what the page emitted before the listener existed, from
 * playwright-core's history of that page (`page.consoleMessages()`, `page.pageErrors()`). Events that
 * arrive while the history is fetched are held; those the history already holds (its tail, in order) are
 * dropped, so nothing is recorded twice or lost.
 */
export const backfill = <T>(
  page: Page,
  event: "console" | "pageerror",
  history: () => Promise<ReadonlyArray<T>>,
  record: (item: T) => void,
  key: (item: T) => string
): void => {
  let held: Array<T> | undefined = []
  page.on(event as "console", ((item: T) => (held ? held.push(item) : record(item))) as never)
  const goLive = (earlier: ReadonlyArray<T>) => {
    const live = held ?? []
    held = undefined
    for (const item of earlier) record(item)
    const earlierKeys = earlier.map(key)
    const liveKeys = live.map(key)
    let overlap = Math.min(earlierKeys.length, liveKeys.length)
    while (overlap > 0 && !liveKeys.slice(0, overlap).every((k, i) => k === earlierKeys[earlierKeys.length - overlap + i])) overlap--
    for (const item of live.slice(overlap)) record(item)
  }
  history().then(goLive, () => goLive([]))
}
