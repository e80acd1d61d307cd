/**
 * What changed in a window's page after an action: the change in its snapshot when the agent has one and
 * the change is small, else a digest; just the fields when the DOM did not change.
 */
import { Duration, Effect, Option } from "effect"
import { Snapshots, type FieldChange, type Surface } from "../../layers/driver/ElectronDriver.js"
import { digestChanges } from "./change-digest.js"
import { compareSnapshots, diffCounts, diffOf } from "./snapshot-diff.js"
import { lineInfo } from "./snapshot-fold.js"
import { viewDiff, viewSnapshot } from "./snapshot-view.js"

/** Changes up to this many characters are returned with the action's result. */
export const SMALL_DIFF_CHARS = 1_000
/** A bigger change is summed up in at most this many characters (and never more than a follow-up snapshot). */
export const DIGEST_CHARS = 1_200

/**
 * A change summary may take this long (a full aria snapshot of the window, ~40 ms on the tasks board; a
 * loaded machine or a huge page can take many times that); past it the action answers
 * without one, so a big page never makes every action slow. The refs stay those of the last snapshot.
 */
export const SUMMARY_TIME_BOX_MS = 1_000

/** Whether an action in this window's page has a change summary to give: the agent has a snapshot of it and it is open. */
export const summarizes = (entry: Surface): boolean => entry.latestSnapshot !== undefined && !entry.closed

/**
 * After an action: the change in the window's snapshot when the agent has one and the change is small.
 * A page whose DOM and visibility did not change needs no new snapshot: the answer names the fields that
 * changed (the action's own, usually) and where the focus went.
 */
export const changeSummary = (entry: Surface): Effect.Effect<string, never, Snapshots> =>
  Effect.gen(function* () {
    const snapshots = yield* Snapshots
    const previous = entry.latestSnapshot
    if (previous === undefined || !summarizes(entry)) return ""
    const changes = yield* snapshots.pageChanges(entry)
    if (changes.quiet) return quietSummary(changes.fields, changes.focus)
    // The diff is against the latest snapshot: field changes earlier answers named are in it again.
    const since = entry.fieldsToldSinceSnapshot ? " since the last snapshot, with the fields earlier answers named" : ""
    // The check armed the page for this snapshot (one evaluation, not a check and an arm).
    const taken = yield* snapshots.snapshot(entry, { armed: true }).pipe(
      Effect.orElseSucceed(() => undefined),
      Effect.timeoutOption(Duration.millis(SUMMARY_TIME_BOX_MS))
    )
    if (Option.isNone(taken))
      return `\nNo change summary (the page took over ${SUMMARY_TIME_BOX_MS} ms to snapshot); electron_snapshot since="last" shows any change.`
    const next = taken.value
    if (next === undefined) return ""
    const comparison = compareSnapshots(previous, next)
    const diff = diffOf(comparison)
    const focus = focusMove(previous, next)
    if (diff.added === 0 && diff.removed === 0 && diff.changed === 0)
      return `\nNo change in the page's accessibility tree${focus === undefined ? "." : ` besides the focus: now on ${focus}.`}`
    const moved = (text: string) => (focus === undefined || text.includes("(focused)") ? text : `${text}\nFocus moved: now on ${focus}.`)
    if (diff.text.length <= SMALL_DIFF_CHARS) return moved(`\nChanges${since} (${diffCounts(diff)}):\n${diff.text}`)
    // Many added rows of one shape fold to a count and their refs; what still does not fit is summed up.
    const folded = viewDiff(diff.text, {})
    if (folded.text.length <= SMALL_DIFF_CHARS)
      return moved(`\nChanges${since} (${diffCounts(diff)}, ${folded.folded.foldedRows} rows folded):\n${folded.text}`)
    // Never more than the snapshot an agent would take to see the change.
    const bound = Math.min(DIGEST_CHARS, viewSnapshot(next, {}).text.length)
    return moved(
      `\nThe page changed${since} (${diffCounts(diff)} lines), in short:\n${digestChanges(comparison, bound, 'electron_snapshot since="last" shows all of it')}`
    )
  })

/**
 * Where the focus went between two snapshots (the `[active]` element), as `role "name" ref`, or undefined
 * when it stayed or went to no element. The diff ignores `[active]` (a focus move is no change of the
 * tree), so it is told beside the other changes.
 */
const focusMove = (previous: string, next: string): string | undefined => {
  const activeOf = (snapshot: string) => snapshot.split("\n").find((line) => /\[active\]/.test(line))
  const after = activeOf(next)
  if (after === undefined) return undefined
  const info = lineInfo(after)
  const before = activeOf(previous)
  if (info.ref === undefined || (before !== undefined && lineInfo(before).ref === info.ref)) return undefined
  return `${info.role}${info.name !== undefined ? ` ${JSON.stringify(info.name)}` : ""} ${info.ref}`
}

const quietSummary = (fields: ReadonlyArray<FieldChange>, focus: string | undefined): string => {
  if (fields.length === 0 && focus === undefined) return "\nNo change in the page."
  const values = fields.map(
    (f) => `${JSON.stringify(f.label)} ${f.checkable ? f.value : `= ${JSON.stringify(f.value)}`}${f.label === focus ? " (focused)" : ""}`
  )
  const moved = focus !== undefined && !fields.some((f) => f.label === focus) ? [`focus on ${JSON.stringify(focus)}`] : []
  if (values.length === 0) return `\nNo change in the page besides the focus: now on ${JSON.stringify(focus)}.`
  return `\nOnly fields changed: ${[...values, ...moved].join("; ")}.`
}
