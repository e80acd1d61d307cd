/**
 * Change summaries after an action are bounded in time: a snapshot that takes longer than the box gives
 * an answer that claims no change, only points to electron_snapshot since="last".
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import type { ElectronDriver, WindowEntry } from "../../src/layers/driver/ElectronDriver.js"
import { changeSummary, SUMMARY_TIME_BOX_MS } from "../../src/tools/act.js"

const entry = (latestSnapshot: string | undefined) => ({ latestSnapshot, page: { isClosed: () => false } }) as unknown as WindowEntry
const driverSnapshotting = (snapshot: Effect.Effect<string>) => ({ snapshot: () => snapshot }) as unknown as typeof ElectronDriver.Service

describe("changeSummary", () => {
  it.effect("past the time box, answers without a summary and claims no change", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(changeSummary(driverSnapshotting(Effect.never), entry('- button "Save" [ref=e1]')))
      yield* TestClock.adjust(SUMMARY_TIME_BOX_MS + 1)
      const text = yield* Fiber.join(fiber)
      assert.include(text, 'electron_snapshot since="last" shows any change')
      assert.notInclude(text, "The page changed")
      assert.notInclude(text, "Changes (")
    }))

  it.effect("within the time box, reports the change or its absence", () =>
    Effect.gen(function* () {
      const before = '- button "Save" [ref=e1]'
      const same = yield* changeSummary(driverSnapshotting(Effect.succeed(before)), entry(before))
      assert.include(same, "No change in the page's accessibility tree.")
      const changed = yield* changeSummary(driverSnapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), entry(before))
      assert.include(changed, "Changes (")
      assert.include(changed, "Undo")
    }))

  it.effect("without a snapshot of the window, says nothing and takes none", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* changeSummary(driverSnapshotting(Effect.die("not called")), entry(undefined)), "")
    }))
})
