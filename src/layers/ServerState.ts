/**
 * ServerState: when the server started and a breadcrumb of the last failure. The breadcrumb is
 * bounded and redacted: it keeps the tool, the code and a shortened message, never the call's
 * arguments (eval source, typed text, environment values or file contents).
 */
import { Context, Effect, Layer, Ref } from "effect"

export interface LastError {
  readonly at: string
  readonly tool: string
  readonly code: string
  readonly message: string
}

export interface ServerStateShape {
  readonly startedAt: Date
  readonly recordFailure: (tool: string, code: string, message: string) => Effect.Effect<void>
  readonly lastError: Effect.Effect<LastError | undefined>
  readonly calls: Effect.Effect<{ readonly total: number; readonly failed: number }>
  readonly recordCall: Effect.Effect<void>
}

export const MAX_BREADCRUMB_CHARS = 240

/** Shortens a message for the breadcrumb and strips quoted payloads that could carry user data. */
export const redactMessage = (message: string): string => {
  const firstLine = message.split("\n")[0] ?? ""
  const withoutQuoted = firstLine.replace(/(["'`])(?:(?!\1).){24,}\1/g, "$1…$1")
  return withoutQuoted.length > MAX_BREADCRUMB_CHARS ? withoutQuoted.slice(0, MAX_BREADCRUMB_CHARS - 1) + "…" : withoutQuoted
}

export class ServerState extends Context.Tag("stagewright/ServerState")<ServerState, ServerStateShape>() {
  static readonly layer = Layer.effect(
    ServerState,
    Effect.gen(function* () {
      const last = yield* Ref.make<LastError | undefined>(undefined)
      const counts = yield* Ref.make({ total: 0, failed: 0 })
      return ServerState.of({
        startedAt: new Date(),
        recordFailure: (tool, code, message) =>
          Effect.zipRight(
            Ref.set(last, { at: new Date().toISOString(), tool, code, message: redactMessage(message) }),
            Ref.update(counts, (c) => ({ ...c, failed: c.failed + 1 }))
          ),
        lastError: Ref.get(last),
        calls: Ref.get(counts),
        recordCall: Ref.update(counts, (c) => ({ ...c, total: c.total + 1 }))
      })
    })
  )
}
