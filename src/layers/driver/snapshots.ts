/**
 * The driver's snapshot and ref operations: resolving a target (a ref of the window's latest snapshot or
 * a selector), AI-mode aria snapshots (a full one becomes the window's latest and arms the page's change
 * check first), and the per-snapshot caches.
 */
import { Effect } from "effect"
import type { Locator, Page } from "playwright-core"
import { InvalidArgument, RefStale, type PlaywrightError } from "./errors.js"
import { armPageChanges, checkPageChanges } from "./page-changes.js"
import { expandSelector, REF_PATTERN } from "./selectors.js"
import type { WindowEntry } from "./session.js"

type Run = <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>

export const snapshotOps = (run: Run) => {
  const locate = (entry: WindowEntry, target: string): Effect.Effect<Locator, RefStale | InvalidArgument> => {
    const trimmed = target.trim()
    if (trimmed === "") return Effect.fail(new InvalidArgument({ message: "target is empty", hint: "Pass a ref like e12 from electron_snapshot, or a selector like role=button[name=\"Save\"]." }))
    if (REF_PATTERN.test(trimmed)) {
      if (!entry.refs.has(trimmed)) {
        return Effect.fail(
          new RefStale({
            message:
              entry.latestSnapshot === undefined
                ? `${trimmed} is a ref, but window ${entry.id} has no snapshot yet`
                : `${trimmed} is not in the latest snapshot of window ${entry.id}`
          })
        )
      }
      return Effect.succeed(entry.page.getByRef(trimmed))
    }
    return Effect.succeed(entry.page.locator(expandSelector(trimmed)))
  }

  const ariaSnapshot = (page: Page, depth?: number) => run("snapshot", () => page.ariaSnapshot({ mode: "ai", ...(depth !== undefined ? { depth } : {}) }))
  // A full snapshot becomes the window's latest: the page is armed first, so pageChanges compares with it.
  const fullSnapshot = (entry: WindowEntry) =>
    run("snapshot", () => armPageChanges(entry.page).then(() => entry.page.ariaSnapshot({ mode: "ai" })))
  const refreshRefs = (entry: WindowEntry) => Effect.map(fullSnapshot(entry), (full) => entry.recordSnapshot(full))
  // A quiet answer that names fields leaves them out of the latest snapshot: the next diff repeats them.
  const pageChanges = (entry: WindowEntry) =>
    Effect.promise(() => checkPageChanges(entry.page)).pipe(
      Effect.tap((changes) => (changes.quiet && changes.fields.length > 0 ? Effect.sync(() => entry.noteFieldsTold()) : Effect.void))
    )

  const snapshot = Effect.fn("ElectronDriver.snapshot")(function* (entry: WindowEntry, options: { readonly target?: string; readonly depth?: number } = {}) {
    const depth = options.depth
    if (options.target !== undefined) {
      const locator = yield* locate(entry, options.target)
      const text = yield* run("snapshot", () => locator.ariaSnapshot({ mode: "ai", ...(depth !== undefined ? { depth } : {}), timeout: 5_000 }))
      // A scoped snapshot replaces the page's ref map: take the full one again so every ref stays usable.
      yield* refreshRefs(entry)
      return text
    }
    if (depth === undefined) {
      const text = yield* fullSnapshot(entry)
      entry.recordSnapshot(text)
      return text
    }
    const text = yield* ariaSnapshot(entry.page, depth)
    yield* refreshRefs(entry)
    return text
  })

  const recordSnapshot = (entry: WindowEntry, text: string) => Effect.sync(() => entry.recordSnapshot(text))
  const refCode = (entry: WindowEntry, ref: string, code: () => Promise<string>) => {
    const snapshot = entry.latestSnapshot
    const cached = entry.refCodes.get(ref)
    if (cached !== undefined) return Effect.succeed(cached)
    return Effect.map(Effect.promise(code), (computed) => {
      if (entry.latestSnapshot === snapshot) entry.refCodes.set(ref, computed)
      return computed
    })
  }
  const markShown = (entry: WindowEntry, text: string) => Effect.sync(() => entry.markShown(text))
  const forgetSnapshot = (entry: WindowEntry) =>
    Effect.sync(() => {
      entry.recordSnapshot(undefined)
      entry.markShown(undefined)
    })

  return { locate, snapshot, pageChanges, recordSnapshot, refCode, markShown, forgetSnapshot }
}
