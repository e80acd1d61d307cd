/**
 * electron_press_key: one key or chord, or a sequence of them ("Control+K Control+S") with an optional
 * pause between presses. Every key name is checked against Playwright's US keyboard before anything is
 * pressed, so a typo fails the whole call with the name it did not know (and the name it may have meant).
 */
import { Duration, Effect, Schema } from "effect"
import { dialogResult } from "../modal/dialogs.js"
import { callHandle, type CallHandle } from "../contract/handle.js"
import { InvalidArgument } from "../contract/errors.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { codeString, stepCode } from "../contract/step-code.js"
import { focusIsPassword, markIfFocusedPassword, REDACTED_CODE } from "../policy/call-secrets.js"
import { amended, answer } from "../contract/respond.js"

/** A press that types a character (`a`, `Shift+A`), as opposed to a named key. */
const isCharacter = (press: string): boolean => [...(press.split("+").pop() ?? "")].length === 1
import { defineTool } from "../contract/Tool.js"

/** Key names of Playwright's US layout beyond the patterns below (its `code` values and the modifiers). */
const NAMED: ReadonlyArray<string> = (
  "Escape Backquote Minus Equal Backslash Backspace Tab BracketLeft BracketRight CapsLock Semicolon Quote Enter " +
  "ShiftLeft ShiftRight ControlLeft ControlRight MetaLeft MetaRight AltLeft AltRight AltGraph Space ContextMenu " +
  "PrintScreen ScrollLock Pause PageUp PageDown Insert Delete Home End ArrowLeft ArrowUp ArrowRight ArrowDown " +
  "AudioVolumeMute AudioVolumeDown AudioVolumeUp MediaTrackNext MediaTrackPrevious MediaPlayPause NumLock Comma " +
  "Period Slash NumpadDivide NumpadMultiply NumpadSubtract NumpadAdd NumpadDecimal NumpadEnter " +
  "Shift Control Alt Meta ControlOrMeta"
).split(" ")
const NAMED_SET = new Set(NAMED)
const PATTERNS = [/^F(?:[1-9]|1[0-2])$/, /^Key[A-Z]$/, /^Digit[0-9]$/, /^Numpad[0-9]$/]

/** Names people write for keys Playwright spells otherwise (Electron accelerators among them). */
const ALIASES: Readonly<Record<string, string>> = {
  ctrl: "Control",
  cmd: "Meta",
  command: "Meta",
  super: "Meta",
  win: "Meta",
  option: "Alt",
  opt: "Alt",
  esc: "Escape",
  return: "Enter",
  del: "Delete",
  ins: "Insert",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  cmdorctrl: "ControlOrMeta",
  commandorcontrol: "ControlOrMeta",
  pgup: "PageUp",
  pgdn: "PageDown",
  spacebar: "Space",
  plus: "+"
}

/** Whether Playwright's keyboard knows the key: a printable ASCII character or a name of its layout. */
export const isKeyName = (key: string): boolean =>
  (key.length === 1 && key >= " " && key <= "~") || NAMED_SET.has(key) || PATTERNS.some((pattern) => pattern.test(key))

/** Edit distance of two short names (insertions, deletions, substitutions). */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = row
  }
  return previous[b.length]!
}

/** The name a mistyped key most likely stands for: a common alias, another spelling, or a near name. */
const suggestion = (key: string): string | undefined => {
  const lower = key.toLowerCase()
  const cased = /^(f|key|digit|numpad)([a-z0-9]+)$/.exec(lower)
  if (ALIASES[lower] !== undefined) return ALIASES[lower]
  const recased = cased ? `${cased[1] === "f" ? "F" : cased[1]![0]!.toUpperCase() + cased[1]!.slice(1)}${cased[2]!.toUpperCase()}` : ""
  if (isKeyName(recased)) return recased
  const near = NAMED.map((name) => [name, distance(lower, name.toLowerCase())] as const).sort((a, b) => a[1] - b[1])[0]
  return near !== undefined && near[1] <= Math.min(2, Math.floor(key.length / 3)) ? near[0] : undefined
}

/** A chord's keys, split the way Playwright splits them (a "+" after a key joins; "Shift++" is Shift and +). */
const chordKeys = (chord: string): Array<string> => {
  const keys: Array<string> = []
  let building = ""
  for (const char of chord) {
    if (char === "+" && building !== "") {
      keys.push(building)
      building = ""
    } else building += char
  }
  keys.push(building)
  return keys
}

export const MAX_PRESSES = 50

