/**
 * Code editors (Monaco, CodeMirror 6 and 5, any contenteditable editor) as electron_fill and electron_type
 * meet them. Such an editor owns its text: Playwright's fill sets the DOM (or inserts text) behind its
 * back, which it ignores or undoes, and a read-only or virtualised editor takes keys without changing.
 * So the text goes in through the editor's own key handling (its select-all, then key by key), and the
 * editor's text is read back — its model when the page exposes one (Monaco's `monaco.editor`, CodeMirror's
 * view on `.cm-content`, CodeMirror 5's instance), else the editable element's visible text — and a call
 * whose typing changed nothing fails NOT_INTERACTABLE instead of answering success.
 */
import { Duration, Effect } from "effect"
import type { Locator } from "playwright-core"
import { budgetMs, isPlainField, pageFunction, PLAIN_FIELD_SELECTOR, type Surface } from "../../layers/driver/ElectronDriver.js"
import { NotInteractable, Timeout, type PlaywrightError } from "../contract/errors.js"
import { callHandle, type HandleServices } from "../contract/handle.js"

export type EditorKind = "monaco" | "codemirror" | "codemirror5" | "contenteditable" | "field" | "other"

/** What a target is and holds: its kind, its text and where that text was read. */
export interface EditorProbe {
  readonly kind: EditorKind
  readonly text: string
  /** model: the editor's own document; dom: the visible text of its editable element; value: a form field's value. */
  readonly source: "model" | "dom" | "value" | "none"
  readonly readOnly: boolean
}

export const isEditor = (probe: EditorProbe): boolean => probe.kind !== "field" && probe.kind !== "other"

/** Runs in the page: reads the editor a target belongs to ("read"), or gives it the keyboard focus ("focus"). */
const inPage = pageFunction((el: Element, op: "read" | "focus"): EditorProbe => {
  type Any = any
  const g = window as Any
  const dom = (node: Element | null | undefined) => ((node as HTMLElement | null)?.innerText ?? "").replace(/\u00a0/g, " ")
  const around = (selector: string) => el.closest(selector) ?? el.querySelector(selector)
  const monaco = around(".monaco-editor")
  if (monaco) {
    const editors: Array<Any> = g.monaco?.editor?.getEditors?.() ?? []
    const editor = editors.find((e) => {
      const node = e.getContainerDomNode?.()
      return node && (node.contains(monaco) || monaco.contains(node))
    })
    if (op === "focus") (editor ?? (monaco.querySelector("textarea, .native-edit-context") as Any))?.focus()
    const readOnly = editor?.getOption?.(g.monaco?.editor?.EditorOption?.readOnly) === true
    return editor
      ? { kind: "monaco", text: String(editor.getValue()), source: "model", readOnly }
      : { kind: "monaco", text: dom(monaco.querySelector(".view-lines")), source: "dom", readOnly }
  }
  const cm = around(".cm-editor")
  if (cm) {
    const content = cm.querySelector(".cm-content") as Any
    const view = content?.cmView?.rootView?.view ?? content?.cmView?.view
    if (op === "focus") (view ?? content)?.focus()
    const readOnly = view?.state?.readOnly === true || content?.getAttribute("contenteditable") === "false"
    return view
      ? { kind: "codemirror", text: String(view.state.doc.toString()), source: "model", readOnly }
      : { kind: "codemirror", text: dom(content), source: "dom", readOnly }
  }
  const cm5 = el.closest(".CodeMirror") as Any
  if (cm5?.CodeMirror) {
    if (op === "focus") cm5.CodeMirror.focus()
    return { kind: "codemirror5", text: String(cm5.CodeMirror.getValue()), source: "model", readOnly: cm5.CodeMirror.getOption("readOnly") === true }
  }
  const editable = '[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]'
  let host = (el as HTMLElement).isContentEditable ? (el as HTMLElement) : (el.querySelector(editable) as HTMLElement | null)
  if (host) {
    while (host.parentElement?.isContentEditable) host = host.parentElement
    if (op === "focus") host.focus()
    return { kind: "contenteditable", text: dom(host), source: "dom", readOnly: host.getAttribute("aria-readonly") === "true" }
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    return { kind: "field", text: el.value, source: "value", readOnly: el.readOnly || el.disabled }
  }
  return { kind: "other", text: "", source: "none", readOnly: false }
})

