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
  /**
   * Keeps a redacted breadcrumb of a failure: every string the call was given (eval source, typed
   * text, environment values, paths) is cut out of the message, and eval tools keep no message at all.
   */
  readonly recordFailure: (failure: { readonly tool: string; readonly code: string; readonly message: string; readonly args?: unknown; readonly runsCallerCode?: boolean }) => Effect.Effect<void>
  readonly lastError: Effect.Effect<LastError | undefined>
  readonly calls: Effect.Effect<{ readonly total: number; readonly failed: number }>
  readonly recordCall: Effect.Effect<void>
}

export const MAX_BREADCRUMB_CHARS = 240
const REDACTED = "«redacted»"

/** Every string inside a call's arguments (bounded), longest first, for redaction. */
export const stringLeaves = (value: unknown, out: Array<string> = [], depth = 0): Array<string> => {
  if (out.length >= 500 || depth > 20) return out
  if (typeof value === "string") out.push(value)
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out, depth + 1)
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) stringLeaves(item, out, depth + 1)
  return out
}

/** The first line of a message, with the given secrets and long quoted payloads cut out, bounded in length. */
export const redactMessage = (message: string, secrets: ReadonlyArray<string> = []): string => {
  // Bound the work first: a message can quote a multi-megabyte argument.
  let text = (message.split("\n", 1)[0] ?? "").slice(0, 4 * MAX_BREADCRUMB_CHARS)
  const pieces = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < 3) continue
    // A secret longer than the kept text can only appear in it as a fragment: its lines and its head.
    pieces.add(secret.length > text.length ? secret.slice(0, text.length) : secret)
    // Multi-line values can surface one line at a time.
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= 3) pieces.add(line.trim())
  }
  for (const piece of [...pieces].sort((a, b) => b.length - a.length)) text = text.split(piece).join(REDACTED)
  text = text.replace(/(["'`])(?:(?!\1).){24,}\1/g, "$1…$1")
  return text.length > MAX_BREADCRUMB_CHARS ? text.slice(0, MAX_BREADCRUMB_CHARS - 1) + "…" : text
}

export class ServerState extends Context.Tag("stagewright/ServerState")<ServerState, ServerStateShape>() {
  static readonly layer = Layer.effect(
    ServerState,
    Effect.gen(function* () {
      const last = yield* Ref.make<LastError | undefined>(undefined)
      const counts = yield* Ref.make({ total: 0, failed: 0 })
      return ServerState.of({
        startedAt: new Date(),
        recordFailure: ({ tool, code, message, args, runsCallerCode }) =>
          Effect.zipRight(
            Ref.set(last, {
              at: new Date().toISOString(),
              tool,
              code,
              message: runsCallerCode ? "(message withheld: the call ran caller-supplied code)" : redactMessage(message, stringLeaves(args))
            }),
            Ref.update(counts, (c) => ({ ...c, failed: c.failed + 1 }))
          ),
        lastError: Ref.get(last),
        calls: Ref.get(counts),
        recordCall: Ref.update(counts, (c) => ({ ...c, total: c.total + 1 }))
      })
    })
  )
}
