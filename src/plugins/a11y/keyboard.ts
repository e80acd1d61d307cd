/**
 * Keyboard access: the tab order (focus stops reached by pressing Tab, with traps detected) and the
 * focused element. Role, name and ref come from the element's aria snapshot (see refs.ts).
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target } from "../../tools/contract/shapes.js"
import { describeMarked, label, MARK } from "./refs.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

/** Reads the focused element: a stable key per element, and marks it with `attr="<index>"`. */
const readFocus = (a: { attr: string; index: number }) => {
  const w = window as unknown as { __swFocusKeys?: WeakMap<Element, number>; __swFocusNext?: number }
  const keys = (w.__swFocusKeys ??= new WeakMap())
  const el = document.activeElement
  if (el === null || el === document.body || el === document.documentElement || el.id === "__sw-tab-start") return { key: -1, tag: "body" }
  if (!keys.has(el)) keys.set(el, (w.__swFocusNext = (w.__swFocusNext ?? 0) + 1))
  if (!el.hasAttribute(a.attr)) el.setAttribute(a.attr, String(a.index))
  return { key: keys.get(el)!, tag: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}`, mark: Number(el.getAttribute(a.attr)) }
}

/** How many visible elements the page puts in the tab order (what a full cycle should reach). */
const countTabbable = () =>
  Array.from(document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex], [contenteditable=true], summary")).filter((el) => {
    if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.id === "__sw-tab-start") return false
    if ((el as HTMLInputElement).type === "hidden") return false
    const r = el.getBoundingClientRect()
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden"
  }).length

export const tabOrderTool = defineTool({
  name: "electron_a11y_tab_order",
  description:
    "Presses Tab through the active window and lists the focus stops (role, name, ref) in order; detects focus traps (focus cycling in a subset or not moving) and unreached elements. Moves focus.",
  type: "read",
  readOnly: false,
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE", "REF_STALE"],
  input: Schema.Struct({
    from: Schema.optional(Target).annotations({ description: "focus this first (default: the top of the page)" }),
    maxStops: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 200))).annotations({ description: "default 40" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface(undefined, { input: true })
      const page = entry.page
      const maxStops = input.maxStops ?? 40
      yield* call.evaluate(entry, "clear marks", (attr: string) => document.querySelectorAll(`[${attr}]`).forEach((el) => el.removeAttribute(attr)), MARK)
      if (input.from !== undefined) {
        const start = yield* call.locate(entry, input.from)
        yield* call.run(`focus ${input.from}`, () => start.focus({ timeout: 5_000 }))
      } else {
        // An unfocusable marker at the top of the body is the starting point of sequential navigation.
        yield* call.evaluate(entry, "go to the top", () => {
          const marker = document.createElement("span")
          marker.id = "__sw-tab-start"
          marker.tabIndex = -1
          document.body.prepend(marker)
          marker.focus()
        })
      }
      const stops: Array<{ key: number; tag: string; mark: number }> = []
      if (input.from !== undefined) {
        const first = yield* call.evaluate(entry, "read focus", readFocus, { attr: MARK, index: 0 })
        if (first.key !== -1) stops.push({ key: first.key, tag: first.tag, mark: first.mark ?? 0 })
      }
      let trap: { kind: "stuck" | "cycle"; from: number } | undefined
      let wrapped = false
      let pageEnds = 0
      for (let i = 0; i < maxStops + 2 && stops.length < maxStops; i++) {
        yield* call.run("press Tab", () => page.keyboard.press("Tab"))
        const seen = yield* call.evaluate(entry, "read focus", readFocus, { attr: MARK, index: stops.length })
        if (seen.key === -1) {
          // Focus left the page content (past the last stop): the next Tab starts over.
          if (++pageEnds > 1 || stops.length === 0) break
          continue
        }
        const last = stops[stops.length - 1]
        if (last !== undefined && last.key === seen.key) {
          trap = { kind: "stuck", from: stops.length - 1 }
          break
        }
        const earlier = stops.findIndex((s) => s.key === seen.key)
        if (earlier >= 0) {
          // Back at the first stop: a full cycle. Back at a later one: focus cannot leave that subset.
          if (earlier === 0) wrapped = true
          else trap = { kind: "cycle", from: earlier }
          break
        }
        stops.push({ key: seen.key, tag: seen.tag, mark: seen.mark ?? stops.length })
      }
      const tabbable = yield* call.evaluate(entry, "count tabbable elements", countTabbable)
      yield* call.evaluate(entry, "remove the start marker", () => document.getElementById("__sw-tab-start")?.remove()).pipe(Effect.ignore)
      const described = yield* describeMarked(entry, stops.length)
      const named = stops.map((s, i) => ({ ...described[s.mark], element: s.tag, index: i + 1 }))
      const lines = named.map((s) => `${s.index}. ${label(s, s.element)}`)
      let verdict: string
      if (trap?.kind === "stuck") verdict = `TRAP: focus does not move from stop ${trap.from + 1} (${label(named[trap.from]!, stops[trap.from]!.tag)}).`
      else if (trap?.kind === "cycle") {
        const inTrap = named.slice(trap.from)
        const unreached = Math.max(0, tabbable - stops.length)
        verdict = `TRAP: Tab cycles within stops ${trap.from + 1}-${stops.length} (${inTrap.map((s) => label(s, s.element)).join(", ")})${unreached > 0 ? `; ${unreached} of ${tabbable} tabbable elements never reached` : ""}.`
      } else if (wrapped) verdict = `No trap: Tab wrapped to the start after ${stops.length} stops (${tabbable} tabbable elements on the page).`
      else
        verdict =
          stops.length >= maxStops
            ? `Stopped after maxStops=${maxStops} (${tabbable} tabbable elements on the page).`
            : `${stops.length} stops; focus left the page after the last one.`
      return answer([`Tab order of ${entry.id}:`, ...lines, verdict].join("\n"), {
        window: entry.id,
        stops: named,
        trap: trap ? { kind: trap.kind, stops: named.slice(trap.from).map((s) => s.index) } : null,
        wrapped,
        tabbable
      })
    })
})

export const focusTool = defineTool({
  name: "electron_a11y_focus",
  description: "The focused element of the active window: role, name, ref, tag, and whether it shows a visible focus indicator.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const seen = yield* call.evaluate(
        entry,
        "read focus",
        (attr: string) => {
          document.querySelectorAll(`[${attr}]`).forEach((el) => el.removeAttribute(attr))
          const el = document.activeElement
          if (el === null || el === document.body || el === document.documentElement) return { none: true as const, hasFocus: document.hasFocus() }
          el.setAttribute(attr, "0")
          const style = getComputedStyle(el)
          const indicator = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== "none"
          return {
            none: false as const,
            tag: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}`,
            indicator,
            focusVisible: el.matches(":focus-visible"),
            hasFocus: document.hasFocus()
          }
        },
        MARK
      )
      if (seen.none) return answer(`Nothing is focused in ${entry.id} (focus is on the document body).`, { window: entry.id, focused: null })
      const [d] = yield* describeMarked(entry, 1)
      const focused = { ...d, element: seen.tag, focusVisible: seen.focusVisible, indicator: seen.indicator }
      return answer(
        `${entry.id} focus: ${label(d ?? {}, seen.tag)} (${seen.tag}); focus indicator ${seen.indicator ? "visible" : "none (outline/box-shadow off)"}${seen.focusVisible ? ", :focus-visible" : ""}`,
        { window: entry.id, focused }
      )
    })
})
