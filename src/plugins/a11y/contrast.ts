/**
 * electron_a11y_contrast: WCAG 2 contrast ratio of a target's text, or of every visible text of the page
 * (listing those below the chosen level). The background is the nearest opaque ancestor background,
 * with translucent layers blended; text over a background image is reported as unknown.
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target } from "../../tools/contract/shapes.js"
import { describeMarked, label, MARK, pageFunction } from "./refs.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

interface Measured {
  readonly text: string
  readonly ratio: number | null
  readonly fg: string
  readonly bg: string
  readonly large: boolean
  readonly fontPx: number
  readonly mark: number
}

/** Runs in the page: contrast of `root` itself (scope "self") or of every text-bearing element under it. */
const measure = (root: Element, a: { self: boolean; attr: string; minRatio: number; limit: number }) => {
  const parse = (c: string): [number, number, number, number] => {
    const m = c.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0]
    return [m[0] ?? 0, m[1] ?? 0, m[2] ?? 0, m.length > 3 ? m[3]! : 1]
  }
  const blend = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] =>
    [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])) as [number, number, number]
  const background = (el: Element): [number, number, number] | null => {
    const layers: Array<[number, number, number, number]> = []
    for (let node: Element | null = el; node; node = node.parentElement) {
      const s = getComputedStyle(node)
      if (s.backgroundImage !== "none") return null
      const c = parse(s.backgroundColor)
      if (c[3] > 0) layers.push(c)
      if (c[3] >= 1) break
    }
    return layers.reduceRight<[number, number, number]>((under, top) => blend(top, under), [255, 255, 255])
  }
  const lum = (rgb: [number, number, number]) => {
    const [r, g, b] = rgb.map((v) => {
      const s = v / 255
      return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4)
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const hex = (rgb: [number, number, number]) => "#" + rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")
  const one = (el: Element, mark: number) => {
    const s = getComputedStyle(el)
    const bg = background(el)
    const fgRaw = parse(s.color)
    const fg = blend(fgRaw, bg ?? [255, 255, 255])
    const px = parseFloat(s.fontSize)
    const bold = Number(s.fontWeight) >= 700
    const ratio = bg === null ? null : (Math.max(lum(fg), lum(bg)) + 0.05) / (Math.min(lum(fg), lum(bg)) + 0.05)
    return {
      text: (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60),
      ratio: ratio === null ? null : Math.round(ratio * 100) / 100,
      fg: hex(fg),
      bg: bg ? hex(bg) : "image",
      large: px >= 24 || (bold && px >= 18.66),
      fontPx: px,
      mark
    }
  }
  if (a.self) {
    root.setAttribute(a.attr, "0")
    return { items: [one(root, 0)], checked: 1 }
  }
  const items: Array<ReturnType<typeof one>> = []
  let checked = 0
  for (const el of Array.from(root.querySelectorAll("*")).concat(root)) {
    const hasText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && (n.textContent ?? "").trim() !== "")
    if (!hasText) continue
    const r = el.getBoundingClientRect()
    const s = getComputedStyle(el)
    if (r.width === 0 || r.height === 0 || s.visibility === "hidden" || Number(s.opacity) === 0) continue
    checked++
    const m = one(el, items.length)
    const needed = m.large ? a.minRatio * (3 / 4.5) : a.minRatio
    if ((m.ratio === null || m.ratio < needed) && items.length < a.limit) {
      el.setAttribute(a.attr, String(items.length))
      items.push(m)
    }
  }
  return { items, checked }
}

const levels = (ratio: number, large: boolean) => {
  const aa = large ? 3 : 4.5
  const aaa = large ? 4.5 : 7
  return ratio >= aaa ? "AAA" : ratio >= aa ? "AA" : "fails AA"
}

export const contrastTool = defineTool({
  name: "electron_a11y_contrast",
  description:
    "WCAG colour contrast: of one target's text (ratio, colours, the level it meets: AA/AAA for normal or large text), or without target the page's texts below the level, with refs.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(Target),
    level: Schema.optional(Schema.Literal("AA", "AAA")).annotations({ description: "page scan: list texts below this, default AA" }),
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 200))).annotations({ description: "page scan: max listed, default 20" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const self = input.target !== undefined
      const root = self ? yield* call.locate(entry, input.target!) : entry.page.locator("body")
      const args = { self, attr: MARK, minRatio: input.level === "AAA" ? 7 : 4.5, limit: input.limit ?? 20 }
      yield* call.evaluate(entry, "clear marks", (attr: string) => document.querySelectorAll(`[${attr}]`).forEach((el) => el.removeAttribute(attr)), MARK)
      const out = yield* call.run(`measure contrast${self ? ` of ${input.target}` : ""}`, () => root.evaluate(pageFunction(measure), args, { timeout: 5_000 }))
      const described = yield* describeMarked(entry, out.items.length)
      const items = out.items.map((m: Measured, i) => ({
        ...m,
        ...described[i],
        level: m.ratio === null ? "unknown (background image)" : levels(m.ratio, m.large)
      }))
      const line = (m: (typeof items)[number]) =>
        `${label(m, `"${m.text}"`)}: ${m.ratio ?? "?"}:1 ${m.fg} on ${m.bg}, ${m.large ? "large" : "normal"} text (${m.fontPx}px) → ${m.level}`
      if (self) return answer(line(items[0]!), { window: entry.id, ...items[0] })
      const head =
        items.length === 0
          ? `All ${out.checked} texts in ${entry.id} meet ${input.level ?? "AA"}.`
          : `${items.length} of ${out.checked} texts in ${entry.id} are below ${input.level ?? "AA"}:`
      return answer([head, ...items.map(line)].join("\n"), { window: entry.id, checked: out.checked, below: items })
    })
})
