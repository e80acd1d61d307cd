/**
 * Assertion tools: web-first expectations that retry until they hold or the timeout passes, the
 * way Playwright's expect does, and fail with ASSERTION_FAILED carrying expected and actual.
 * Each passing assertion is recorded for test export as the matching `expect(...)` line. Text, value,
 * state and count take `not` (the opposite, waited for the same way); windows are in ./assert-window.ts.
 */
import { Effect, Schema } from "effect"
import { PASSWORD_MASK } from "../../layers/driver/ElectronDriver.js"
import { expectWindow } from "./assert-window.js"
import { readState, readVisibility, STATE_KEYS, STATE_MATCHERS, type StateKey } from "./element-state.js"
import { InvalidArgument } from "../contract/errors.js"
import { expectOn, Not, notPrefix, Timeout } from "./expect-on.js"
import { markSecret, REDACTED_CODE } from "../policy/call-secrets.js"
import { withSecrets } from "../policy/secret-values.js"
import { compileSafePattern } from "../policy/patterns.js"
import { defineTool } from "../contract/Tool.js"
import { Target } from "../contract/shapes.js"

export const expectVisible = defineTool({
  name: "electron_expect_visible",
  description: "Assert an element is visible (or hidden with visible=false), retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE"],
  input: Schema.Struct({ target: Target, visible: Schema.optional(Schema.Boolean).annotations({ description: "default true" }), timeoutMs: Timeout }),
  handler: (input) => {
    const visible = input.visible ?? true
    return expectOn({
      target: input.target,
      expected: visible ? "visible" : "hidden",
      describe: `${input.target} is ${visible ? "visible" : "hidden"}`,
      timeoutMs: input.timeoutMs,
      read: async (locator) => {
        // The common case in one round trip: exactly one element, visible (strict mode throws on several).
        if (visible && (await locator.isVisible().catch(() => false))) return { ok: true, actual: "visible" }
        const { count, shown } = await readVisibility(locator)
        const actual = count === 0 ? "no element" : shown > 0 ? (count > 1 ? `${shown} of ${count} matches visible` : "visible") : "hidden"
        return { ok: visible ? count === 1 && shown === 1 : shown === 0, actual }
      },
      step: (code) => `await expect(${code}).${visible ? "toBeVisible" : "toBeHidden"}()`
    })
  }
})

const normalize = (text: string) => text.replace(/\s+/g, " ").trim()

/** `text` as a regex literal matching it anywhere (a contains-check as Playwright's toHaveAttribute takes it). */
const containsLiteral = (text: string, ignoreCase: boolean) => `/${text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&").replace(/\n/g, "\\n")}/${ignoreCase ? "i" : ""}`

