/**
 * The one loop of the element assertions: resolve the target, read its state until the expectation holds
 * (or, with `not`, until it does not) or the timeout passes, then record the passing `expect(...)` line for
 * test export, or fail with ASSERTION_FAILED carrying expected and actual.
 */
import { Effect, Schema } from "effect"
import type { Locator } from "playwright-core"
import { clipText, type Surface } from "../../layers/driver/ElectronDriver.js"
import { AssertionFailed, type ToolError } from "../contract/errors.js"
import { stepCode } from "../contract/step-code.js"
import type { ToolResult } from "../contract/Tool.js"
import { DEFAULT_EXPECT_TIMEOUT, TimeoutMs } from "../contract/shapes.js"
import { callHandle, type HandleServices } from "../contract/handle.js"
import { answer } from "../contract/respond.js"

export const Timeout = TimeoutMs(DEFAULT_EXPECT_TIMEOUT)

/** The `not` flag of the element assertions. */
export const Not = Schema.optional(Schema.Boolean)

/** One reading: whether the expectation holds, what was seen; `undecided` when neither it nor its opposite can be told (several matches). */
export interface Reading<A> {
  readonly ok: boolean
  readonly actual: A
  readonly undecided?: boolean
}

export interface ExpectOptions<A> {
  readonly target: string
  readonly expected: unknown
  /** What is asserted, as the answer and the failure name it (negation included). */
  readonly describe: string
  readonly not?: boolean | undefined
  readonly timeoutMs: number | undefined
  readonly read: (locator: Locator, entry: Surface) => Promise<Reading<A>>
  /** The exported test's line for the locator's code (`not`: the negated assertion). */
  readonly step: (code: string, not: boolean) => string
}

export const expectOn = <A>(options: ExpectOptions<A>): Effect.Effect<ToolResult, ToolError, HandleServices> =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const entry = yield* call.surface()
    const locator = yield* call.locate(entry, options.target)
    const timeout = options.timeoutMs ?? DEFAULT_EXPECT_TIMEOUT
    const negate = options.not === true
    const describe = options.describe
    const expected = negate ? { not: options.expected } : options.expected
    const outcome = yield* call.poll(
      call.run(describe, async () => {
        const reading = await options.read(locator, entry)
        return { ok: negate ? !reading.ok && reading.undecided !== true : reading.ok, actual: reading.actual }
      }),
      timeout
    )
    const actual = boundActual(outcome.actual)
    if (!outcome.ok) return yield* new AssertionFailed({ message: `${describe} failed after ${timeout} ms`, expected, actual })
    const code = yield* stepCode(entry, options.target, locator)
    yield* call.record({ window: entry.id, code: options.step(`window.${code}`, negate) })
    return answer(`Passed: ${describe}; actual ${showActual(actual)}.`, { passed: true, expected, actual })
  })

const MAX_ACTUAL_CHARS = 300

/** Page text in an answer is bounded: long strings are cut with a note of their length. */
/** `not.` before a matcher when the assertion is negated. */
export const notPrefix = (not: boolean) => (not ? "not." : "")

export const boundActual = (value: unknown): unknown => (typeof value === "string" ? clipText(value, MAX_ACTUAL_CHARS) : value)

/** The actual value as the text of an answer shows it. */
const showActual = (value: unknown): string => {
  if (value === null || value === undefined) return "no element"
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(", ")
  return String(value)
}
