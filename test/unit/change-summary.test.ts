/**
 * Change summaries after an action are bounded in time: a snapshot that takes longer than the box gives
 * an answer that claims no change, only points to electron_snapshot since="last"; a quiet page (only fields
 * and focus changed) is summed up without one.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, type Layer, TestClock } from "effect"
import { Snapshots, type PageChanges, type Surface } from "../../src/layers/driver/ElectronDriver.js"
import { changeSummary, DIGEST_CHARS, SUMMARY_TIME_BOX_MS } from "../../src/tools/interact/act.js"
import { viewSnapshot } from "../../src/tools/snapshot/snapshot-view.js"

/** A page with `n` task rows (each a checkbox and two buttons), refs from e100 (6 a row). */
const page = (n: number, extra: ReadonlyArray<string> = []) =>
  [
    "- main [ref=e1]:",
    '  - searchbox "Search" [ref=e2]',
    '  - list "Task list" [ref=e3]:',
    ...Array.from({ length: n }, (_, i) => [
      `    - listitem [ref=e${100 + 6 * i}]:`,
      `      - 'checkbox "Done: Task ${i}" [ref=e${101 + 6 * i}]'`,
      `      - generic [ref=e${102 + 6 * i}]: Task ${i} ${"details ".repeat(6)}`,
      `      - button "Edit Task ${i}" [ref=e${103 + 6 * i}] [cursor=pointer]: Edit`,
      `      - button "Delete Task ${i}" [ref=e${104 + 6 * i}] [cursor=pointer]: Delete`
    ]).flat(),
    ...extra
  ].join("\n")

const entry = (latestSnapshot: string | undefined) => ({ latestSnapshot, page: { isClosed: () => false } }) as unknown as Surface
// A page that is never quiet: the summary comes from a snapshot.
const snapshotting = (snapshot: Effect.Effect<string>) => Snapshots.layerTest({ snapshot: () => snapshot, pageChanges: () => Effect.succeed({ quiet: false }) })
const quietPage = (changes: PageChanges) =>
  Snapshots.layerTest({ snapshot: () => Effect.die("a quiet page needs no snapshot"), pageChanges: () => Effect.succeed(changes) })
/** The change summary of the window, over the page the layer stands in for. */
const summary = (page: Layer.Layer<Snapshots>, window: Surface) => changeSummary(window).pipe(Effect.provide(page))

