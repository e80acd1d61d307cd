/**
 * Interaction tools. Each takes a target (ref or selector), acts through Playwright's actionability
 * checks, records the step for test export, and returns what changed when that is small. An action
 * that opens a web dialog (alert/confirm/prompt) returns at once with the dialog and its rows (refs that
 * electron_click answers; electron_web_dialog too where the profile lists it).
 */
import { Effect, Schema } from "effect"

import { InvalidArgument } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { act } from "./act.js"
import { callHandle } from "../contract/handle.js"
import { clickMenuRef, isMenuRef } from "../modal/menu-rows.js"
import { uploadFile } from "./drop.js"
import { fillForm } from "./fill-form.js"
import { pressKey } from "./keys.js"
import { stepCode } from "../contract/step-code.js"
import { fill, type } from "./typing.js"
import { webDialog } from "../modal/web-dialog.js"
import { answer } from "../contract/respond.js"

const timeoutOf = (input: { readonly timeoutMs?: number | undefined }) => input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
const Timeout5 = TimeoutMs(DEFAULT_ACTION_TIMEOUT)
const Modifiers = Schema.optional(Schema.Array(Schema.Literal("Alt", "Control", "ControlOrMeta", "Meta", "Shift")))
const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max))

export const click = defineTool({
  name: "electron_click",
  description:
    "Click or press a button, link, tab or any element once it is visible, enabled and still (right button: its context menu; middle, double click, modifiers). Answers dialog rows; a menubar ref (m1) lists that menu's items, an item's ref clicks it.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({
    target: Target,
    button: Schema.optional(Schema.Literal("left", "right", "middle")),
    double: Schema.optional(Schema.Boolean),
    modifiers: Modifiers,
    timeoutMs: Timeout5
  }),
  handler: (input) => {
    const options = {
      ...(input.button ? { button: input.button } : {}),
      ...(input.modifiers ? { modifiers: [...input.modifiers] } : {})
    }
    const method = input.double === true ? "dblclick" : "click"
    if (isMenuRef(input.target) && input.button !== "right" && input.double !== true) return clickMenuRef(input.target)
    return Effect.flatMap(callHandle, (call) =>
      call.act({
        target: input.target,
        describe: `${method === "dblclick" ? "double-click" : "click"} ${input.target}`,
        step: (code) => `await ${code}.${method}(${Object.keys(options).length > 0 ? JSON.stringify(options) : ""})`,
        timeoutMs: timeoutOf(input),
        wait: "trial",
        modal: { verb: "click" },
        perform: (locator, _entry, bound) => locator[method]({ ...options, ...bound })
      })
    )
  }
})

export const hover = defineTool({
  name: "electron_hover",
  description: "Move the mouse over an element (menus, tooltips, hover states).",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, timeoutMs: Timeout5 }),
  handler: (input) =>
    act({
      target: input.target,
      describe: `hover ${input.target}`,
      step: (code) => `await ${code}.hover()`,
      timeoutMs: timeoutOf(input),
      wait: "trial",
      perform: (locator, _entry, bound) => locator.hover(bound)
    })
})

export const selectOption = defineTool({
  name: "electron_select_option",
  description:
    "Pick or choose options of a <select> dropdown list (or ARIA listbox) by value or label; several for a multiple select. Returns the selected values.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, values: Schema.Array(Text(1_000)).pipe(Schema.minItems(1), Schema.maxItems(100)), timeoutMs: Timeout5 }),
  handler: (input) =>
    act({
      target: input.target,
      describe: `select ${input.values.join(", ")} in ${input.target}`,
      step: (code) => `await ${code}.selectOption(${JSON.stringify(input.values)})`,
      timeoutMs: timeoutOf(input),
      wait: "repeat",
      perform: (locator, _entry, { timeout }) => locator.selectOption([...input.values], { timeout })
    })
})

export const check = defineTool({
  name: "electron_check",
  description: "Tick or untick (checked=false) a checkbox, radio or switch, and verify it took the state.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, checked: Schema.optional(Schema.Boolean).annotations({ description: "default true" }), timeoutMs: Timeout5 }),
  handler: (input) => {
    const checked = input.checked ?? true
    return act({
      target: input.target,
      describe: `${checked ? "check" : "uncheck"} ${input.target}`,
      step: (code) => `await ${code}.setChecked(${checked})`,
      timeoutMs: timeoutOf(input),
      wait: "trial",
      perform: (locator, _entry, bound) => locator.setChecked(checked, bound)
    })
  }
})

export const drag = defineTool({
  name: "electron_drag",
  description: "Drag one element onto another (HTML5 drag and drop and mouse-based dragging both work).",
  type: "interact",
  targets: ["source", "target"],
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ source: Target, target: Target, timeoutMs: Timeout5 }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(undefined, { input: true })
      const destination = yield* call.locate(entry, input.target)
      const destinationCode = yield* stepCode(entry, input.target, destination)
      return yield* act({
        target: input.source,
        describe: `drag ${input.source} to ${input.target}`,
        step: (code) => `await ${code}.dragTo(window.${destinationCode})`,
        // Never tried at once: a drag that pressed the mouse on the source and then timed out must not be repeated.
        timeoutMs: timeoutOf(input),
        wait: "trial",
        tryFirst: false,
        perform: (locator, _entry, bound) => locator.dragTo(destination, bound)
      })
    })
})

export const scroll = defineTool({
  name: "electron_scroll",
  description: "Scroll an element into view (target), or scroll the page or the element under the mouse by dx/dy pixels. Returns the page's scroll position.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    dx: Schema.optional(Schema.Number.pipe(Schema.between(-100_000, 100_000))),
    dy: Schema.optional(Schema.Number.pipe(Schema.between(-100_000, 100_000))).annotations({ description: "pixels, positive is down" }),
    timeoutMs: Timeout5
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(undefined, { input: true })
      if (input.target !== undefined) {
        const locator = yield* call.locate(entry, input.target)
        yield* call.runAction({
          what: `scroll ${input.target} into view`,
          timeoutMs: timeoutOf(input),
          reportsDialogs: false,
          perform: (timeout) => locator.scrollIntoViewIfNeeded({ timeout })
        })
        const code = yield* stepCode(entry, input.target!, locator)
        yield* call.record({ window: entry.id, code: `await window.${code}.scrollIntoViewIfNeeded()` })
      }
      if (input.dx !== undefined || input.dy !== undefined) {
        yield* call.run("scroll", () => entry.page.mouse.wheel(input.dx ?? 0, input.dy ?? 0))
        yield* call.record({ window: entry.id, code: `await window.mouse.wheel(${input.dx ?? 0}, ${input.dy ?? 0})` })
      }
      if (input.target === undefined && input.dx === undefined && input.dy === undefined) {
        return yield* new InvalidArgument({ message: "give target, dx or dy", hint: 'Example: { "dy": 600 } or { "target": "text=Load more" }.' })
      }
      // Wheel scrolling is applied asynchronously; give the page a frame before reading the position.
      const position = yield* call.evaluate(
        entry,
        "read the scroll position",
        () => new Promise<{ x: number; y: number }>((r) => requestAnimationFrame(() => r({ x: Math.round(window.scrollX), y: Math.round(window.scrollY) })))
      )
      return answer(`Scrolled; page position ${position.x},${position.y}.`, { window: entry.id, scroll: position })
    })
})

export const interactTools = [click, hover, fill, fillForm, type, pressKey, selectOption, check, drag, uploadFile, scroll, webDialog]
