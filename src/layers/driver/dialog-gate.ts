import { Effect } from "effect"
import { DialogOpen } from "./errors.js"
import type { AppSession, WindowEntry } from "./session.js"

/**
 * The one gate every page-touching call passes (through `window()`): a page with an unanswered web
 * dialog runs no script, so any call on it would hang until its timeout. Fail at once instead.
 */
export const dialogGate = (session: AppSession, entry: WindowEntry): Effect.Effect<WindowEntry, DialogOpen> => {
  const pending = session.pendingDialogs.find((d) => d.window === entry.id)
  if (pending === undefined) return Effect.succeed(entry)
  const message = pending.message.length > 200 ? `${pending.message.slice(0, 199)}…` : pending.message
  return Effect.fail(
    new DialogOpen({
      message: `${/^[aeiou]/.test(pending.type) ? "An" : "A"} ${pending.type} dialog is open in ${entry.id}: "${message}"; its page is blocked until it is answered`,
      window: entry.id,
      dialog: pending.type,
      dialogMessage: message
    })
  )
}
