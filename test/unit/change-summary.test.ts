/**
 * Change summaries after an action are bounded in time: a snapshot that takes longer than the box gives
 * an answer that claims no change, only points to electron_snapshot since="last"; a quiet page (only fields
 * and focus changed) is summed up without one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import type { ElectronDriver, PageChanges, WindowEntry } from "../../src/layers/driver/ElectronDriver.js"
import { changeSummary, SUMMARY_TIME_BOX_MS } from "../../src/tools/act.js"

const entry = (latestSnapshot: string | undefined) => ({ latestSnapshot, page: { isClosed: () => false } }) as unknown as WindowEntry
// A page that is never quiet: the summary comes from a snapshot.
const driverSnapshotting = (snapshot: Effect.Effect<string>) =>
  ({ snapshot: () => snapshot, pageChanges: () => Effect.succeed({ quiet: false }) }) as unknown as typeof ElectronDriver.Service
const quietDriver = (changes: PageChanges) =>
  ({ snapshot: () => Effect.die("a quiet page needs no snapshot"), pageChanges: () => Effect.succeed(changes) }) as unknown as typeof ElectronDriver.Service

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

  it.effect("a diff after a quiet answer named fields says it holds them again", () =>
    Effect.gen(function* () {
      const before = '- button "Save" [ref=e1]'
      const told = { latestSnapshot: before, fieldsToldSinceSnapshot: true, page: { isClosed: () => false } } as unknown as WindowEntry
      const changed = yield* changeSummary(driverSnapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), told)
      assert.include(changed, "Changes since the last snapshot, with the fields earlier answers named (+1 -0):")
      const plain = yield* changeSummary(driverSnapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), entry(before))
      assert.include(plain, "\nChanges (+1 -0):")
    }))

  it.effect("a quiet page is summed up from its fields and focus, without a snapshot", () =>
    Effect.gen(function* () {
      const before = entry('- textbox "Title" [ref=e1]')
      assert.strictEqual(yield* changeSummary(quietDriver({ quiet: true, fields: [], focus: undefined }), before), "\nNo change in the page.")
      assert.strictEqual(
        yield* changeSummary(quietDriver({ quiet: true, fields: [], focus: "Save" }), before),
        '\nNo change in the page besides the focus: now on "Save".'
      )
      assert.strictEqual(
        yield* changeSummary(
          quietDriver({ quiet: true, fields: [{ label: "Title", value: "Buy milk", checkable: false }, { label: "Urgent", value: "checked", checkable: true }], focus: "Title" }),
          before
        ),
        '\nOnly fields changed: "Title" = "Buy milk" (focused); "Urgent" checked.'
      )
      assert.strictEqual(
        yield* changeSummary(quietDriver({ quiet: true, fields: [{ label: "Slug", value: "a-b", checkable: false }], focus: "Name" }), before),
        '\nOnly fields changed: "Slug" = "a-b"; focus on "Name".'
      )
    }))

  it.effect("without a snapshot of the window, says nothing and takes none", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* changeSummary(driverSnapshotting(Effect.die("not called")), entry(undefined)), "")
    }))
})
