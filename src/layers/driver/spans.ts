/**
 * Spans on the per-call paths, recorded only where an integrator installed a tracer (a Layer of its own, such
 * as OpenTelemetry's): under Effect's own tracer, which records spans nowhere, a span is pure cost (an Error
 * made for its stack on each call, and a third of a read's fiber work), so none is made. A span made here
 * takes no stack trace: its name and attributes say where it is.
 */
import { Effect } from "effect"

/** Effect's own tracer, as a runtime has it unless an integrator provided another. */
const NATIVE_TRACER = Effect.runSync(Effect.tracer)

/** `effect` in a span named `name` under an installed tracer; `effect` itself under Effect's own. */
export const spanned =
  (name: string, attributes?: Record<string, unknown>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.tracerWith((tracer) =>
      tracer === NATIVE_TRACER ? effect : Effect.withSpan(effect, name, { ...(attributes !== undefined ? { attributes } : {}), captureStackTrace: false })
    )
