/**
 * What the driver knows of the tool call it runs in (set by the call's bounds in src/tools/contract/call-bounds.ts):
 * when the call must be over. Outside a call it is undefined. (The web dialogs a call claims as its own
 * are the modal room's: ./modal-room.ts.)
 */
import { Effect, FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"

/** When the running call's bound (the operation timeout) ends it, in epoch ms. */
export const CallDeadline = globalValue("stagewright/CallDeadline", () => FiberRef.unsafeMake<number | undefined>(undefined))

/** Playwright reads a timeout of 0 as "no timeout": an action's own bound when it has none. */
const UNBOUNDED_MS = 600_000

/**
 * The bound a Playwright call may be given: the smaller of its own (`ownMs`; 0 is none) and what is left
 * of the running call's budget, at least 1 ms (0 would mean no bound at all).
 */
export const budgetMs = (ownMs: number): Effect.Effect<number> =>
  Effect.flatMap(FiberRef.get(CallDeadline), (deadline) =>
    // The wall clock, as the call's bound is a wall-clock timer.
    Effect.sync(() => Math.max(1, Math.min(ownMs > 0 ? ownMs : UNBOUNDED_MS, deadline === undefined ? Infinity : deadline - Date.now())))
  )
