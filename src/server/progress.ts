/**
 * MCP progress for long calls: when a tools/call request carries `_meta.progressToken`, a heartbeat
 * fiber sends `notifications/progress` every HEARTBEAT while the call runs, so a client that resets its
 * request timeout on progress (the TypeScript SDK's `resetTimeoutOnProgress`) keeps waiting. The
 * heartbeat is forked in the call's scope: it ends with the call, cancelled or not, before the result
 * is sent. Without a token nothing is forked and nothing is sent.
 *
 * The message names the tool, what it waits for and the elapsed time against the call's bound:
 * "electron_wait_for: waiting for testid=save (12 s of 90 s)". Code inside the call may say more
 * precisely what it waits for with `describing` (src/layers/driver/waits.ts).
 */
import type { ProgressToken, ServerNotification } from "@modelcontextprotocol/sdk/types.js"
import { Clock, Duration, Effect, Ref, Schedule } from "effect"
import { CallActivity } from "../layers/driver/waits.js"
import { cut } from "../tools/contract/respond.js"

/** One progress notification's content: `progress` (elapsed ms) strictly increases within a call; `total` is the call's bound (ms). */
export interface ProgressUpdate {
  readonly progress: number
  readonly total?: number
  readonly message: string
}

/** Where a call's progress goes. It never fails (a lost notification only costs the client's patience). */
export type ProgressSink = (update: ProgressUpdate) => Effect.Effect<void>

/** The heartbeat's period: well inside the 5 s a client may wait between two notifications. */
export const HEARTBEAT = Duration.seconds(2)

/**
 * The sink of a tools/call request: undefined without a progress token; otherwise it sends through the
 * request handler's `sendNotification` (related to the request, so Streamable HTTP routes it to its stream).
 */
export const mcpProgressSink = (
  token: ProgressToken | undefined,
  sendNotification: (notification: ServerNotification) => Promise<void>
): ProgressSink | undefined =>
  token === undefined
    ? undefined
    : (update) =>
        Effect.tryPromise(() => sendNotification({ method: "notifications/progress", params: { progressToken: token, ...update } })).pipe(
          // A stalled transport must not hold the heartbeat back (the next beat tries again).
          Effect.timeout(HEARTBEAT),
          Effect.ignore
        )

/** The wait terms a read-only tool was given (never an interacting tool's values, which may be typed secrets). */
const WAIT_TERMS = ["target", "text", "textGone", "url", "title"] as const

/** What a call waits for, from its decoded input: "waiting for testid=save", or "running". */
export const describeCall = (input: unknown, readOnly: boolean): string => {
  if (!readOnly || input === null || typeof input !== "object") return "running"
  const record = input as Record<string, unknown>
  const terms = WAIT_TERMS.flatMap((key) => {
    const value = record[key]
    if (typeof value !== "string") return []
    const shown = cut(value, 60)
    return [key === "target" ? shown : `${key} ${JSON.stringify(shown)}`]
  })
  return terms.length === 0 ? "running" : `waiting for ${terms.join(", ")}`
}

/** The bound of a call: its own `timeoutMs` when it has one, never more than the operation timeout. */
export const callLimitMs = (input: unknown, operationTimeoutMs: number): number => {
  const own = input !== null && typeof input === "object" ? (input as { timeoutMs?: unknown }).timeoutMs : undefined
  return typeof own === "number" && own > 0 ? Math.min(own, operationTimeoutMs) : operationTimeoutMs
}

const seconds = (ms: number) => Math.round(ms / 1_000)

export interface ProgressOptions {
  readonly tool: string
  readonly limitMs: number
  /** The message's activity unless the call sets one with `describing`. */
  readonly activity: string
  readonly sink: ProgressSink
  readonly period?: Duration.DurationInput
}

/** Runs `effect` with a progress heartbeat beside it (first beat after one period), ended with it. */
export const withProgress = <A, E, R>(effect: Effect.Effect<A, E, R>, options: ProgressOptions): Effect.Effect<A, E, R> =>
  Effect.scoped(
    Effect.gen(function* () {
      const activity = yield* Ref.make<string | undefined>(undefined)
      const started = yield* Clock.currentTimeMillis
      const last = yield* Ref.make(0)
      const beat = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const progress = yield* Ref.updateAndGet(last, (previous) => Math.max(previous + 1, now - started))
        const doing = (yield* Ref.get(activity)) ?? options.activity
        yield* options.sink({
          progress,
          total: options.limitMs,
          message: `${options.tool}: ${doing} (${seconds(progress)} s of ${seconds(options.limitMs)} s)`
        })
      })
      yield* Effect.forkScoped(Effect.schedule(beat, Schedule.spaced(options.period ?? HEARTBEAT)))
      return yield* Effect.locally(effect, CallActivity, activity)
    })
  )
