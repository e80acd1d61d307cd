/**
 * Runs the loaded plugins' call observers (src/plugins/observer.ts) around every tools/call:
 *
 * - before the call (once its name and arguments are checked), each observer's `before`, in load order,
 *   bounded by OBSERVER_BOUNDS.beforeMs: a note it returns is added to the answer; a CallRefused it fails
 *   with ends the call with CALL_REFUSED (the first refusal wins); anything else it fails or dies with, or
 *   its time running out, is logged to stderr and the call goes on;
 * - the call runs with a fresh set of call secrets (src/tools/policy/call-secrets.ts), so a value typed into a
 *   password field is known when the record is made;
 * - once it ran (unless refused), the observers that have `settle` are asked, concurrently, each bounded by
 *   OBSERVER_BOUNDS.settleMs, for a note the answer carries (a clip of a failed assertion);
 * - once the answer is made, each observer's `after` gets the record, on a fiber of its own (the answer is
 *   not held up), in call order per observer, bounded by OBSERVER_BOUNDS.afterMs; its next `before` waits
 *   for it within its own bound. When the server closes, pending records are given their bound to finish.
 */
import { Cause, Effect, Exit, Fiber, Option, type Scope } from "effect"
import { CallRefused, OBSERVER_BOUNDS, type CallObserver, type CallRecord, type CallSettled, type CallStart, type ObserverHooks } from "../plugins/observer.js"
import type { ServerConfig } from "../layers/config/ServerConfig.js"
import { CallSecrets } from "../tools/policy/call-secrets.js"
import { redactArguments } from "./redact-args.js"
import { approxTokens, type CallResult } from "./results.js"

export interface ObserverRunner {
  /** Whether any observer is loaded (without one, `observe` is the call itself). */
  readonly active: boolean
  /**
   * Runs `body` observed: `body` is given the `before` gate, to run once the call's name and arguments are
   * checked (it fails with CallRefused when an observer refuses the call).
   */
  readonly observe: (tool: string, args: unknown, body: (gate: Effect.Effect<void, CallRefused>) => Effect.Effect<CallResult>) => Effect.Effect<CallResult>
}

interface Running {
  readonly plugin: string
  readonly name: string
  readonly hooks: ObserverHooks
  /** The fiber of its latest `after` (the next one waits for it, so records arrive in call order). */
  last: Fiber.Fiber<void> | undefined
}

const logFault = (who: Running, hook: "before" | "settle" | "after", cause: Cause.Cause<unknown>) => {
  const late = Option.exists(Cause.failureOption(cause), Cause.isTimeoutException)
  const bound = hook === "before" ? OBSERVER_BOUNDS.beforeMs : hook === "settle" ? OBSERVER_BOUNDS.settleMs : OBSERVER_BOUNDS.afterMs
  const what = late ? `did not finish within ${bound} ms` : `failed: ${Cause.pretty(cause).split("\n")[0]}`
  return Effect.logWarning(`observer ${who.name} (plugin ${who.plugin}): ${hook} ${what}; the call went on without it`)
}

/** The size of an answer as results.ts measured it (`_meta.size`). */
const sizeOf = (result: CallResult) => {
  const size = (result._meta?.["size"] ?? {}) as { chars?: number; approxTokens?: number; images?: number }
  const chars = size.chars ?? 0
  return { chars, approxTokens: size.approxTokens ?? approxTokens(chars), images: size.images ?? 0 }
}

/** The answer with the observers' notes after its text (and in structuredContent as `notes`), its size counting them. */
export const withNotes = (result: CallResult, notes: ReadonlyArray<string>): CallResult => {
  if (notes.length === 0) return result
  const added = notes.map((n) => `\nNote: ${n}`).join("")
  const [first, ...rest] = result.content
  const content =
    first?.type === "text" ? [{ ...first, text: first.text + added }, ...rest] : [{ type: "text" as const, text: added.trimStart() }, ...result.content]
  const size = sizeOf(result)
  const chars = size.chars + added.length + (result.structuredContent ? JSON.stringify(notes).length + 10 : 0)
  return {
    ...result,
    content,
    ...(result.structuredContent ? { structuredContent: { ...result.structuredContent, notes } } : {}),
    _meta: { ...result._meta, size: { ...(result._meta?.["size"] as object | undefined), chars, approxTokens: approxTokens(chars) } }
  }
}

