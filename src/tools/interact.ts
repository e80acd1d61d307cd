/**
 * Interaction tools. Each takes a target (ref or selector), acts through Playwright's actionability
 * checks, records the step for test export, and returns what changed when that is small. An action
 * that opens a web dialog (alert/confirm/prompt) returns at once with the dialog, to be answered
 * with electron_web_dialog.
 */
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { resolve } from "node:path"

import { AppLifecycle, Windows, Snapshots, Dialogs, PageOps } from "../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "./errors.js"



import { defineTool } from "./Tool.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "./shapes.js"
import { act, changeSummary, dialogResult } from "./act.js"
import { fillForm } from "./fill-form.js"
import { webDialog } from "./web-dialog.js"
import { stepCode } from "./step-code.js"
import { markIfFocusedPassword } from "./call-secrets.js"

const timeoutOf = (input: { readonly timeoutMs?: number | undefined }) => input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
const Timeout5 = TimeoutMs(DEFAULT_ACTION_TIMEOUT)
const Modifiers = Schema.optional(Schema.Array(Schema.Literal("Alt", "Control", "ControlOrMeta", "Meta", "Shift")))
const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max))

export const click = defineTool({
  name: "electron_click",
  description: "Click an element after it is visible, enabled and still. Options: right/middle button, double click, modifier keys.",
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
    return act({
      tool: "electron_click",
      target: input.target,
      describe: `${method === "dblclick" ? "double-click" : "click"} ${input.target}`,
      step: (code) => `await ${code}.${method}(${Object.keys(options).length > 0 ? JSON.stringify(options) : ""})`,
      timeoutMs: timeoutOf(input), wait: "trial",
      perform: (locator, _entry, bound) => locator[method]({ ...options, ...bound })
    })
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
      tool: "electron_hover",
      target: input.target,
      describe: `hover ${input.target}`,
      step: (code) => `await ${code}.hover()`,
      timeoutMs: timeoutOf(input), wait: "trial",
      perform: (locator, _entry, bound) => locator.hover(bound)
    })
})

export const fill = defineTool({
  name: "electron_fill",
  description: "Replace the value of a text field, textarea, date or contenteditable element (input and change events fire). For key-by-key typing use electron_type.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, value: Text(100_000), timeoutMs: Timeout5 }),
  handler: (input) =>
    act({
      tool: "electron_fill",
      target: input.target,
      describe: `fill ${input.target}`,
      step: (code) => `await ${code}.fill(${JSON.stringify(input.value)})`,
      timeoutMs: timeoutOf(input), wait: "repeat", typed: input.value,
      perform: (locator, _entry, { timeout }) => locator.fill(input.value, { timeout })
    })
})

export const type = defineTool({
  name: "electron_type",
  description:
    "Type text key by key (keydown/keypress/input/keyup per character) into a target, or into the focused element without one; submit=true presses Enter after. Use for inputs that react to keystrokes.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    text: Text(10_000),
    delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 1_000))).annotations({ description: "between keys, default 0" }),
    submit: Schema.optional(Schema.Boolean),
    timeoutMs: Timeout5
  }),
  handler: (input) => {
    const delay = input.delayMs ?? 0
    if (input.target !== undefined) {
      return act({
        tool: "electron_type",
        target: input.target,
        describe: `type into ${input.target}`,
        step: (code) => `await ${code}.pressSequentially(${JSON.stringify(input.text)})${input.submit ? `\n  await ${code}.press("Enter")` : ""}`,
        timeoutMs: timeoutOf(input), wait: "attached", typed: input.text,
        perform: async (locator, _entry, { timeout }) => {
          await locator.pressSequentially(input.text, { delay, timeout })
          if (input.submit === true) await locator.press("Enter", { timeout })
        }
      })
    }
    return Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const windows = yield* Windows
      const pages = yield* PageOps
      const entry = yield* windows.window()
      // Where the keys went is read before Enter submits (a submitted form may clear or leave the page).
      yield* pages.run("type", () => entry.page.keyboard.type(input.text, { delay })).pipe(Effect.onExit(() => markIfFocusedPassword(entry.page, input.text)))
      if (input.submit === true) yield* pages.run("type", () => entry.page.keyboard.press("Enter"))
      yield* lifecycle.recordStep({ tool: "electron_type", window: entry.id, code: `await window.keyboard.type(${JSON.stringify(input.text)})${input.submit ? `\n  await window.keyboard.press("Enter")` : ""}` })
      const change = yield* changeSummary(entry)
      return { text: `Typed ${input.text.length} characters into the focused element.${change}`, structured: { window: entry.id } }
    })
  }
})

