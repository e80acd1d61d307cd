/**
 * Rows shown before a surface's page tree in electron_snapshot: each source adds its rows in order (the
 * open modal states, ./modal-rows.ts; the application menu row joins here). Nothing is added while no
 * source has anything to show, so a snapshot costs what it did.
 */
import { Effect } from "effect"
import type { Surface } from "../../layers/driver/ElectronDriver.js"
import type { CallHandle } from "../contract/handle.js"
import { modalFacts, modalRowsText } from "../modal/modal-rows.js"

export interface RowsBeforeTree {
  /** The rows ("" when none). */
  readonly text: string
  /** Their structured form, merged into the snapshot's structuredContent. */
  readonly structured: Record<string, unknown>
  /** Set when a row's state blocks the surface's page (a web dialog): its tree cannot be read until it is answered. */
  readonly blocked: boolean
}

/** The rows before `entry`'s tree. */
export const rowsBeforeTree = (call: CallHandle, entry: Surface): Effect.Effect<RowsBeforeTree> =>
  Effect.map(call.modals, ({ states, told }) => ({
    text: modalRowsText(states, told),
    structured: states.length > 0 ? { modals: modalFacts(states) } : {},
    blocked: states.some((state) => "web" in state.origin && state.origin.web.dialog.page() === entry.page)
  }))

/** A snapshot's text with the rows after its first line (the surface's header). */
export const withRows = (text: string, rows: string): string => {
  if (rows === "") return text
  const cut = text.indexOf("\n")
  return cut < 0 ? `${text}\n${rows}` : `${text.slice(0, cut)}\n${rows}${text.slice(cut)}`
}