describe("changeSummary", () => {
  it.effect("past the time box, answers without a summary and claims no change", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(summary(snapshotting(Effect.never), entry('- button "Save" [ref=e1]')))
      yield* TestClock.adjust(SUMMARY_TIME_BOX_MS + 1)
      const text = yield* Fiber.join(fiber)
      assert.include(text, 'electron_snapshot since="last" shows any change')
      assert.notInclude(text, "The page changed")
      assert.notInclude(text, "Changes (")
    })
  )

  it.effect("within the time box, reports the change or its absence", () =>
    Effect.gen(function* () {
      const before = '- button "Save" [ref=e1]'
      const same = yield* summary(snapshotting(Effect.succeed(before)), entry(before))
      assert.include(same, "No change in the page's accessibility tree.")
      const changed = yield* summary(snapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), entry(before))
      assert.include(changed, "Changes (")
      assert.include(changed, "Undo")
    })
  )

  it.effect("reports a focus move beside the other changes (the diff itself ignores [active])", () =>
    Effect.gen(function* () {
      const before = '- textbox "Title" [ref=e1] [active]\n- button "Save" [ref=e2]'
      const after = '- textbox "Title" [ref=e1]\n- button "Save" [ref=e2] [active]\n- status [ref=e3]: Saved'
      const changed = yield* summary(snapshotting(Effect.succeed(after)), entry(before))
      assert.include(changed, "Changes (")
      assert.include(changed, "Saved")
      assert.include(changed, 'Focus moved: now on button "Save" e2.')
      const onlyFocus = yield* summary(snapshotting(Effect.succeed('- textbox "Title" [ref=e1]\n- button "Save" [ref=e2] [active]')), entry(before))
      assert.include(onlyFocus, 'besides the focus: now on button "Save" e2.')
      const stayed = yield* summary(snapshotting(Effect.succeed(`${before}\n- status [ref=e3]: Saved`)), entry(before))
      assert.notInclude(stayed, "Focus")
    })
  )

  it.effect("a diff after a quiet answer named fields says it holds them again", () =>
    Effect.gen(function* () {
      const before = '- button "Save" [ref=e1]'
      const told = { latestSnapshot: before, fieldsToldSinceSnapshot: true, page: { isClosed: () => false } } as unknown as Surface
      const changed = yield* summary(snapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), told)
      assert.include(changed, "Changes since the last snapshot, with the fields earlier answers named (+1 -0):")
      const plain = yield* summary(snapshotting(Effect.succeed(`${before}\n- button "Undo" [ref=e2]`)), entry(before))
      assert.include(plain, "\nChanges (+1 -0):")
    })
  )

  it.effect("a quiet page is summed up from its fields and focus, without a snapshot", () =>
    Effect.gen(function* () {
      const before = entry('- textbox "Title" [ref=e1]')
      assert.strictEqual(yield* summary(quietPage({ quiet: true, fields: [], focus: undefined }), before), "\nNo change in the page.")
      assert.strictEqual(
        yield* summary(quietPage({ quiet: true, fields: [], focus: "Save" }), before),
        '\nNo change in the page besides the focus: now on "Save".'
      )
      assert.strictEqual(
        yield* summary(
          quietPage({
            quiet: true,
            fields: [
              { label: "Title", value: "Buy milk", checkable: false },
              { label: "Urgent", value: "checked", checkable: true }
            ],
            focus: "Title"
          }),
          before
        ),
        '\nOnly fields changed: "Title" = "Buy milk" (focused); "Urgent" checked.'
      )
      assert.strictEqual(
        yield* summary(quietPage({ quiet: true, fields: [{ label: "Slug", value: "a-b", checkable: false }], focus: "Name" }), before),
        '\nOnly fields changed: "Slug" = "a-b"; focus on "Name".'
      )
    })
  )

  it.effect("many added rows of one shape: summed up by landmark and count, with their refs by row, within the bound", () =>
    Effect.gen(function* () {
      const before = page(1)
      const after = page(60)
      const text = yield* summary(snapshotting(Effect.succeed(after)), entry(before))
      assert.match(text, /^\nThe page changed \(\+\d+ -0 lines\), in short:\n/)
      assert.include(
        text,
        '+ 59 added to list "Task list" [ref=e3]: listitem ×59 (295 lines); refs of checkbox "Done: …", button "Edit …", button "Delete …" in each: Task 1 e107 e109 e110; Task 2 e113 e115 e116'
      )
      assert.match(text, /…, \+\d+ more rows/)
      // Never more than the bound, nor than the (folded) snapshot an agent would take instead.
      assert.isAtMost(text.length, DIGEST_CHARS + 60)
      assert.isBelow(text.length, viewSnapshot(after, {}).text.length)
    })
  )

  it.effect("a new dialog: its fields and buttons are the refs named first", () =>
    Effect.gen(function* () {
      const before = page(1)
      const dialog = [
        '  - dialog "Edit task" [ref=e900]:',
        ...Array.from({ length: 40 }, (_, i) => `    - paragraph [ref=e${901 + i}]: ${"help text ".repeat(4)}${i}`),
        '    - textbox "Task title" [active] [ref=e950]: Task 0',
        '    - button "Save" [ref=e951] [cursor=pointer]',
        '    - button "Cancel" [ref=e952] [cursor=pointer]'
      ]
      const text = yield* summary(snapshotting(Effect.succeed(page(1, dialog))), entry(before))
      assert.include(
        text,
        '+ dialog "Edit task" [ref=e900] (44 lines) in main [ref=e1]; refs: textbox "Task title" e950 (focused), button "Save" e951, button "Cancel" e952'
      )
      assert.isAtMost(text.length, DIGEST_CHARS + 60)
    })
  )

  it.effect("without a snapshot of the window, says nothing and takes none", () =>
    Effect.gen(function* () {
      assert.strictEqual(yield* summary(snapshotting(Effect.die("not called")), entry(undefined)), "")
    })
  )
})