export const pressKey = defineTool({
  name: "electron_press_key",
  description: "Press a key or chord (Enter, Escape, ArrowDown, Control+A, ControlOrMeta+S) on a target or the focused element. Key names follow Playwright's keyboard API.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({ key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), target: Schema.optional(Target), timeoutMs: Timeout5 }),
  handler: (input) => {
    if (input.target !== undefined) {
      return act({
        tool: "electron_press_key",
        target: input.target,
        describe: `press ${input.key} on ${input.target}`,
        step: (code) => `await ${code}.press(${JSON.stringify(input.key)})`,
        timeoutMs: timeoutOf(input), wait: "attached",
        perform: (locator, _entry, { timeout }) => locator.press(input.key, { timeout })
      })
    }
    return Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const windows = yield* Windows
      const dialogs = yield* Dialogs
      const entry = yield* windows.window()
      const dialog = yield* dialogs.runUntilDialog(`press ${input.key}`, () => entry.page.keyboard.press(input.key)).pipe(
        Effect.mapError((error) =>
          /Unknown key/.test(error.message)
            ? new InvalidArgument({ message: `key: unknown key "${input.key}"`, hint: "Use names like Enter, Tab, Escape, ArrowDown, a, Control+A, ControlOrMeta+S." })
            : error
        )
      )
      yield* lifecycle.recordStep({ tool: "electron_press_key", window: entry.id, code: `await window.keyboard.press(${JSON.stringify(input.key)})` })
      if (dialog) return yield* dialogResult(dialog)
      const change = yield* changeSummary(entry)
      return { text: `Pressed ${input.key}.${change}`, structured: { window: entry.id } }
    })
  }
})

export const selectOption = defineTool({
  name: "electron_select_option",
  description: "Choose options of a <select> (or ARIA listbox) by value or label; several for a multiple select. Returns the selected values.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, values: Schema.Array(Text(1_000)).pipe(Schema.minItems(1), Schema.maxItems(100)), timeoutMs: Timeout5 }),
  handler: (input) =>
    act({
      tool: "electron_select_option",
      target: input.target,
      describe: `select ${input.values.join(", ")} in ${input.target}`,
      step: (code) => `await ${code}.selectOption(${JSON.stringify(input.values)})`,
      timeoutMs: timeoutOf(input), wait: "repeat",
      perform: (locator, _entry, { timeout }) => locator.selectOption([...input.values], { timeout })
    })
})

