/**
 * electron_fill and electron_type: text into fields, and into code editors through the editor's own key
 * handling with the text read back (./editor.ts).
 */
import { Effect, Schema } from "effect"
import type { Locator } from "playwright-core"
import { ifPlainField, isNotPlainField, type Surface } from "../../layers/driver/ElectronDriver.js"
import { act } from "./act.js"
import { callHandle, type CallHandle } from "../contract/handle.js"
import { markIfFocusedPassword } from "../policy/call-secrets.js"
import { withSecrets } from "../policy/secret-values.js"
import { EDITOR_MAX_CHARS, editorHolds, isEditor, probeEditor, typeIntoEditor, type EditorProbe, type EditorTyping } from "./editor.js"
import { InvalidArgument } from "../contract/errors.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { codeString, stepCode } from "../contract/step-code.js"
import { defineTool } from "../contract/Tool.js"
import { answer } from "../contract/respond.js"

const Timeout5 = TimeoutMs(DEFAULT_ACTION_TIMEOUT)
const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max))
const ERRORS = ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE"] as const

interface Resolved {
  readonly entry: Surface
  readonly locator: Locator
  readonly probe: EditorProbe
}

/** The target's element and what it is (an editor or not), read by the probe, which waits for it. */
const resolveTarget = (call: CallHandle, target: string, timeoutMs: number) =>
  Effect.gen(function* () {
    const entry = yield* call.surface(undefined, { input: true })
    const locator = yield* call.locate(entry, target)
    let probe: EditorProbe | undefined
    yield* call.waitSliced(`find ${target}`, (slice) => probeEditor(locator, slice).then((read) => void (probe = read)), timeoutMs)
    return { entry, locator, probe: probe! } satisfies Resolved
  })

/**
 * `plain` first: the action on a plain input or textarea, told plain by the action's own lookup of the element, with
 * no round trip of its own (ifPlainField). A target that is anything else (a code editor, a password field, several
 * matches) fails that lookup before any input; the probe then reads it and `use` acts on what it is, and a target in
 * several places fails as it always did (the probe's AMBIGUOUS_LOCATOR, "find …").
 */
const withTarget = <A, E extends { readonly _tag: string }, R, A2, E2, R2>(
  call: CallHandle,
  target: string,
  timeoutMs: number,
  plain: Effect.Effect<A, E, R>,
  use: (resolved: Resolved) => Effect.Effect<A2, E2, R2>
) =>
  plain.pipe(
    Effect.catchIf(
      (error) => isNotPlainField(error) || error._tag === "AmbiguousLocator",
      () => Effect.flatMap(resolveTarget(call, target, timeoutMs), use)
    )
  )

/** Types into a code editor, records the step (focus by a click, then the keys) and answers with the read-back. */
const editorCall = (typing: EditorTyping) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const code = yield* stepCode(typing.entry, typing.target, typing.locator)
    const after = yield* typeIntoEditor(typing)
    const keys = typing.replace ? `\n  await window.keyboard.press("ControlOrMeta+A")\n  await window.keyboard.press("Backspace")` : ""
    yield* call.record({
      window: typing.entry.id,
      code: `await window.${code}.click()${keys}\n  await window.keyboard.type(${codeString(typing.text)})`
    })
    const verb = typing.replace ? "Filled" : `Typed ${[...typing.text].length} characters into`
    return yield* call.answer(
      answer(`${verb} the ${after.kind} editor ${code} by its own keys; it holds ${editorHolds(after, typing.replace ? typing.text : undefined)}.`, {
        window: typing.entry.id,
        locator: code,
        editor: { kind: after.kind, source: after.source, characters: after.text.length, ...(typing.replace ? { matches: after.text === typing.text } : {}) }
      }),
      { changesOf: typing.entry }
    )
  })

const tooLong = (argument: string, length: number) =>
  new InvalidArgument({
    message: `${argument}: ${length} characters; a code editor is filled key by key, at most ${EDITOR_MAX_CHARS}`,
    hint: "Split the text over several electron_type calls."
  })