export const expectText = defineTool({
  name: "electron_expect_text",
  description:
    "Assert (make sure) an element's text says/contains text (exact=true: equals it, whitespace normalized) or matches pattern (regex source), retrying until timeoutMs; attribute: that attribute's value instead (alone: it is present); not=true: the opposite. Fails with the actual value.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Target,
    text: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
    pattern: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))),
    exact: Schema.optional(Schema.Boolean),
    ignoreCase: Schema.optional(Schema.Boolean),
    attribute: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({ description: "attribute name" }),
    not: Not,
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const attribute = input.attribute
      const presence = attribute !== undefined && input.text === undefined && input.pattern === undefined
      if (!presence && (input.text === undefined) === (input.pattern === undefined)) {
        return yield* new InvalidArgument({ message: "give exactly one of text or pattern", hint: 'Example: { "target": "e5", "text": "Saved" }.' })
      }
      const regex = input.pattern !== undefined ? yield* compileSafePattern(input.pattern, input.ignoreCase ? "i" : "") : undefined
      const fold = (s: string) => (input.ignoreCase ? s.toLowerCase() : s)
      // Attribute values are compared as they are; element text with its whitespace normalized.
      const clean = attribute !== undefined ? (s: string) => s : normalize
      const expected = input.text !== undefined ? clean(input.text) : `/${input.pattern}/`
      const matches = (actual: string) =>
        presence
          ? true
          : regex !== undefined
            ? regex.test(actual)
            : input.exact === true
              ? fold(actual) === fold(expected)
              : fold(actual).includes(fold(expected))
      // Matched here on RE2 (linear time); a text too long for the pattern's bound is reported, not matched.
      const tooLong = (actual: string) =>
        regex !== undefined && !regex.fits(actual)
          ? `${actual.length} chars, more than the ${regex.maxInput} this pattern is matched against (narrow the target or simplify the pattern)`
          : undefined
      const judge = (actual: string) =>
        tooLong(actual) !== undefined ? { ok: false, actual: tooLong(actual)!, undecided: true } : { ok: matches(actual), actual }
      const what = attribute !== undefined ? `attribute ${attribute} of ${input.target}` : `text of ${input.target}`
      const expectation = presence ? "present" : input.exact === true || regex !== undefined ? expected : `contains ${JSON.stringify(expected)}`
      const caseOption = input.ignoreCase && regex === undefined ? ", { ignoreCase: true }" : ""
      const argument =
        regex !== undefined
          ? regex.literal
          : input.exact === true || attribute === undefined
            ? JSON.stringify(expected)
            : containsLiteral(expected, input.ignoreCase === true)
      const step = (code: string, not: boolean) =>
        attribute !== undefined
          ? `await expect(${code}).${notPrefix(not)}toHaveAttribute(${JSON.stringify(attribute)}${presence ? "" : `, ${argument}${input.exact === true ? caseOption : ""}`})`
          : `await expect(${code}).${notPrefix(not)}${input.exact === true || regex !== undefined ? "toHaveText" : "toContainText"}(${argument}${caseOption})`
      return yield* expectOn({
        target: input.target,
        expected: attribute !== undefined ? { attribute, value: expectation } : expectation,
        describe: input.not === true ? `${what} (not ${input.exact === true ? JSON.stringify(expected) : expectation})` : what,
        not: input.not,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          if (attribute !== undefined) {
            const values = await locator.evaluateAll((els, name) => els.map((el) => el.getAttribute(name)), attribute)
            if (values.length === 0) return { ok: false, actual: null }
            if (values.length > 1) return { ok: false, actual: `${values.length} elements match`, undecided: true }
            const value = values[0]!
            return value === null ? { ok: false, actual: `no ${attribute} attribute` } : judge(value)
          }
          // The common case in one round trip: exactly one element (strict mode throws on several, a short
          // timeout on none); anything else is read again with the count.
          const single = await locator.innerText({ timeout: 100 }).catch(() => undefined)
          if (single !== undefined) return judge(normalize(single))
          const texts = await locator.evaluateAll((els) => els.map((el) => ("innerText" in el ? (el as HTMLElement).innerText : (el.textContent ?? ""))))
          if (texts.length === 0) return { ok: false, actual: null }
          if (texts.length > 1) return { ok: false, actual: `${texts.length} elements match`, undecided: true }
          return judge(normalize(texts[0]!))
        },
        step
      })
    })
})

export const expectValue = defineTool({
  name: "electron_expect_value",
  description: "Assert a form field's current value equals value (select: the selected option's value; not=true: differs), retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE"],
  input: Schema.Struct({ target: Target, value: Schema.String.pipe(Schema.maxLength(100_000)), not: Not, timeoutMs: Timeout }),
  handler: (input) => {
    // Set when the field read is a password field: the asserted value is then a secret of the call's record.
    let password = false
    return withSecrets(input.value).pipe(
      Effect.flatMap((wanted) =>
        expectOn({
          target: input.target,
          expected: input.value,
          describe:
            input.not === true
              ? `value of ${input.target} (not ${JSON.stringify(input.value.length > 100 ? `${input.value.slice(0, 100)}…` : input.value)})`
              : `value of ${input.target}`,
          not: input.not,
          timeoutMs: input.timeoutMs,
          read: async (locator) => {
            const fields = await locator.evaluateAll((els) =>
              els.map((el) => {
                const field = ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) ? el : ((el.closest("label") as HTMLLabelElement | null)?.control ?? el)
                const value = ["INPUT", "TEXTAREA", "SELECT"].includes(field.tagName) ? (field as HTMLInputElement).value : undefined
                return { value, password: field.tagName === "INPUT" && (field as HTMLInputElement).type === "password" }
              })
            )
            if (fields.length !== 1) return { ok: false, actual: fields.length === 0 ? null : `${fields.length} elements match`, undecided: fields.length > 1 }
            const { value, password: isPassword } = fields[0]!
            password ||= isPassword
            // A password field is compared as it is but its value never shown, whatever its length.
            const actual =
              value === undefined ? "not a form field (not an <input>, <textarea> or <select> element)" : isPassword && value !== "" ? PASSWORD_MASK : value
            return { ok: value === wanted, actual, undecided: value === undefined }
          },
          // A password field's value stays out of the step unless it came as a placeholder (replayed by name).
          step: (code, not) =>
            `await expect(${code}).${notPrefix(not)}toHaveValue(${password && input.value === wanted ? REDACTED_CODE : JSON.stringify(input.value)})`
        }).pipe(Effect.ensuring(Effect.suspend(() => (password ? markSecret(wanted) : Effect.void))))
      )
    )
  }
})

