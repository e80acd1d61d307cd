/**
 * Assertion tools: web-first expectations that retry until they hold or the timeout passes, the
 * way Playwright's expect does, and fail with ASSERTION_FAILED carrying expected and actual.
 * Each passing assertion is recorded for test export as the matching `expect(...)` line.
 */
import { Effect, Schema } from "effect"
import type { Locator } from "playwright-core"
import { AppLifecycle, Windows, Snapshots, PageOps, type Check, type WindowEntry, type DriverServices } from "../layers/driver/ElectronDriver.js"
import { PASSWORD_MASK } from "../layers/driver/ElectronDriver.js"
import { titleOrDialog } from "./dialogs.js"
import { AssertionFailed, InvalidArgument, type ToolError } from "./errors.js"
import { stepCode } from "./step-code.js"
import { compileSafePattern } from "./patterns.js"
import { defineTool, type ToolResult } from "./Tool.js"
import { DEFAULT_EXPECT_TIMEOUT, Target, TimeoutMs } from "./shapes.js"

const Timeout = TimeoutMs(DEFAULT_EXPECT_TIMEOUT)

interface ExpectOptions<A> {
  readonly tool: string
  readonly target: string
  readonly expected: unknown
  readonly describe: string
  readonly timeoutMs: number | undefined
  /** Reads the actual state once; undefined when the element is missing. */
  readonly read: (locator: Locator, entry: WindowEntry) => Promise<Check<A>>
  readonly step: (code: string) => string
}

const expectOn = <A>(options: ExpectOptions<A>): Effect.Effect<ToolResult, ToolError, DriverServices> =>
  Effect.gen(function* () {
    const lifecycle = yield* AppLifecycle
    const windows = yield* Windows
    const snapshots = yield* Snapshots
    const pages = yield* PageOps
    const entry = yield* windows.window()
    const locator = yield* snapshots.locate(entry, options.target)
    const timeout = options.timeoutMs ?? DEFAULT_EXPECT_TIMEOUT
    const outcome = yield* pages.poll(pages.run(options.describe, () => options.read(locator, entry)), timeout)
    const actual = boundActual(outcome.actual)
    if (!outcome.ok) {
      return yield* new AssertionFailed({
        message: `${options.describe} failed after ${timeout} ms`,
        expected: options.expected,
        actual
      })
    }
    const code = yield* stepCode(entry, options.target, locator)
    yield* lifecycle.recordStep({ tool: options.tool, window: entry.id, code: options.step(`window.${code}`) })
    return { text: `Passed: ${options.describe}; actual ${showActual(actual)}.`, structured: { passed: true, expected: options.expected, actual } }
  })

const MAX_ACTUAL_CHARS = 300

/** Page text in an answer is bounded: long strings are cut with a note of their length. */
const boundActual = (value: unknown): unknown =>
  typeof value === "string" && value.length > MAX_ACTUAL_CHARS ? `${value.slice(0, MAX_ACTUAL_CHARS - 1)}… (${value.length} chars)` : value

