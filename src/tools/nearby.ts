/**
 * When a target matches nothing: what is near it in the window's accessibility tree (the same role,
 * names that contain the text asked for) and how to match part of a name, so the next try is right.
 *
 * Playwright's `role=` engine compares `[name="x"]` exactly and case-sensitively (`"x" i` only drops the
 * case); part of a name is `[name*="x"]`, a pattern `[name=/x/i]`. `text=x` unquoted already matches a
 * part in any case, quoted `text="x"` the whole text.
 */
import { Effect } from "effect"
import { ElectronDriver, REF_PATTERN } from "../layers/driver/ElectronDriver.js"
import { ElementNotFound } from "./errors.js"

interface Wanted {
  readonly role?: string
  readonly name?: string
  readonly kind: "role" | "text" | "attr"
}

const unquote = (value: string) => {
  const m = /^(["'])(.*)\1[is]?$/s.exec(value.trim())
  return m ? m[2]! : value.trim()
}

/** What the last segment of a selector asks for, when it is a role, text, label, placeholder, title or alt selector. */
export const parseWanted = (target: string): Wanted | undefined => {
  const segment = target.split(/\s+>>\s+/).pop()!.trim()
  const role = /^(?:internal:)?role=([a-z]+)(.*)$/i.exec(segment)
  if (role) {
    const name = /\[name\s*[*^$|~]?=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/(?:[^/\\]|\\.)*\/[a-z]*)\s*[is]?\s*\]/i.exec(role[2] ?? "")?.[1]
    const plain = name === undefined ? undefined : name.startsWith("/") ? name.replace(/^\/|\/[a-z]*$/g, "").replace(/[\\^$.*+?()[\]{}|]/g, " ").trim() : unquote(name)
    return { kind: "role", role: role[1]!.toLowerCase(), ...(plain ? { name: plain } : {}) }
  }
  const text = /^(?:text|internal:text)=(.*)$/s.exec(segment)
  if (text) return { kind: "text", name: unquote(text[1]!) }
  const attr = /^(?:label|placeholder|title|alt|internal:label)=(.*)$/s.exec(segment)
  if (attr) return { kind: "attr", name: unquote(attr[1]!) }
  return undefined
}

interface Node {
  readonly role: string
  readonly name: string
  readonly line: string
}

const nodesOf = (snapshot: string): ReadonlyArray<Node> =>
  snapshot.split("\n").flatMap((raw) => {
    const m = /^\s*- '?([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*?)'?$/.exec(raw)
    if (!m || !/\[ref=/.test(raw)) return []
    const text = m[3]!.replace(/\[[^\]]*\]/g, "").replace(/^:\s*/, "").trim()
    return [{ role: m[1]!, name: m[2] ?? (text.startsWith("- ") ? "" : text), line: raw.trim().replace(/^- '?/, "").replace(/'?:?$/, "").replace(/ \[cursor=pointer\]/g, "") }]
  })

const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1)

/** Up to `max` lines of the snapshot near what `target` asked for. */
export const nearLines = (snapshot: string, target: string, max = 3): ReadonlyArray<string> => {
  const wanted = parseWanted(target)
  if (wanted === undefined) return []
  const nodes = nodesOf(snapshot)
  const needle = wanted.name?.toLowerCase()
  const sameRole = wanted.role !== undefined ? nodes.filter((n) => n.role === wanted.role) : nodes
  const containing = (list: ReadonlyArray<Node>) => (needle ? list.filter((n) => n.name.toLowerCase().includes(needle)) : [])
  const sharingWords = (list: ReadonlyArray<Node>) => {
    if (!needle) return []
    const asked = new Set(words(needle))
    return list.filter((n) => words(n.name).some((w) => asked.has(w)))
  }
  const picks = [containing(sameRole), containing(nodes), sharingWords(sameRole), wanted.role !== undefined ? sameRole : []]
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const list of picks) {
    for (const node of list) {
      if (out.length >= max) return out
      if (seen.has(node.line)) continue
      seen.add(node.line)
      out.push(node.line.length > 160 ? `${node.line.slice(0, 159)}…` : node.line)
    }
  }
  return out
}

/** How to match part of a name with the selector the agent used. */
export const partialMatchAdvice = (target: string): string | undefined => {
  const wanted = parseWanted(target)
  if (wanted?.kind === "role" && wanted.name !== undefined) {
    const name = JSON.stringify(wanted.name)
    return `[name=${name}] must equal the whole name (case-sensitive); role=${wanted.role}[name*=${name}] matches part of it, [name=/…/i] a pattern in any case`
  }
  if (wanted?.kind === "text" && /^(["']).*\1/.test(target.split(/\s+>>\s+/).pop()!.replace(/^[a-z:]+=/, ""))) {
    return "quoted text= matches the whole text; unquoted text=… matches part of it in any case"
  }
  return undefined
}

/** Nearby lines for a target in the active window (empty when it cannot be read right now). */
export const nearbyFor = (target: string): Effect.Effect<ReadonlyArray<string>, never, ElectronDriver> =>
  Effect.gen(function* () {
    if (REF_PATTERN.test(target.trim()) || parseWanted(target) === undefined) return []
    const driver = yield* ElectronDriver
    const entry = yield* driver.window()
    // The driver's snapshot records the refs, so the refs named here resolve in the next call.
    const snapshot = yield* driver.snapshot(entry)
    return nearLines(snapshot, target)
  }).pipe(
    Effect.timeout("3 seconds"),
    Effect.orElseSucceed(() => [] as ReadonlyArray<string>)
  )

/** Text lines for a zero-match answer: what is near, and how to match part of a name. */
export const noMatchLines = (near: ReadonlyArray<string>, target: string): ReadonlyArray<string> => {
  const advice = partialMatchAdvice(target)
  return [...(near.length > 0 ? [`Near: ${near.join("; ")}`] : []), ...(advice ? [`Note: ${advice}.`] : [])]
}

/** ELEMENT_NOT_FOUND for a call with a target: the same error, with what is near in its hint. */
export const explainNoMatch = (error: ElementNotFound, input: unknown): Effect.Effect<never, ElementNotFound, ElectronDriver> =>
  Effect.gen(function* () {
    const target = (input as { target?: unknown } | null)?.target
    if (typeof target !== "string" || error.details?.["nearest"] !== undefined) return yield* error
    const near = yield* nearbyFor(target)
    const lines = noMatchLines(near, target)
    if (lines.length === 0) return yield* error
    // What is near goes in the hint only: the error's structuredContent repeats the hint already.
    return yield* new ElementNotFound({ message: error.message, hint: `${lines.join(" ")} ${error.hint}`, ...(error.details ? { details: error.details } : {}) })
  })
