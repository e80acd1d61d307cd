/**
 * How an action runs: resolve the target, perform it without leaving it in flight (a web dialog it opens
 * ends the wait and is reported), record the step for test export, and summarise what changed in the page.
 */
import { Duration, Effect, Exit, Option } from "effect"


import type { Locator } from "playwright-core"
import { AppLifecycle, PageOps, Windows, Snapshots, type FieldChange, type PendingDialog, type WindowEntry, type DriverServices } from "../layers/driver/ElectronDriver.js"
import { type ToolError } from "./errors.js"
import { markIfPasswordField, markSecret } from "./call-secrets.js"

import { answerAdvice, describeDialog, dialogFields } from "./dialogs.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"
import { digestChanges } from "./change-digest.js"
import { compareSnapshots, diffCounts, diffOf } from "./snapshot-diff.js"
import { viewDiff, viewSnapshot } from "./snapshot-view.js"
import { stepCode } from "./step-code.js"
import { type ToolResult } from "./Tool.js"


/** Changes up to this many characters are returned with the action's result. */
export const SMALL_DIFF_CHARS = 1_000
/** A bigger change is summed up in at most this many characters (and never more than a follow-up snapshot). */
export const DIGEST_CHARS = 1_200

/** The result of an action that opened a web dialog: the dialog, and how to answer it in this server. */
export const dialogResult = (dialog: PendingDialog): Effect.Effect<ToolResult, never, ProfileSelector> =>
  Effect.map(answerAdvice, (advice) => ({
    text: `The action opened a ${describeDialog(dialog)}. ${advice}`,
    structured: { dialog: dialogFields(dialog) }
  }))

/**
 * A change summary may take this long (a full aria snapshot of the window, ~40 ms on the tasks board; a
 * loaded machine or a huge page can take many times that); past it the action answers
 * without one, so a big page never makes every action slow. The refs stay those of the last snapshot.
 */
export const SUMMARY_TIME_BOX_MS = 1_000

/**
 * After an action: the change in the window's snapshot when the agent has one and the change is small.
 * A page whose DOM and visibility did not change needs no new snapshot: the answer names the fields that
 * changed (the action's own, usually) and where the focus went.
 */
export const changeSummary = (entry: WindowEntry): Effect.Effect<string, never, Snapshots> =>
  Effect.gen(function* () {
    const snapshots = yield* Snapshots
    const previous = entry.latestSnapshot
    if (previous === undefined || entry.closed) return ""
    const changes = yield* snapshots.pageChanges(entry)
    if (changes.quiet) return quietSummary(changes.fields, changes.focus)
    // The diff is against the latest snapshot: field changes earlier answers named are in it again.
    const since = entry.fieldsToldSinceSnapshot ? " since the last snapshot, with the fields earlier answers named" : ""
    const taken = yield* snapshots.snapshot(entry).pipe(Effect.orElseSucceed(() => undefined), Effect.timeoutOption(Duration.millis(SUMMARY_TIME_BOX_MS)))
    if (Option.isNone(taken)) return `\nNo change summary (the page took over ${SUMMARY_TIME_BOX_MS} ms to snapshot); electron_snapshot since="last" shows any change.`
    const next = taken.value
    if (next === undefined) return ""
    const comparison = compareSnapshots(previous, next)
    const diff = diffOf(comparison)
    if (diff.added === 0 && diff.removed === 0 && diff.changed === 0) return "\nNo change in the page's accessibility tree."
    if (diff.text.length <= SMALL_DIFF_CHARS) return `\nChanges${since} (${diffCounts(diff)}):\n${diff.text}`
    // Many added rows of one shape fold to a count and their refs; what still does not fit is summed up.
    const folded = viewDiff(diff.text, {})
    if (folded.text.length <= SMALL_DIFF_CHARS) return `\nChanges${since} (${diffCounts(diff)}, ${folded.folded.foldedRows} rows folded):\n${folded.text}`
    // Never more than the snapshot an agent would take to see the change.
    const bound = Math.min(DIGEST_CHARS, viewSnapshot(next, {}).text.length)
    return `\nThe page changed${since} (${diffCounts(diff)} lines), in short:\n${digestChanges(comparison, bound, 'electron_snapshot since="last" shows all of it')}`
  })