export const check = defineTool({
  name: "electron_check",
  description: "Check or uncheck (checked=false) a checkbox, radio or switch, and verify it took the state.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({ target: Target, checked: Schema.optional(Schema.Boolean).annotations({ description: "default true" }), timeoutMs: Timeout5 }),
  handler: (input) => {
    const checked = input.checked ?? true
    return act({
      tool: "electron_check",
      target: input.target,
      describe: `${checked ? "check" : "uncheck"} ${input.target}`,
      step: (code) => `await ${code}.setChecked(${checked})`,
      timeoutMs: timeoutOf(input), wait: "trial",
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
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const entry = yield* windows.window()
      const destination = yield* snapshots.locate(entry, input.target)
      const destinationCode = yield* stepCode(entry, input.target, destination)
      return yield* act({
        tool: "electron_drag",
        target: input.source,
        describe: `drag ${input.source} to ${input.target}`,
        step: (code) => `await ${code}.dragTo(window.${destinationCode})`,
        // Never tried at once: a drag that pressed the mouse on the source and then timed out must not be repeated.
        timeoutMs: timeoutOf(input), wait: "trial", tryFirst: false,
        perform: (locator, _entry, bound) => locator.dragTo(destination, bound)
      })
    })
})

export const uploadFile = defineTool({
  name: "electron_upload_file",
  description: "Set the files of an <input type=file> (absolute paths, or relative to the server's folder); an empty list clears it. For native open dialogs use electron_dialog_stub.",
  type: "interact",
  idempotent: true,
  files: ["paths[]"],
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE", "REF_STALE", "INVALID_ARGUMENT", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({ target: Target, paths: Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096))).pipe(Schema.maxItems(100)), timeoutMs: Timeout5 }),
  handler: (input) =>
    Effect.gen(function* () {
      const paths = input.paths.map((p) => resolve(p))
      const missing = paths.filter((p) => !existsSync(p))
      if (missing.length > 0) {
        return yield* new InvalidArgument({ message: `paths: ${missing.join(", ")} not found`, hint: "Give paths of existing files." })
      }
      return yield* act({
        tool: "electron_upload_file",
        target: input.target,
        describe: `set ${paths.length} file(s) on ${input.target}`,
        step: (code) => `await ${code}.setInputFiles(${JSON.stringify(paths)})`,
        timeoutMs: timeoutOf(input), wait: "repeat",
        perform: (locator, _entry, { timeout }) => locator.setInputFiles(paths, { timeout })
      })
    })
})

export const scroll = defineTool({
  name: "electron_scroll",
  description: "Scroll an element into view (target), or scroll the page or the element under the mouse by dx/dy pixels. Returns the page's scroll position.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    dx: Schema.optional(Schema.Number.pipe(Schema.between(-100_000, 100_000))),
    dy: Schema.optional(Schema.Number.pipe(Schema.between(-100_000, 100_000))).annotations({ description: "pixels, positive is down" }),
    timeoutMs: Timeout5
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const windows = yield* Windows
      const snapshots = yield* Snapshots
      const pages = yield* PageOps
      const entry = yield* windows.window()
      if (input.target !== undefined) {
        const locator = yield* snapshots.locate(entry, input.target)
        yield* pages.runAction({ what: `scroll ${input.target} into view`, timeoutMs: timeoutOf(input), reportsDialogs: false, perform: (timeout) => locator.scrollIntoViewIfNeeded({ timeout }) })
        const code = yield* stepCode(entry, input.target!, locator)
        yield* lifecycle.recordStep({ tool: "electron_scroll", window: entry.id, code: `await window.${code}.scrollIntoViewIfNeeded()` })
      }
      if (input.dx !== undefined || input.dy !== undefined) {
        yield* pages.run("scroll", () => entry.page.mouse.wheel(input.dx ?? 0, input.dy ?? 0))
        yield* lifecycle.recordStep({ tool: "electron_scroll", window: entry.id, code: `await window.mouse.wheel(${input.dx ?? 0}, ${input.dy ?? 0})` })
      }
      if (input.target === undefined && input.dx === undefined && input.dy === undefined) {
        return yield* new InvalidArgument({ message: "give target, dx or dy", hint: "Example: { \"dy\": 600 } or { \"target\": \"text=Load more\" }." })
      }
      // Wheel scrolling is applied asynchronously; give the page a frame before reading the position.
      const position = yield* pages.evaluate(entry, "read the scroll position", () =>
        new Promise<{ x: number; y: number }>((r) => requestAnimationFrame(() => r({ x: Math.round(window.scrollX), y: Math.round(window.scrollY) })))
      )
      return { text: `Scrolled; page position ${position.x},${position.y}.`, structured: { window: entry.id, scroll: position } }
    })
})

export const interactTools = [click, hover, fill, fillForm, type, pressKey, selectOption, check, drag, uploadFile, scroll, webDialog]
