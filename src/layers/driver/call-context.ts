/**
 * What the driver knows of the tool call it runs in (set by the call's bounds in src/tools/call-bounds.ts
 * and its dialog watch in src/tools/guard.ts): when the call must be over, and which web dialogs the call
 * itself reported as the result of its action. Outside a call both are undefined.
 */
import { Effect, FiberRef } from "effect"
import { globalValue } from "effect/GlobalValue"
import type { PendingDialog } from "./session.js"

/** When the running call's bound (the operation timeout) ends it, in epoch ms. */
export const CallDeadline = globalValue("stagewright/CallDeadline", () => FiberRef.unsafeMake<number | undefined>(undefined))

/**
 * The web dialogs the running call's own action opened and reports in its result (`runUntilDialog`
 * adds them): a dialog not in this set that opens during the call blocks it, and ends it with DIALOG_OPEN.
 */
export const DialogClaims = globalValue("stagewright/DialogClaims", () => FiberRef.unsafeMake<Set<PendingDialog> | undefined>(undefined))

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
