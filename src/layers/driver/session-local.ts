/**
 * State a plugin (or a tool group) keeps for one app session — mocked routes, a running recording, the
 * network conditions or media it set — held by the session itself: created at its first use in a
 * session, gone with the session (a relaunch starts from nothing). A module declares the state once; only
 * the key is module-level, never the state.
 */
import type { AppSession } from "./session.js"

export interface SessionLocal<A> {
  readonly name: string
  /** The state in this session (made by `init` at its first use there). */
  readonly of: (session: AppSession) => A
}

/** Declares session-scoped state named `name` (for diagnostics), made by `init` once per session. */
export const sessionLocal = <A>(name: string, init: (session: AppSession) => A): SessionLocal<A> => {
  const key = Symbol(name)
  return { name, of: (session) => session.local(key, () => init(session)) }
}
