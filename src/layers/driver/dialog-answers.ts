/**
 * The prepared answers to a session's web dialogs and the history of those it saw: standing answers by
 * dialog type (or for every type), one-shot answers used by the next matching dialog, and a bounded record
 * of each dialog with how it was answered (by a prepared answer, by the agent, or left when its window closed).
 */
import type { Dialog } from "playwright-core"
import { RingBuffer } from "./buffers.js"

export type DialogType = "alert" | "confirm" | "prompt" | "beforeunload"

/**
 * A prepared answer to web dialogs: of one type (default every type), standing or for the next one only
 * (`once`). "ask" (standing only) leaves that type's dialogs waiting for the agent, over an answer for every type.
 */
export type DialogPolicy = {
  readonly action: "accept" | "dismiss" | "ask"
  readonly promptText?: string | undefined
  readonly type?: DialogType | undefined
  readonly once?: boolean | undefined
}

/** A web dialog the session saw, and how it was answered. */
export interface DialogSeen {
  readonly at: number
  readonly window: string
  readonly type: string
  /** The message, cut at 1,000 characters. */
  readonly message: string
  outcome: "pending" | "accepted" | "dismissed" | "window closed"
  by?: "standing answer" | "one-shot answer" | "agent"
}

/** How many dialogs the history keeps (the oldest are dropped). */
export const DIALOG_HISTORY = 50

export class DialogAnswers {
  /** Standing answers by dialog type ("any": every type without its own). */
  readonly #standing = new Map<DialogType | "any", DialogPolicy>()
  readonly #once: Array<DialogPolicy> = []
  readonly #seen = new WeakMap<object, DialogSeen>()
  readonly history = new RingBuffer<DialogSeen>(DIALOG_HISTORY)

  /** The standing answers and the one-shot answers still to be used, oldest first. */
  get policies(): { readonly standing: ReadonlyArray<DialogPolicy>; readonly once: ReadonlyArray<DialogPolicy> } {
    return { standing: [...this.#standing.values()], once: [...this.#once] }
  }

  /** A one-shot answer joins the queue; a standing one replaces that of its type (one for every type replaces them all); undefined clears all. */
  set(policy: DialogPolicy | undefined): void {
    if (policy === undefined) {
      this.#standing.clear()
      this.#once.length = 0
    } else if (policy.once === true) {
      this.#once.push(policy)
    } else if (policy.type === undefined) {
      this.#standing.clear()
      this.#standing.set("any", policy)
    } else if (policy.action === "ask" && !this.#standing.has("any")) {
      // Without an answer for every type, asking is what a type without its own answer does already.
      this.#standing.delete(policy.type)
    } else {
      this.#standing.set(policy.type, policy)
    }
  }

  /**
   * A dialog opened in `window`: recorded, and answered at once when an answer is prepared (the oldest matching
   * one-shot answer, used up, else the standing one). Returns its history entry and whether it was answered.
   */
  opened(window: string, dialog: Dialog): { readonly seen: DialogSeen; readonly answered: boolean } {
    const type = dialog.type()
    const seen: DialogSeen = { at: Date.now(), window, type, message: dialog.message().slice(0, 1_000), outcome: "pending" }
    this.history.push(seen)
    const index = this.#once.findIndex((p) => p.type === undefined || p.type === type)
    const policy = index >= 0 ? this.#once.splice(index, 1)[0] : (this.#standing.get(type as DialogType) ?? this.#standing.get("any"))
    if (policy === undefined || policy.action === "ask") return { seen, answered: false }
    const settle = policy.action === "accept" ? dialog.accept(policy.promptText) : dialog.dismiss()
    settle.catch(() => undefined)
    Object.assign(seen, { outcome: policy.action === "accept" ? "accepted" : "dismissed", by: policy.once === true ? "one-shot answer" : "standing answer" })
    return { seen, answered: true }
  }

  /** Links a pending dialog to its history entry. */
  track(pending: object, seen: DialogSeen): void {
    this.#seen.set(pending, seen)
  }

  /** Records how a pending dialog ended: answered by the agent, or dropped with its window. */
  ended(pending: object, outcome: "accept" | "dismiss" | "window closed"): void {
    const seen = this.#seen.get(pending)
    if (seen === undefined) return
    if (outcome === "window closed") seen.outcome = outcome
    else Object.assign(seen, { outcome: outcome === "accept" ? "accepted" : "dismissed", by: "agent" })
  }
}