export const expectState = defineTool({
  name: "electron_expect_state",
  description:
    'Assert several states of one element at once, e.g. {"visible":true,"enabled":true,"checked":false}; all are read in one atomic check, retried until timeoutMs. not=true: at least one differs.',
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Target,
    state: Schema.partial(Schema.Struct(Object.fromEntries(STATE_KEYS.map((k) => [k, Schema.Boolean])) as Record<StateKey, typeof Schema.Boolean>)),
    not: Not,
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const wanted = Object.entries(input.state).filter(([, v]) => v !== undefined) as Array<[StateKey, boolean]>
      if (wanted.length === 0)
        return yield* new InvalidArgument({
          message: "state: give at least one predicate",
          hint: 'Example: { "state": { "visible": true, "enabled": false } }.'
        })
      const expected = Object.fromEntries(wanted)
      const onlyAttached = wanted.every(([k]) => k === "attached")
      const states = wanted.map(([k, v]) => (v ? k : `not ${k}`)).join(", ")
      return yield* expectOn({
        target: input.target,
        expected,
        describe: input.not === true ? `${input.target} is not (${states})` : `${input.target} is ${states}`,
        not: input.not,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          const state = await readState(
            locator,
            wanted.some(([k]) => k === "inViewport")
          )
          // No element: only "attached" can be told; every other state is unknown.
          if (state === undefined)
            return onlyAttached
              ? { ok: expected.attached === false, actual: { attached: false } as unknown }
              : { ok: false, actual: "no element" as unknown, undecided: true }
          if ("ambiguous" in state) return { ok: false, actual: `${state.ambiguous} elements match` as unknown, undecided: true }
          const actual = Object.fromEntries(wanted.map(([k]) => [k, state[k]]))
          return { ok: wanted.every(([k, v]) => state[k] === v), actual: actual as unknown }
        },
        step: (code, not) =>
          !not
            ? wanted.map(([k, v]) => `await expect(${code}).${STATE_MATCHERS[k](v)}`).join("\n  ")
            : wanted.length === 1
              ? `await expect(${code}).${STATE_MATCHERS[wanted[0]![0]](!wanted[0]![1])}`
              : `await expect(async () => {\n    const held = await Promise.all([${wanted.map(([k, v]) => `expect(${code}).${STATE_MATCHERS[k](v).replace("()", "({ timeout: 1 })")}.then(() => true, () => false)`).join(", ")}])\n    expect(held.every(Boolean)).toBe(false)\n  }).toPass()`
      })
    })
})

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

export const expectCount = defineTool({
  name: "electron_expect_count",
  description: "Assert how many elements match a target: exactly count, or within min/max (not=true: outside), retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Target,
    count: Schema.optional(Count),
    min: Schema.optional(Count),
    max: Schema.optional(Count),
    not: Not,
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.count === undefined && input.min === undefined && input.max === undefined) {
        return yield* new InvalidArgument({ message: "give count, min or max", hint: 'Example: { "target": "role=listitem", "count": 3 }.' })
      }
      const ok = (n: number) =>
        (input.count === undefined || n === input.count) && (input.min === undefined || n >= input.min) && (input.max === undefined || n <= input.max)
      const expected = input.count !== undefined ? input.count : `${input.min ?? 0}..${input.max ?? "∞"}`
      const range = (code: string, not: boolean) => {
        const checks = [...(input.min !== undefined ? [`n >= ${input.min}`] : []), ...(input.max !== undefined ? [`n <= ${input.max}`] : [])]
        return `{ const n = await ${code}.count(); expect(${checks.join(" && ")}).toBe(${!not}) }`
      }
      return yield* expectOn({
        target: input.target,
        expected,
        describe: input.not === true ? `count of ${input.target} (not ${expected})` : `count of ${input.target}`,
        not: input.not,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          const n = await locator.count()
          return { ok: ok(n), actual: n }
        },
        step: (code, not) =>
          input.count !== undefined && input.min === undefined && input.max === undefined
            ? `await expect(${code}).${notPrefix(not)}toHaveCount(${input.count})`
            : input.count !== undefined
              ? `expect(await ${code}.count() === ${input.count}).toBe(${!not})`
              : range(code, not)
      })
    })
})

export const assertTools = [expectVisible, expectText, expectValue, expectState, expectCount, expectWindow]
