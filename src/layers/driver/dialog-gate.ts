import { Effect } from "effect"
import { dialogOpen, type DialogOpen } from "./errors.js"
import type { AppSession, WindowEntry } from "./session.js"

/**
 * The one gate every page-touching call passes (through `window()`): a page with an unanswered web
 * dialog runs no script, so any call on it would hang until its timeout. Fail at once instead.
 */
export const dialogGate = (session: AppSession, entry: WindowEntry): Effect.Effect<WindowEntry, DialogOpen> => {
  // A dialog blocks its page, and so every frame of it.
  const page = entry.frame === undefined ? entry.id : session.windowOf(entry.page)?.id
  const pending = session.pendingDialogs.find((d) => d.window === page)
  if (pending === undefined) return Effect.succeed(entry)
  return Effect.fail(dialogOpen(pending))
}