/**
 * A plain field (src/layers/driver/plain-field.ts): its selector to chain after a target, and one count of it, for
 * plugins (docs/PLUGINS.md); electron_fill and electron_type tell it in their own action's lookup (ifPlainField).
 */
export { isPlainField, PLAIN_FIELD_SELECTOR }

/** Reads the editor of a target, waiting up to `timeout` for the element. */
export const probeEditor = (locator: Locator, timeout: number): Promise<EditorProbe> => locator.evaluate(inPage, "read" as const, { timeout })

/** Editors take text key by key: longer text is refused (electron_type's bound). */
export const EDITOR_MAX_CHARS = 10_000

/** Typed in pieces of this many characters: a cancelled call stops typing within one piece. */
const PIECE = 200

const pieces = (text: string): Array<string> => {
  const chars = [...text]
  const out: Array<string> = []
  for (let i = 0; i < chars.length; i += PIECE) out.push(chars.slice(i, i + PIECE).join(""))
  return out
}

export interface EditorTyping {
  readonly entry: Surface
  readonly locator: Locator
  /** The target as the agent wrote it, for messages. */
  readonly target: string
  readonly before: EditorProbe
  readonly text: string
  /** Select everything (the editor's own ControlOrMeta+A) and delete it first. */
  readonly replace: boolean
  readonly delayMs: number
  readonly timeoutMs: number
}

/** How long the read-back waits for the editor to show a change it applies later (a render, a transaction). */
const SETTLE_MS = 1_000

/**
 * Focuses the editor, replaces or extends its text through its key handling, and reads it back: fails
 * NOT_INTERACTABLE when the text did not change, TIMEOUT when typing outlasts the call's bound.
 */
export const typeIntoEditor = (options: EditorTyping): Effect.Effect<EditorProbe, PlaywrightError, HandleServices> =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const { entry, locator, target, before } = options
    const bound = yield* budgetMs(options.timeoutMs)
    const typing = Effect.gen(function* () {
      yield* call.run(`focus the editor ${target}`, () => locator.evaluate(inPage, "focus" as const, { timeout: bound }))
      if (options.replace) {
        yield* call.run("select all", () => entry.page.keyboard.press("ControlOrMeta+A"))
        yield* call.run("delete the selection", () => entry.page.keyboard.press("Backspace"))
      }
      for (const piece of pieces(options.text)) {
        yield* call.run(`type into ${target}`, () => entry.page.keyboard.type(piece, { delay: options.delayMs }))
      }
    })
    yield* typing.pipe(
      Effect.timeoutFail({
        duration: Duration.millis(bound),
        onTimeout: () =>
          new Timeout({
            message: `typing into ${target} did not finish within ${bound} ms`,
            hint: "Part of the text may be in: read it with electron_get_text, then pass a larger timeoutMs or type the rest."
          })
      })
    )
    const read = call.run(`read back ${target}`, () => probeEditor(locator, SETTLE_MS))
    const after = yield* call.poll(
      Effect.map(read, (probe) => ({ ok: probe.text !== before.text, actual: probe })),
      SETTLE_MS
    )
    if (!after.ok) {
      return yield* new NotInteractable({
        message: `typing into ${target} had no effect: its text is unchanged${before.readOnly ? " (it is marked read-only)" : ""}`,
        hint: "The editor is read-only or ignores these keys: check aria-readonly or contenteditable with electron_get_attribute; focus the editable part (electron_click) and retry.",
        details: { retryable: false, editor: before.kind, source: before.source }
      })
    }
    return after.actual
  })

/** What the editor holds after typing, for the answer: "3 characters in 2 lines (its model), matching the value". */
export const editorHolds = (after: EditorProbe, expected: string | undefined): string => {
  const lines = after.text === "" ? 0 : after.text.split("\n").length
  const read = after.source === "model" ? "its model" : "its visible lines"
  const match =
    expected === undefined ? "" : after.text === expected ? ", matching the value" : ", not the value (auto-indent, closed brackets or lines out of view?)"
  return `${after.text.length} characters in ${lines} line${lines === 1 ? "" : "s"} (read from ${read})${match}`
}