/** The actual value as the text of an answer shows it. */
const showActual = (value: unknown): string => {
  if (value === null || value === undefined) return "no element"
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "object") return Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}=${String(v)}`).join(", ")
  return String(value)
}

/** Reads an element's state in one evaluation, so composite predicates are checked atomically. */
const readState = (locator: Locator) =>
  locator
    .evaluateAll((els) => {
      if (els.length !== 1) return els.length
      const el = els[0]!
      const element = el as HTMLElement & { disabled?: boolean; readOnly?: boolean; checked?: boolean; indeterminate?: boolean }
      const disabled = element.disabled === true || element.closest("fieldset:disabled") !== null || element.getAttribute("aria-disabled") === "true"
      const ariaChecked = element.getAttribute("aria-checked")
      const checked = typeof element.checked === "boolean" && (element.tagName === "INPUT") ? element.checked : ariaChecked === "true" ? true : ariaChecked === "false" ? false : undefined
      const visible = typeof element.checkVisibility === "function" ? element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true }) : element.getClientRects().length > 0
      const editableTag = element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName)
      return {
        visible,
        hidden: !visible,
        enabled: !disabled,
        disabled,
        checked: checked ?? false,
        focused: element.ownerDocument.activeElement === element,
        editable: editableTag && !disabled && element.readOnly !== true && element.getAttribute("aria-readonly") !== "true",
        empty: element.tagName === "INPUT" || element.tagName === "TEXTAREA" ? (element as HTMLInputElement).value === "" : (element.textContent ?? "").trim() === ""
      }
    })
    .then((state) => (state === 0 ? undefined : typeof state === "number" ? ({ ambiguous: state } as const) : state))

/**
 * How many elements match and how many of the first 20 are visible, in one evaluation (what
 * Playwright's isVisible checks: a visible style and a non-empty box; `display: contents` by its children).
 */
const readVisibility = (locator: Locator) =>
  // No named inner functions: the source runs in the page, where a bundler's name helpers do not exist.
  locator.evaluateAll((els) => {
    let shown = 0
    for (const el of els.slice(0, 20)) {
      const stack: Array<Node> = [el]
      let visible = false
      while (stack.length > 0 && !visible) {
        const node = stack.pop()!
        if (node.nodeType === 3) {
          if ((node.textContent ?? "").trim() === "") continue
          const range = node.ownerDocument!.createRange()
          range.selectNode(node)
          const box = range.getBoundingClientRect()
          visible = box.width > 0 && box.height > 0
          continue
        }
        if (node.nodeType !== 1) continue
        const element = node as Element
        const style = element.ownerDocument.defaultView?.getComputedStyle(element)
        if (style === undefined) {
          visible = true
        } else if (style.display === "contents") {
          stack.push(...Array.from(element.childNodes))
        } else if ((typeof element.checkVisibility !== "function" || element.checkVisibility()) && style.visibility === "visible") {
          const box = element.getBoundingClientRect()
          visible = box.width > 0 && box.height > 0
        }
      }
      if (visible) shown++
    }
    return { count: els.length, shown }
  })

export const expectVisible = defineTool({
  name: "electron_expect_visible",
  description: "Assert an element is visible (or hidden with visible=false), retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE"],
  input: Schema.Struct({ target: Target, visible: Schema.optional(Schema.Boolean).annotations({ description: "default true" }), timeoutMs: Timeout }),
  handler: (input) => {
    const visible = input.visible ?? true
    return expectOn({
      tool: "electron_expect_visible",
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

export const expectText = defineTool({
  name: "electron_expect_text",
  description:
    "Assert an element's text contains text (exact=true: equals it, whitespace normalized) or matches pattern (regex source), retrying until timeoutMs. Fails with the actual text.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Target,
    text: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
    pattern: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))),
    exact: Schema.optional(Schema.Boolean),
    ignoreCase: Schema.optional(Schema.Boolean),
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if ((input.text === undefined) === (input.pattern === undefined)) {
        return yield* new InvalidArgument({ message: "give exactly one of text or pattern", hint: "Example: { \"target\": \"e5\", \"text\": \"Saved\" }." })
      }
      const regex = input.pattern !== undefined ? yield* compileSafePattern(input.pattern, input.ignoreCase ? "i" : "") : undefined
      const fold = (s: string) => (input.ignoreCase ? s.toLowerCase() : s)
      const expected = input.text !== undefined ? normalize(input.text) : `/${input.pattern}/`
      const matches = (actual: string) =>
        regex !== undefined ? regex.test(actual) : input.exact === true ? fold(actual) === fold(expected) : fold(actual).includes(fold(expected))
      const matcher = input.exact === true || regex !== undefined ? "toHaveText" : "toContainText"
      const argument = regex !== undefined ? regex.literal : JSON.stringify(expected)
      // Matched here on RE2 (linear time); a text too long for the pattern's bound is reported, not matched.
      const tooLong = (actual: string) => (regex !== undefined && !regex.fits(actual) ? `${actual.length} chars, more than the ${regex.maxInput} this pattern is matched against (narrow the target or simplify the pattern)` : undefined)
      return yield* expectOn({
        tool: "electron_expect_text",
        target: input.target,
        expected: input.exact === true ? expected : regex !== undefined ? expected : `contains ${JSON.stringify(expected)}`,
        describe: `text of ${input.target}`,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          // The common case in one round trip: exactly one element (strict mode throws on several, a short
          // timeout on none); anything else is read again with the count.
          const single = await locator.innerText({ timeout: 100 }).catch(() => undefined)
          if (single !== undefined) return { ok: matches(normalize(single)), actual: tooLong(normalize(single)) ?? normalize(single) }
          const texts = await locator.evaluateAll((els) => els.map((el) => ("innerText" in el ? (el as HTMLElement).innerText : el.textContent ?? "")))
          if (texts.length === 0) return { ok: false, actual: null }
          if (texts.length > 1) return { ok: false, actual: `${texts.length} elements match` }
          const actual = normalize(texts[0]!)
          return { ok: matches(actual), actual: tooLong(actual) ?? actual }
        },
        step: (code) => `await expect(${code}).${matcher}(${argument}${input.ignoreCase && regex === undefined ? ", { ignoreCase: true }" : ""})`
      })
    })
})

export const expectValue = defineTool({
  name: "electron_expect_value",
  description: "Assert a form field's current value equals value (select: the selected option's value), retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE"],
  input: Schema.Struct({ target: Target, value: Schema.String.pipe(Schema.maxLength(100_000)), timeoutMs: Timeout }),
  handler: (input) =>
    expectOn({
      tool: "electron_expect_value",
      target: input.target,
      expected: input.value,
      describe: `value of ${input.target}`,
      timeoutMs: input.timeoutMs,
      read: async (locator) => {
        const fields = await locator.evaluateAll((els) =>
          els.map((el) => {
            const field = ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) ? el : (el.closest("label") as HTMLLabelElement | null)?.control ?? el
            const value = ["INPUT", "TEXTAREA", "SELECT"].includes(field.tagName) ? (field as HTMLInputElement).value : undefined
            return { value, password: field.tagName === "INPUT" && (field as HTMLInputElement).type === "password" }
          })
        )
        if (fields.length !== 1) return { ok: false, actual: fields.length === 0 ? null : `${fields.length} elements match` }
        const { value, password } = fields[0]!
        // A password field is compared as it is but its value never shown, whatever its length.
        const actual = value === undefined ? "not a form field (not an <input>, <textarea> or <select> element)" : password && value !== "" ? PASSWORD_MASK : value
        return { ok: value === input.value, actual }
      },
      step: (code) => `await expect(${code}).toHaveValue(${JSON.stringify(input.value)})`
    })
})

const STATE_KEYS = ["visible", "hidden", "enabled", "disabled", "checked", "focused", "editable", "empty"] as const
type StateKey = (typeof STATE_KEYS)[number]

const STATE_MATCHERS: Record<StateKey, (on: boolean) => string> = {
  visible: (on) => (on ? "toBeVisible()" : "toBeHidden()"),
  hidden: (on) => (on ? "toBeHidden()" : "toBeVisible()"),
  enabled: (on) => (on ? "toBeEnabled()" : "toBeDisabled()"),
  disabled: (on) => (on ? "toBeDisabled()" : "toBeEnabled()"),
  checked: (on) => (on ? "toBeChecked()" : "not.toBeChecked()"),
  focused: (on) => (on ? "toBeFocused()" : "not.toBeFocused()"),
  editable: (on) => (on ? "toBeEditable()" : "not.toBeEditable()"),
  empty: (on) => (on ? "toBeEmpty()" : "not.toBeEmpty()")
}

export const expectState = defineTool({
  name: "electron_expect_state",
  description:
    "Assert several states of one element at once, e.g. {\"visible\":true,\"enabled\":true,\"checked\":false}; all are read in one atomic check, retried until timeoutMs. States: visible, hidden, enabled, disabled, checked, focused, editable, empty.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    target: Target,
    state: Schema.partial(Schema.Struct(Object.fromEntries(STATE_KEYS.map((k) => [k, Schema.Boolean])) as Record<StateKey, typeof Schema.Boolean>)),
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const wanted = Object.entries(input.state).filter(([, v]) => v !== undefined) as Array<[StateKey, boolean]>
      if (wanted.length === 0) return yield* new InvalidArgument({ message: "state: give at least one predicate", hint: "Example: { \"state\": { \"visible\": true, \"enabled\": false } }." })
      const expected = Object.fromEntries(wanted)
      return yield* expectOn({
        tool: "electron_expect_state",
        target: input.target,
        expected,
        describe: `${input.target} is ${wanted.map(([k, v]) => (v ? k : `not ${k}`)).join(", ")}`,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          const state = await readState(locator)
          if (state === undefined) return { ok: false, actual: "no element" as unknown }
          if ("ambiguous" in state) return { ok: false, actual: `${state.ambiguous} elements match` as unknown }
          const actual = Object.fromEntries(wanted.map(([k]) => [k, state[k]]))
          return { ok: wanted.every(([k, v]) => state[k] === v), actual: actual as unknown }
        },
        step: (code) => wanted.map(([k, v]) => `await expect(${code}).${STATE_MATCHERS[k](v)}`).join("\n  ")
      })
    })
})

const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

export const expectCount = defineTool({
  name: "electron_expect_count",
  description: "Assert how many elements match a target: exactly count, or within min/max, retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "INVALID_ARGUMENT"],
  input: Schema.Struct({ target: Target, count: Schema.optional(Count), min: Schema.optional(Count), max: Schema.optional(Count), timeoutMs: Timeout }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.count === undefined && input.min === undefined && input.max === undefined) {
        return yield* new InvalidArgument({ message: "give count, min or max", hint: "Example: { \"target\": \"role=listitem\", \"count\": 3 }." })
      }
      const ok = (n: number) =>
        (input.count === undefined || n === input.count) && (input.min === undefined || n >= input.min) && (input.max === undefined || n <= input.max)
      const expected = input.count !== undefined ? input.count : `${input.min ?? 0}..${input.max ?? "∞"}`
      return yield* expectOn({
        tool: "electron_expect_count",
        target: input.target,
        expected,
        describe: `count of ${input.target}`,
        timeoutMs: input.timeoutMs,
        read: async (locator) => {
          const n = await locator.count()
          return { ok: ok(n), actual: n }
        },
        step: (code) =>
          input.count !== undefined
            ? `await expect(${code}).toHaveCount(${input.count})`
            : `expect(await ${code}.count()).toBeGreaterThanOrEqual(${input.min ?? 0})${input.max !== undefined ? `\n  expect(await ${code}.count()).toBeLessThanOrEqual(${input.max})` : ""}`
      })
    })
})

export const expectWindow = defineTool({
  name: "electron_expect_window",
  description: "Assert a window with the given title or URL (substring) is open, and/or how many windows are open, retrying until timeoutMs.",
  type: "assert",
  errors: ["APP_NOT_RUNNING", "ASSERTION_FAILED", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    title: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))),
    url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000))),
    count: Schema.optional(Count),
    timeoutMs: Timeout
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.title === undefined && input.url === undefined && input.count === undefined) {
        return yield* new InvalidArgument({ message: "give title, url or count", hint: "Example: { \"title\": \"Settings\" }." })
      }
      const lifecycle = yield* AppLifecycle
      const pages = yield* PageOps
      const session = yield* lifecycle.session
      const timeout = input.timeoutMs ?? DEFAULT_EXPECT_TIMEOUT
      const expected = { ...(input.title !== undefined ? { title: input.title } : {}), ...(input.url !== undefined ? { url: input.url } : {}), ...(input.count !== undefined ? { count: input.count } : {}) }
      const outcome = yield* pages.poll(
        Effect.gen(function* () {
          const open = session.windows.filter((w) => !w.page.isClosed())
          const windows = yield* Effect.forEach(open, (w) => Effect.map(titleOrDialog(session, w), (title) => ({ id: w.id, title, url: w.page.url() })), { concurrency: "unbounded" })
          const match = windows.find((w) => (input.title === undefined || w.title.includes(input.title)) && (input.url === undefined || w.url.includes(input.url)))
          const filterOk = (input.title === undefined && input.url === undefined) || match !== undefined
          const countOk = input.count === undefined || windows.length === input.count
          return { ok: filterOk && countOk, actual: { count: windows.length, windows: windows.map((w) => `${w.id} "${w.title}" ${w.url}`) } }
        }),
        timeout
      )
      if (!outcome.ok) return yield* new AssertionFailed({ message: `window expectation failed after ${timeout} ms`, expected, actual: outcome.actual })
      yield* lifecycle.recordStep({
        tool: "electron_expect_window",
        window: session.activeId ?? "",
        code: input.count !== undefined ? `expect(app.windows().length).toBe(${input.count})` : `// a window ${JSON.stringify(expected)} is open`
      })
      return { text: `Passed: ${outcome.actual.count} window(s) open; ${outcome.actual.windows.join("; ")}`, structured: { passed: true, ...outcome.actual } }
    })
})

export const assertTools = [expectVisible, expectText, expectValue, expectState, expectCount, expectWindow]