/** The presses of `key` (chords separated by spaces; " " alone is the space key), each checked. */
export const parseKeys = (key: string): Effect.Effect<ReadonlyArray<string>, InvalidArgument> => {
  const presses = key.trim() === "" ? [key] : key.trim().split(/\s+/)
  if (presses.length > MAX_PRESSES) {
    return Effect.fail(
      new InvalidArgument({ message: `key: ${presses.length} presses, at most ${MAX_PRESSES}`, hint: "Split the sequence over several calls." })
    )
  }
  for (const press of presses) {
    const unknown = chordKeys(press).find((k) => !isKeyName(k))
    if (unknown !== undefined) {
      const meant = suggestion(unknown)
      return Effect.fail(
        new InvalidArgument({
          message: `key: unknown key ${JSON.stringify(unknown)} in ${JSON.stringify(press)}; nothing was pressed`,
          hint: `${meant !== undefined && isKeyName(meant) ? `Did you mean "${meant}"? ` : ""}Keys: Enter, Tab, Escape, ArrowDown, F5, a, Control+A, ControlOrMeta+S; a sequence separates presses with spaces: "Control+K Control+S".`,
          details: { key: unknown }
        })
      )
    }
  }
  return Effect.succeed(presses)
}

/**
 * The modal state Enter or Escape answers: the one of the active surface, else one of no page (a native dialog, a
 * menu), else the only one. Never a modal window: a key pressed while one is open goes to its page, as a user's would.
 */
const pressedOn = (call: CallHandle) =>
  Effect.gen(function* () {
    const states = (yield* call.modals).states.filter((state) => !("window" in state.origin))
    if (states.length === 0) return undefined
    const active = yield* call.surface(undefined, { gated: false }).pipe(Effect.option)
    const here = active._tag === "Some" ? states.find((s) => s.surface === active.value.id) : undefined
    return here ?? states.find((s) => !("web" in s.origin)) ?? (states.length === 1 ? states[0] : undefined)
  })

export const pressKey = defineTool({
  name: "electron_press_key",
  description:
    'Press a key or chord (Enter, Escape, Control+A, ControlOrMeta+S) on a target or the focused element, or a sequence ("Control+K Control+S", delayMs between). Playwright key names, checked before any press. Enter/Escape answer an open dialog.',
  type: "interact",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "NOT_INTERACTABLE", "REF_STALE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    key: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)).annotations({ description: "a key, chord, or presses separated by spaces" }),
    target: Schema.optional(Target),
    delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 5_000))).annotations({ description: "between presses, default 0" }),
    timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const presses = yield* parseKeys(input.key)
      const call = yield* callHandle
      const timeoutMs = input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT
      const delay = input.delayMs ?? 0
      if (input.target !== undefined && presses.length === 1) {
        const key = presses[0]!
        return yield* call.act({
          target: input.target,
          describe: `press ${key} on ${input.target}`,
          step: (code) => `await ${code}.press(${codeString(key)})`,
          timeoutMs,
          wait: "attached",
          modal: { verb: "press", key },
          typed: key,
          typedInStep: isCharacter(key),
          perform: (locator, _entry, { timeout }) => locator.press(key, { timeout })
        })
      }
      if (input.target !== undefined && (yield* call.modalTarget(input.target)) !== undefined) {
        return yield* new InvalidArgument({
          message: "a dialog or menu answers one key: Enter or Escape",
          hint: `Example: { "key": "Enter", "target": "${input.target}" }.`
        })
      }
      if (input.target === undefined && presses.length === 1 && (presses[0] === "Enter" || presses[0] === "Escape")) {
        const state = yield* pressedOn(call)
        if (state !== undefined) return yield* call.answerModal(state, undefined, { verb: "press", key: presses[0] })
      }
      const entry = yield* call.surface(undefined, { input: true })
      let on = ""
      if (input.target !== undefined) {
        const locator = yield* call.locate(entry, input.target)
        const code = yield* stepCode(entry, input.target, locator)
        yield* call.runAction({
          what: `focus ${input.target}`,
          timeoutMs,
          reportsDialogs: false,
          ready: (slice) => locator.waitFor({ state: "attached", timeout: slice }),
          perform: (timeout) => locator.focus({ timeout })
        })
        yield* call.record({ window: entry.id, code: `await window.${code}.focus()` })
        on = ` on ${code}`
      }
      // A character pressed into a password field is recorded redacted (a key name such as Enter is not secret).
      const intoPassword = presses.some(isCharacter) ? yield* focusIsPassword(entry.page) : false
      for (const [index, press] of presses.entries()) {
        if (index > 0 && delay > 0) {
          yield* Effect.sleep(Duration.millis(delay))
          yield* call.record({ window: entry.id, code: `await window.waitForTimeout(${delay})` })
        }
        const dialog = yield* call.race(`press ${press}`, () => entry.page.keyboard.press(press))
        const pressed = intoPassword && isCharacter(press) ? REDACTED_CODE : codeString(press)
        yield* call.record({ window: entry.id, code: `await window.keyboard.press(${pressed})` })
        if (dialog) {
          const result = yield* dialogResult(dialog, yield* call.modals)
          const rest = presses.length - index - 1
          return rest === 0 ? result : amended(result, { before: `After ${index + 1} of ${presses.length} presses (the rest not pressed): ` })
        }
      }
      // Keys pressed into a password field are a secret of the call's record, as typed text is.
      yield* markIfFocusedPassword(entry.page, input.key)
      return yield* call.answer(answer(`Pressed ${presses.join(" ")}${on}.`, { window: entry.id, keys: presses }), { changesOf: entry })
    })
})
