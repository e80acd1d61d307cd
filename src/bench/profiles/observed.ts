/**
 * "Seen before": the benchmark's agent may only aim at what an earlier answer showed it. For every call it
 * made, the target-like arguments (a ref, a window id, a selector, a URL, a menu path, a text it waits for)
 * must come from an earlier answer of the same task (or, for the words it waits for or a menu path, from the
 * task's statement: what the user said). App-specific identifiers in selectors and in eval code (ids, classes,
 * data- attributes, test ids) must have been shown too; generic HTML (tag names, input[type=file]) and ARIA
 * roles are vocabulary, not knowledge of the app. A task with any unseen target fails, whatever its check says.
 */
import { parseNodes } from "./nodes.js"

export interface Observed {
  readonly tool: string
  readonly args: Record<string, unknown>
  /** The text of the call's answer. */
  readonly answer: string
}

/** What the agent has seen so far: the raw answers and the (role, name) pairs a snapshot parser reads from them. */
class Seen {
  private text = ""
  private readonly pairs = new Set<string>()
  private readonly roles = new Set<string>()
  private readonly names = new Set<string>()

  add(answer: string): void {
    this.text += `\n${answer}`
    for (const n of parseNodes(answer)) {
      this.roles.add(n.role)
      if (n.name !== "") {
        this.names.add(n.name)
        this.pairs.add(`${n.role}\u0000${n.name}`)
      }
      if (n.text !== "") this.names.add(n.text)
    }
  }

  word(w: string): boolean {
    return new RegExp(`(^|[^A-Za-z0-9_-])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^A-Za-z0-9_-])`).test(this.text)
  }

  phrase(p: string): boolean {
    return p !== "" && (this.text.includes(p) || this.names.has(p))
  }

  role(r: string): boolean {
    return this.roles.has(r) || this.word(r)
  }

  named(role: string, name: string): boolean {
    return this.pairs.has(`${role}\u0000${name}`) || this.text.includes(`${role} "${name}"`) || this.phrase(name)
  }
}

const REF = /^(?:f\d+)?e\d+$/
const WINDOW = /^(?:w|v|g|fr)\d+$/

/** App-specific identifiers in a CSS-like string: #id, .class, [data-…], [id=…], [class…], testid=…. */
export const appIdentifiers = (css: string): ReadonlyArray<string> => [
  ...Array.from(css.matchAll(/#([A-Za-z_][\w-]*)/g), (m) => m[1]!),
  ...Array.from(css.matchAll(/(?:^|[\s>+~(,])(?:[a-z]+)?\.([A-Za-z_][\w-]*)/g), (m) => m[1]!),
  ...Array.from(css.matchAll(/\[(data-[\w-]+|id|class)(?:[~|^$*]?=\s*["']?([^"'\]]*))?/g), (m) => m[2] ?? m[1]!),
  ...Array.from(css.matchAll(/^testid=(.*)$/g), (m) => m[1]!)
]

/** The selector strings an eval function passes to the DOM (querySelector, closest, matches, getElementById). */
const evalSelectors = (fn: string): ReadonlyArray<string> => [
  ...Array.from(fn.matchAll(/(?:querySelector(?:All)?|closest|matches)\(\s*(['"`])((?:(?!\1).)*)\1/g), (m) => m[2]!),
  ...Array.from(fn.matchAll(/getElementById\(\s*(['"`])((?:(?!\1).)*)\1/g), (m) => `#${m[2]!}`)
]

/** Why a target was not seen (undefined when it was). */
const checkTarget = (value: string, seen: Seen): string | undefined => {
  if (REF.test(value)) return seen.word(value) ? undefined : `ref ${value}`
  if (WINDOW.test(value)) return seen.word(value) ? undefined : `window ${value}`
  const role = /^role=([a-z]+)(?:\[name=("(?:[^"\\]|\\.)*"|[^\]]*)\])?$/.exec(value)
  if (role !== null) {
    const name = role[2] === undefined ? undefined : role[2].startsWith('"') ? (JSON.parse(role[2]) as string) : role[2]
    // A role alone is ARIA's vocabulary, not knowledge of the app; a name must have been shown.
    if (name === undefined) return undefined
    if (!seen.role(role[1]!)) return `role ${role[1]}`
    return seen.named(role[1]!, name) ? undefined : `name "${name}"`
  }
  const plain = /^(?:text|label|placeholder|title|alt)=(.*)$/.exec(value)
  if (plain !== null) return seen.phrase(plain[1]!.replace(/^"|"$/g, "")) ? undefined : `text "${plain[1]}"`
  const css = value.replace(/^css=/, "")
  if (value.startsWith("testid=")) return seen.phrase(value) || seen.phrase(value.slice(7)) ? undefined : `test id ${value}`
  const unseen = appIdentifiers(css).filter((id) => !seen.phrase(id))
  return unseen.length === 0 ? undefined : `selector ${value} (${unseen.join(", ")} never shown)`
}

const TARGET_KEYS = ["target", "source", "window"] as const
const WAIT_TOOLS = new Set(["electron_wait_for", "electron_wait_for_window"])

/** The unseen targets of a task's calls, in order ("#3 electron_click: ref e99"). */
export const unseenTargets = (calls: ReadonlyArray<Observed>, statement: string): ReadonlyArray<string> => {
  const seen = new Seen()
  const out: Array<string> = []
  const stated = (s: string) => statement.includes(s) || seen.phrase(s)
  calls.forEach((call, i) => {
    const why: Array<string> = []
    const strings = (v: unknown): ReadonlyArray<string> => (typeof v === "string" ? [v] : [])
    for (const key of TARGET_KEYS)
      for (const v of strings(call.args[key])) {
        const w = checkTarget(v, seen)
        if (w !== undefined) why.push(w)
      }
    for (const f of Array.isArray(call.args.fields) ? (call.args.fields as ReadonlyArray<{ target?: unknown }>) : []) {
      for (const v of strings(f.target)) {
        const w = checkTarget(v, seen)
        if (w !== undefined) why.push(w)
      }
    }
    if (WAIT_TOOLS.has(call.tool)) {
      for (const key of ["text", "textGone", "title", "url"]) for (const v of strings(call.args[key])) if (!stated(v)) why.push(`${key} "${v}"`)
    }
    if (call.tool === "electron_menu_click" && Array.isArray(call.args.path)) {
      for (const label of call.args.path as ReadonlyArray<unknown>) if (typeof label === "string" && !stated(label)) why.push(`menu label "${label}"`)
    }
    if (call.tool.startsWith("electron_eval_") && typeof call.args.function === "string") {
      for (const sel of evalSelectors(call.args.function)) {
        const unseen = appIdentifiers(sel).filter((id) => !seen.phrase(id))
        if (unseen.length > 0) why.push(`eval selector ${sel} (${unseen.join(", ")} never shown)`)
      }
    }
    if (why.length > 0) out.push(`#${i + 1} ${call.tool}: ${why.join("; ")}`)
    seen.add(call.answer)
  })
  return out
}
