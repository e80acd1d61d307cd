/**
 * Calls that change the app run one at a time, in the order they came (a host may send an agent's calls in
 * parallel). Each such call's answer then tells what that call did: run side by side, a fill's change summary
 * told the task a concurrent click added, and the click's answer said nothing changed. Reads, waits and
 * assertions are not held: a wait may run while the click it waits for is made.
 *
 * A call takes its turn when the one before it has ended, handed over directly (no call arriving meanwhile takes
 * it first); a call cancelled or timed out while it waits leaves the line, and one that was handed the turn as it
 * was interrupted hands it on. One line per server (an HTTP session has its own app and its own line).
 */
import { Deferred, Effect, Exit, FiberId } from "effect"

/** The call whose turn it is. */
export interface TurnHolder {
  readonly tool: string
  /** When it took its turn (ms since the epoch). */
  readonly since: number
}

/** One call's place: whether it is still waiting for its turn (for its timeout's message). */
export interface Ticket {
  waiting: boolean
}

export interface Turns {
  /** Runs `effect` in its turn; `ticket.waiting` is true while it waits. */
  readonly inTurn: <A, E, R>(tool: string, ticket: Ticket, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The call running in its turn, if any. */
  readonly holder: () => TurnHolder | undefined
}

export const makeTurns = (): Turns => {
  let holder: TurnHolder | undefined
  const line: Array<{ readonly tool: string; readonly ready: Deferred.Deferred<void> }> = []
  const handOn = () => {
    const next = line.shift()
    holder = next === undefined ? undefined : { tool: next.tool, since: Date.now() }
    if (next !== undefined) Deferred.unsafeDone(next.ready, Exit.void)
  }
  const take = (tool: string, ticket: Ticket): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (holder === undefined) {
        holder = { tool, since: Date.now() }
        return Effect.void
      }
      const place = { tool, ready: Deferred.unsafeMake<void>(FiberId.none) }
      line.push(place)
      ticket.waiting = true
      return Deferred.await(place.ready).pipe(
        Effect.ensuring(Effect.sync(() => void (ticket.waiting = false))),
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            const at = line.indexOf(place)
            if (at >= 0) line.splice(at, 1)
            // Handed the turn as it was interrupted: the next call gets it.
            else handOn()
          })
        )
      )
    })
  return {
    inTurn: (tool, ticket, effect) =>
      Effect.uninterruptibleMask((restore) => Effect.zipRight(restore(take(tool, ticket)), Effect.ensuring(restore(effect), Effect.sync(handOn)))),
    holder: () => holder
  }
}