const quietSummary = (fields: ReadonlyArray<FieldChange>, focus: string | undefined): string => {
  if (fields.length === 0 && focus === undefined) return "\nNo change in the page."
  const values = fields.map((f) => `${JSON.stringify(f.label)} ${f.checkable ? f.value : `= ${JSON.stringify(f.value)}`}${f.label === focus ? " (focused)" : ""}`)
  const moved = focus !== undefined && !fields.some((f) => f.label === focus) ? [`focus on ${JSON.stringify(focus)}`] : []
  if (values.length === 0) return `\nNo change in the page besides the focus: now on ${JSON.stringify(focus)}.`
  return `\nOnly fields changed: ${[...values, ...moved].join("; ")}.`
}

export interface ActOptions {
  readonly tool: string
  readonly target: string
  readonly describe: string
  readonly step: (code: string) => string
  /** The action's own timeoutMs (0: none); Playwright is given the smaller of it and what is left of the call. */
  readonly timeoutMs: number
  /**
   * How it waits for its element without acting (the driver's runAction): "trial" repeats the action with
   * `trial: true` (pointer actions), "attached" waits for the element (keys), "repeat" repeats the action
   * itself (all-or-nothing ones: fill, selectOption, setInputFiles).
   */
  readonly wait: "trial" | "attached" | "repeat"
  /** Whether the action is tried at once before any probe (default true; a drag that pressed the mouse must not be repeated). */
  readonly tryFirst?: boolean
  readonly perform: (locator: Locator, entry: WindowEntry, options: { readonly timeout: number; readonly trial?: boolean }) => Promise<unknown>
  /** The text the action types, if any: secret in the call's record when the target is a password field (./call-secrets.ts). */
  readonly typed?: string
}

/**
 * Resolves the target, performs the action (returning early if a web dialog opens), records the step.
 * The action never outlives the call: it waits in slices, and its Playwright bound is what is left of the call.
 */
export const act = (options: ActOptions): Effect.Effect<ToolResult, ToolError, DriverServices | ProfileSelector> =>
  Effect.gen(function* () {
    const lifecycle = yield* AppLifecycle
    const windows = yield* Windows
    const snapshots = yield* Snapshots
    const pages = yield* PageOps
    const entry = yield* windows.window()
    const locator = yield* snapshots.locate(entry, options.target)
    const code = yield* stepCode(entry, options.target, locator)
    const step = lifecycle.recordStep({ tool: options.tool, window: entry.id, code: options.step(`window.${code}`) })
    const ready =
      options.wait === "trial"
        ? (slice: number) => options.perform(locator, entry, { timeout: slice, trial: true })
        : options.wait === "attached"
          ? (slice: number) => locator.waitFor({ state: "attached", timeout: slice })
          : undefined
    // An action that ran but could not be confirmed still happened: the exported test must replay it.
    const outcome = yield* pages
      .runAction({
        what: options.describe,
        timeoutMs: options.timeoutMs,
        ready,
        tryFirst: ready !== undefined && options.tryFirst !== false,
        perform: (timeout) => options.perform(locator, entry, { timeout })
      })
      .pipe(
        Effect.tapError((error) => (error._tag === "OperationFailed" && error.details?.["performed"] === true ? step : Effect.void)),
        Effect.onExit((exit) => {
          const typed = options.typed
          if (typed === undefined) return Effect.void
          return Exit.isInterrupted(exit) ? markSecret(typed) : markIfPasswordField(locator, typed)
        })
      )
    yield* step
    if (outcome !== undefined) return yield* dialogResult(outcome)
    const change = yield* changeSummary(entry)
    return { text: `${options.describe[0]!.toUpperCase()}${options.describe.slice(1)} done (${code}).${change}`, structured: { window: entry.id, locator: code } }
  })