export const makeObserverRunner = (
  observers: ReadonlyArray<{ readonly plugin: string; readonly observer: CallObserver }>
): Effect.Effect<ObserverRunner, never, ServerConfig | Scope.Scope> =>
  Effect.gen(function* () {
    const running: Array<Running> = []
    for (const { plugin, observer } of observers) {
      running.push({ plugin, name: observer.name, hooks: yield* observer.make, last: undefined })
    }
    if (running.length === 0) return { active: false, observe: (_tool, _args, body) => body(Effect.void) }
    let index = 0
    // At close, the records still being handled get their bound to finish (their files complete).
    yield* Effect.addFinalizer(() =>
      Effect.forEach(running, (r) => (r.last === undefined ? Effect.void : Fiber.await(r.last).pipe(Effect.timeout(OBSERVER_BOUNDS.afterMs), Effect.ignore)), {
        discard: true
      })
    )

    const before = (r: Running, start: CallStart): Effect.Effect<string | undefined, CallRefused> => {
      const hook = r.hooks.before
      if (hook === undefined) return Effect.succeed(undefined)
      const pending = r.last === undefined ? Effect.void : Effect.asVoid(Fiber.await(r.last))
      return Effect.zipRight(
        pending,
        Effect.suspend(() => hook(start))
      ).pipe(
        Effect.timeout(OBSERVER_BOUNDS.beforeMs),
        Effect.sandbox,
        Effect.catchAll((cause) => {
          const refusal = Cause.failureOption(cause).pipe(Option.filter((e): e is CallRefused => e instanceof CallRefused))
          return Option.isSome(refusal) ? Effect.fail(refusal.value) : Effect.as(logFault(r, "before", cause), undefined)
        })
      )
    }

    /** The observers' `settle` notes on a call that ran, concurrently, each bounded (a fault: logged, no note). */
    const settle = (settled: CallSettled) =>
      Effect.forEach(
        running.filter((r) => r.hooks.settle !== undefined),
        (r) =>
          Effect.suspend(() => r.hooks.settle!(settled)).pipe(
            Effect.timeout(OBSERVER_BOUNDS.settleMs),
            Effect.catchAllCause((cause) => Effect.as(logFault(r, "settle", cause), undefined))
          ),
        { concurrency: "unbounded" }
      )

    const after = (r: Running, record: CallRecord) => {
      const hook = r.hooks.after
      if (hook === undefined) return Effect.void
      const previous = r.last
      const run = Effect.zipRight(
        previous === undefined ? Effect.void : Effect.asVoid(Fiber.await(previous)),
        Effect.suspend(() => hook(record)).pipe(
          Effect.timeout(OBSERVER_BOUNDS.afterMs),
          Effect.catchAllCause((cause) => logFault(r, "after", cause))
        )
      )
      // A daemon: it outlives the call's fiber (the answer goes at once); the finalizer above awaits it.
      return Effect.flatMap(Effect.forkDaemon(run), (fiber) => Effect.sync(() => void (r.last = fiber)))
    }

    const observe: ObserverRunner["observe"] = (tool, args, body) =>
      Effect.gen(function* () {
        const startedAt = new Date()
        const start: CallStart = { index: ++index, tool, args: redactArguments(args).args, startedAt }
        const notes: Array<string> = []
        const gate = Effect.forEach(
          running,
          (r) => Effect.map(before(r, start), (note) => void (note !== undefined && note !== "" && notes.push(note.slice(0, 300)))),
          { discard: true }
        )
        const secrets = new Set<string>()
        const answered = yield* Effect.locally(body(gate), CallSecrets, secrets).pipe(Effect.exit)
        if (Exit.isFailure(answered)) return yield* answered // body never fails; an interruption goes on as one
        const codeOf = (r: CallResult) => (r.isError === true ? (r.structuredContent?.["error"] as { code?: string } | undefined)?.code : undefined)
        const ran = codeOf(answered.value)
        if (ran !== "CALL_REFUSED") {
          const settled: CallSettled = {
            ...start,
            durationMs: Date.now() - startedAt.getTime(),
            outcome: answered.value.isError === true ? "error" : "ok",
            ...(ran !== undefined ? { code: ran } : {})
          }
          for (const note of yield* settle(settled)) if (note !== undefined && note !== "") notes.push(note.slice(0, 300))
        }
        const result = withNotes(answered.value, notes)
        const { args: recorded, redacted } = redactArguments(args, secrets)
        const code = codeOf(result)
        const record: CallRecord = {
          ...start,
          args: recorded,
          redacted,
          durationMs: Date.now() - startedAt.getTime(),
          outcome: result.isError === true ? "error" : "ok",
          ...(code !== undefined ? { code } : {}),
          ...sizeOf(result)
        }
        yield* Effect.forEach(running, (r) => after(r, record), { discard: true })
        return result
      })

    return { active: true, observe }
  })
