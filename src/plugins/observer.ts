/**
 * The observer seam: what a plugin may contribute besides tools. An observer sees every tools/call the
 * Dispatcher serves (src/server/observers.ts runs them), with the call's arguments redacted, its outcome,
 * timing and answer size; before a call runs it may add a short note to the answer or refuse the call
 * with CallRefused (CALL_REFUSED). An observer can never break or hold up a call: each hook is bounded
 * (OBSERVER_BOUNDS), what it fails with is logged to stderr and otherwise ignored, and `after` runs once the
 * answer has gone, off the call's fiber.
 */
import { Schema, type Effect, type Scope } from "effect"
import type { ServerConfig } from "../layers/config/ServerConfig.js"
import { errorFields } from "../errors/fields.js"

/**
 * A call refused by an observer before it ran (a token budget spent, a policy): the message names who
 * refused and why, with the figures in `details`; the hint names the next step.
 */
export class CallRefused extends Schema.TaggedError<CallRefused>()("CallRefused", {
  ...errorFields("CallRefused"),
  tool: Schema.String,
  /** The plugin whose observer refused the call. */
  by: Schema.String
}) {}

/** What an observer is told before a call runs. */
export interface CallStart {
  /** The index of the call in this server's life, from 1. */
  readonly index: number
  readonly tool: string
  /**
   * The arguments with what is secret by its name or form replaced by REDACTED_MARK: values of `env`,
   * of keys named like credentials (password, token, secret, authorization, cookie…), Bearer tokens and URL
   * credentials inside any string. What a call typed into a password field is known only once it ran, so
   * only CallRecord's arguments have it redacted too.
   */
  readonly args: unknown
  readonly startedAt: Date
}

/** What an observer is told once a call has run, before its answer goes (./ObserverHooks.settle). */
export interface CallSettled extends CallStart {
  readonly durationMs: number
  readonly outcome: "ok" | "error"
  /** The error code when the outcome is an error. */
  readonly code?: string | undefined
}

/** What an observer is told once a call has been answered. */
export interface CallRecord extends CallStart {
  readonly durationMs: number
  readonly outcome: "ok" | "error"
  /** The error code when the outcome is an error. */
  readonly code?: string | undefined
  /** Whether any argument was redacted (such a call cannot be replayed as it was made). */
  readonly redacted: boolean
  /** Characters of the answer (its text plus its structured fields, each fact once: results.ts sizeMeta). */
  readonly chars: number
  /** An estimate of the answer's tokens (about four characters a token; the runtime has no tokenizer). */
  readonly approxTokens: number
  /** Images in the answer (their tokens are not in the estimate). */
  readonly images: number
}

export interface ObserverHooks {
  /**
   * Before the call runs (after its name and arguments were checked): may return a short note the answer
   * carries, or fail with CallRefused to refuse the call. Bounded by OBSERVER_BOUNDS.beforeMs (past it the
   * call runs as if the observer had said nothing).
   */
  readonly before?: (call: CallStart) => Effect.Effect<string | undefined, CallRefused>
  /**
   * Once the call has run (not when an observer refused it), before its answer goes: may return a short note
   * the answer carries (an artifact made of the call: a video clip of a failed assertion). Runs only when the
   * observer has it; bounded by OBSERVER_BOUNDS.settleMs (past it the answer goes without the note).
   */
  readonly settle?: (call: CallSettled) => Effect.Effect<string | undefined>
  /**
   * Once the call was answered, refused calls included; one observer's `after` calls run in call order, and
   * its next `before` waits for them (within its own bound). Bounded by OBSERVER_BOUNDS.afterMs.
   */
  readonly after?: (record: CallRecord) => Effect.Effect<void>
}

/**
 * An observer as a plugin declares it: `make` builds its hooks once per server, with the server's
 * configuration and a scope that closes with the server (for finalizers).
 */
export interface CallObserver {
  readonly name: string
  readonly make: Effect.Effect<ObserverHooks, never, ServerConfig | Scope.Scope>
}

/** How long each hook may take before the call goes on without it. */
export const OBSERVER_BOUNDS = { beforeMs: 250, settleMs: 5_000, afterMs: 2_000 } as const

/** What stands for a redacted value in the arguments an observer sees. */
export const REDACTED_MARK = "«redacted»"
