/**
 * The per-call paths' spans (src/layers/driver/spans.ts): recorded, named and with their attributes, where an
 * integrator installed a tracer; none made under Effect's own tracer (the default), which records them nowhere.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Tracer } from "effect"
import { spanned } from "../../src/layers/driver/spans.js"

const recordingTracer = () => {
  const native = Effect.runSync(Effect.tracer)
  const seen: Array<{ readonly name: string; readonly attributes: unknown; readonly parent: string | undefined }> = []
  const tracer = Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      seen.push({ name, attributes: options?.attributes, parent: parent._tag === "Some" && parent.value._tag === "Span" ? parent.value.name : undefined })
      return native.span(name, parent, context, links, startTime, kind, options)
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { tracer, seen }
}

describe("spanned", () => {
  it.effect("records a span with its name and attributes under an installed tracer, nested where it runs", () =>
    Effect.gen(function* () {
      const { tracer, seen } = recordingTracer()
      const inner = spanned("PageOps.waitSliced", { what: "wait for the list" })(Effect.succeed(1))
      const outer = spanned("ElectronDriver.runAction", { what: "click" })(Effect.map(inner, (n) => n + 1))
      expect(yield* outer.pipe(Effect.withTracer(tracer))).toBe(2)
      expect(seen).toEqual([
        { name: "ElectronDriver.runAction", attributes: { what: "click" }, parent: undefined },
        { name: "PageOps.waitSliced", attributes: { what: "wait for the list" }, parent: "ElectronDriver.runAction" }
      ])
    })
  )

  it.effect("makes no span under Effect's own tracer, and the effect's outcome is the same", () =>
    Effect.gen(function* () {
      const made = yield* Effect.exit(spanned("MainProcess.evaluateMain", { what: "read" })(Effect.fail("failed")))
      expect(made).toStrictEqual(Exit.fail("failed"))
      const inside = yield* spanned("PageOps.poll")(Effect.currentSpan.pipe(Effect.option))
      // Under Effect.withSpan the effect would see its span even with the default tracer.
      expect(inside._tag).toBe("None")
    })
  )
})
