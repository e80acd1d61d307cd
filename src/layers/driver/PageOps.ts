/**
 * PageOps: driving a window's page with playwright-core within the call's bounds: a call mapped onto the
 * error vocabulary, typed operations for what tools do most (evaluate a page function, count matches,
 * talk to the page over a DevTools session that is always detached), polling a condition, waiting in
 * slices, and performing an action on an element that never outlives its call (./actions.ts).
 */
import { Context, Effect, Layer } from "effect"
import { spanned } from "./spans.js"
import type { CDPSession, Locator } from "playwright-core"
import { makeRunAction } from "./actions.js"
import type { PlaywrightError } from "./errors.js"
import { raceModal } from "./modal-gate.js"
import type { PendingDialog, Surface } from "./session.js"
import { SessionStore } from "./SessionStore.js"
import type { Action, Check, SessionError } from "./shape.js"
import { testDouble } from "./test-double.js"
import * as waits from "./waits.js"

/** A function run in the page (with a serializable argument), or its source. */
export type PageFunction<A, R> = string | ((arg: A) => R | Promise<R>)

export interface PageOpsShape {
  /** Runs a playwright-core call, mapping its rejection onto the error vocabulary (the general case). */
  readonly run: <A>(what: string, f: () => Promise<A>) => Effect.Effect<A, PlaywrightError>
  /** Evaluates a page function in a surface: a page's main frame, or a frame surface's frame. */
  readonly evaluate: <R, A = undefined>(entry: Surface, what: string, fn: PageFunction<A, R>, arg?: A) => Effect.Effect<R, PlaywrightError>
  /** How many elements a locator matches now (no waiting). */
  readonly count: (locator: Locator, what: string) => Effect.Effect<number, PlaywrightError>
  /** Runs `use` with a DevTools session of a window's page, detached after it however it ends. */
  readonly withCdp: <A>(entry: Surface, what: string, use: (cdp: CDPSession) => Promise<A>) => Effect.Effect<A, PlaywrightError | SessionError>
  /**
   * Reads `check` until it holds or `timeoutMs` passes (backing off 100 ms → 1 s); succeeds with the last
   * reading. A failed reading fails the poll at once. Interrupted, it makes no further reading.
   */
  readonly poll: <A, E, R>(check: Effect.Effect<Check<A>, E, R>, timeoutMs: number) => Effect.Effect<Check<A>, E, R>
  /**
   * Waits with playwright-core in slices of at most a second (`attempt` gets the slice's bound), until an
   * attempt succeeds or `timeoutMs` passes. A cancelled or timed-out call therefore stops driving the page
   * within a slice, instead of leaving a long Playwright wait running.
   */
  readonly waitSliced: (what: string, attempt: (sliceMs: number) => Promise<unknown>, timeoutMs: number) => Effect.Effect<void, PlaywrightError>
  /**
   * Performs an action on an element without leaving it in flight (./actions.ts): waits in slices with a
   * probe that changes nothing, then acts within the smaller of its timeout and the call's remaining budget.
   * A dialog the action opens is returned (unless `reportsDialogs` is false).
   */
  readonly runAction: <R>(action: Action<R>) => Effect.Effect<PendingDialog | undefined, PlaywrightError>
}

const make = Effect.map(SessionStore, (store) => {
  const run = store.run
  return PageOps.of({
    run,
    // The page function's type is restated for playwright-core (its own type is not exported).
    evaluate: <R, A>(entry: Surface, what: string, fn: PageFunction<A, R>, arg?: A) =>
      run(what, () => entry.scope.evaluate<R, A | undefined>(fn as never, arg)),
    count: (locator, what) => run(what, () => locator.count()),
    withCdp: (entry, what, use) =>
      Effect.flatMap(store.session, (s) =>
        run(what, async () => {
          const cdp = await s.context.newCDPSession(entry.page)
          try {
            return await use(cdp)
          } finally {
            await cdp.detach().catch(() => undefined)
          }
        })
      ),
    poll: waits.poll,
    waitSliced: (what, attempt, timeoutMs) =>
      waits.waitSliced((slice) => run(what, () => attempt(slice)), timeoutMs).pipe(Effect.asVoid, spanned("PageOps.waitSliced", { what })),
    runAction: makeRunAction(run, (what, f) => Effect.flatMap(store.current, (s) => raceModal(run, s?.modals, what, f)))
  })
})

export class PageOps extends Context.Tag("stagewright/PageOps")<PageOps, PageOpsShape>() {
  static readonly layer = Layer.effect(PageOps, make)
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<PageOpsShape>) => Layer.succeed(PageOps, testDouble("PageOps", given, []))
}
