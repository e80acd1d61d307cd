/**
 * Snapshots: AI-mode aria snapshots of a window and the refs they give, resolving a target (a ref of the
 * window's latest snapshot or a selector) to a Locator, and whether a page changed since its latest
 * snapshot (./snapshot-ops.ts does the work; password values are masked in every snapshot).
 */
import { Context, Effect, Layer } from "effect"
import type { Locator } from "playwright-core"
import type { InvalidArgument, PlaywrightError, RefStale } from "./errors.js"
import type { PageChanges } from "./page-changes.js"
import type { Surface } from "./session.js"
import { SessionStore } from "./SessionStore.js"
import { snapshotOps } from "./snapshot-ops.js"
import { testDouble } from "./test-double.js"

export { maskPasswordValues, PASSWORD_MASK, passwordValues, shownFieldValue } from "./snapshot-ops.js"

export interface SnapshotsShape {
  /** Resolves a target (ref or selector) in a window to a Locator; refs are checked against its latest snapshot. */
  readonly locate: (entry: Surface, target: string) => Effect.Effect<Locator, RefStale | InvalidArgument>
  /** An AI-mode aria snapshot of a window (or of a target in it); records its refs. */
  /** `armed`: the change summary's snapshot, right after a change check that armed the page (pageChanges). */
  readonly snapshot: (
    entry: Surface,
    options?: { readonly target?: string; readonly depth?: number; readonly armed?: boolean }
  ) => Effect.Effect<string, PlaywrightError>
  /**
   * Whether the window's page changed since its latest full snapshot, without taking one: quiet when its
   * DOM and visibility are as they were (then the fields whose values changed, and where the focus went).
   */
  readonly pageChanges: (entry: Surface) => Effect.Effect<PageChanges>
  /** Records a full snapshot the agent was given as the window's latest (its refs become the valid ones). */
  readonly recordSnapshot: (entry: Surface, text: string) => Effect.Effect<void>
  /** Records the whole-window snapshot the agent was shown (the baseline of since:"last"). */
  readonly markShown: (entry: Surface, text: string) => Effect.Effect<void>
  /** A ref's locator code, computed once per snapshot of the window (`code` runs on a miss). */
  readonly refCode: (entry: Surface, ref: string, code: () => Promise<string>) => Effect.Effect<string>
  /** Forgets a window's snapshot and refs (after a navigation: the page they described is gone). */
  readonly forgetSnapshot: (entry: Surface) => Effect.Effect<void>
}

export class Snapshots extends Context.Tag("stagewright/Snapshots")<Snapshots, SnapshotsShape>() {
  static readonly layer = Layer.effect(
    Snapshots,
    Effect.map(SessionStore, (store) => Snapshots.of(snapshotOps(store.run, store.current)))
  )
  /** A double answering the given operations (any other one is a defect naming it). */
  static readonly layerTest = (given: Partial<SnapshotsShape>) => Layer.succeed(Snapshots, testDouble("Snapshots", given, []))
}