export const fill = defineTool({
  name: "electron_fill",
  description:
    "Type a value (a name, title, search…) into a text box or text field, textarea, date or contenteditable, replacing what it held (input and change events fire). Code editors (Monaco, CodeMirror) get their own keys, read back. Also a dialog row's text box. {{secret:NAME}} fills an operator secret unseen.",
  type: "interact",
  idempotent: true,
  errors: [...ERRORS],
  input: Schema.Struct({ target: Target, value: Text(100_000), timeoutMs: Timeout5 }),
  handler: (input) =>
    Effect.gen(function* () {
      const timeoutMs = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      const call = yield* callHandle
      // A modal state's text box (a prompt's answer, a native dialog's path, a file chooser) is filled in the modal room.
      const modal = yield* call.modalTarget(input.target)
      if (modal !== undefined) return yield* call.answerModal(modal.state, modal.control, { verb: "fill", value: input.value })
      // {{secret:NAME}} becomes the operator's secret here only; the step and the record keep the placeholder.
      const value = yield* withSecrets(input.value)
      const fillField = (plain: boolean) =>
        call.act({
          target: input.target,
          describe: `fill ${input.target}`,
          notPassword: plain,
          step: (code) => `await ${code}.fill(${codeString(input.value)})`,
          timeoutMs,
          wait: "repeat",
          typed: value,
          perform: (target, entry, { timeout }) =>
            plain ? ifPlainField(entry.page, target, (field) => field.fill(value, { timeout })) : target.fill(value, { timeout })
        })
      return yield* withTarget(call, input.target, timeoutMs, fillField(true), ({ entry, locator, probe }) => {
        if (!isEditor(probe)) return fillField(false)
        if (probe.text === value)
          return Effect.succeed(
            answer(`The ${probe.kind} editor ${input.target} already holds the value.`, {
              window: entry.id,
              editor: { kind: probe.kind, source: probe.source, characters: probe.text.length, matches: true }
            })
          )
        if (value.length > EDITOR_MAX_CHARS) return Effect.fail(tooLong("value", value.length))
        return editorCall({ entry, locator, target: input.target, before: probe, text: value, replace: true, delayMs: 0, timeoutMs })
      })
    })
})

export const type = defineTool({
  name: "electron_type",
  description:
    "Type text key by key (keydown/keypress/input/keyup per character) into a target, or into the focused element without one; submit=true presses Enter after. NOT_INTERACTABLE if an editor's text does not change.",
  type: "interact",
  errors: [...ERRORS],
  input: Schema.Struct({
    target: Schema.optional(Target),
    text: Text(EDITOR_MAX_CHARS),
    delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 1_000))).annotations({ description: "between keys, default 0" }),
    submit: Schema.optional(Schema.Boolean),
    timeoutMs: Timeout5
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const delay = input.delayMs ?? 0
      const timeoutMs = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      const typed = yield* withSecrets(input.text)
      if (input.target === undefined) {
        const call = yield* callHandle
        const entry = yield* call.surface(undefined, { input: true })
        // Where the keys went is read before Enter submits (a submitted form may clear or leave the page).
        yield* call.run("type", () => entry.page.keyboard.type(typed, { delay })).pipe(Effect.onExit(() => markIfFocusedPassword(entry.page, typed)))
        if (input.submit === true) yield* call.run("type", () => entry.page.keyboard.press("Enter"))
        yield* call.record({
          window: entry.id,
          code: `await window.keyboard.type(${codeString(input.text)})${input.submit ? `\n  await window.keyboard.press("Enter")` : ""}`
        })
        return yield* call.answer(answer(`Typed ${input.text.length} characters into the focused element.`, { window: entry.id }), { changesOf: entry })
      }
      const target = input.target
      const text = `${typed}${input.submit === true ? "\n" : ""}`
      const typeKeys = (plain: boolean) =>
        act({
          target,
          describe: `type into ${target}`,
          step: (code) => `await ${code}.pressSequentially(${codeString(input.text)})${input.submit ? `\n  await ${code}.press("Enter")` : ""}`,
          timeoutMs,
          wait: "attached",
          typed,
          notPassword: plain,
          perform: (element, entry, { timeout }) => {
            const keys = async (field: Locator) => {
              await field.pressSequentially(typed, { delay, timeout })
              if (input.submit === true) await field.press("Enter", { timeout })
            }
            return plain ? ifPlainField(entry.page, element, keys) : keys(element)
          }
        })
      return yield* withTarget(yield* callHandle, target, timeoutMs, typeKeys(true), ({ entry, locator, probe }) =>
        isEditor(probe) && text.length > 0
          ? editorCall({ entry, locator, target, before: probe, text, replace: false, delayMs: delay, timeoutMs })
          : typeKeys(false)
      )
    })
})
