/**
 * When a target matches nothing: what is near it in the window's accessibility tree (the same role,
 * names that contain the text asked for) and how to match part of a name, so the next try is right.
 *
 * Playwright's `role=` engine compares `[name="x"]` exactly and case-sensitively (`"x" i` only drops the
 * case); part of a name is `[name*="x"]`, a pattern `[name=/x/i]`. `text=x` unquoted already matches a
 * part in any case, quoted `text="x"` the whole text.
 */
import { Effect } from "effect"
import { REF_PATTERN } from "../../layers/driver/ElectronDriver.js"
import { ElementNotFound } from "../contract/errors.js"
import type { NamedArgument } from "../contract/tool-args.js"
import { cut } from "../contract/respond.js"
import { callHandle, type HandleServices } from "../contract/handle.js"

interface Wanted {
  readonly role?: string
  readonly name?: string
  readonly kind: "role" | "text" | "attr"
}

const unquote = (value: string) => {
  const m = /^(["'])(.*)\1[is]?$/s.exec(value.trim())
  return m ? m[2]! : value.trim()
}

/** A selector chain's ` >> ` (its whitespace run taken from its start only: linear on a long run of spaces). */
const CHAIN = /(?<!\s)\s+>>\s+/

/** What the last segment of a selector asks for, when it is a role, text, label, placeholder, title or alt selector. */
export const parseWanted = (target: string): Wanted | undefined => {
  const segment = target.split(CHAIN).pop()!.trim()
  const role = /^(?:internal:)?role=([a-z]+)(.*)$/i.exec(segment)
  if (role) {
    const name = /\[name\s*[*^$|~]?=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\/(?:[^/\\]|\\.)*\/[a-z]*)\s*[is]?\s*\]/i.exec(role[2] ?? "")?.[1]
    const plain =
      name === undefined
        ? undefined
        : name.startsWith("/")
          ? name
              .replace(/^\/|\/[a-z]*$/g, "")
              .replace(/[\\^$.*+?()[\]{}|]/g, " ")
              .trim()
          : unquote(name)
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
    const text = m[3]!
      .replace(/\[[^\][]*\]/g, "")
      .replace(/^:\s*/, "")
      .trim()
    return [
      {
        role: m[1]!,
        name: m[2] ?? (text.startsWith("- ") ? "" : text),
        line: raw
          .trim()
          .replace(/^- '?/, "")
          .replace(/'?:?$/, "")
          .replace(/ \[cursor=pointer\]/g, "")
      }
    ]
  })

const words = (s: string) =>
  s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)

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
      out.push(cut(node.line, 160))
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
  if (
    wanted?.kind === "text" &&
    /^(["']).*\1/.test(
      target
        .split(CHAIN)
        .pop()!
        .replace(/^[a-z:]+=/, "")
    )
  ) {
    return "quoted text= matches the whole text; unquoted text=… matches part of it in any case"
  }
  return undefined
}

/** Nearby lines for a target in the active window (empty when it cannot be read right now). */
export const nearbyFor = (target: string): Effect.Effect<ReadonlyArray<string>, never, HandleServices> =>
  Effect.gen(function* () {
    if (REF_PATTERN.test(target.trim()) || parseWanted(target) === undefined) return []
    const call = yield* callHandle
    const entry = yield* call.surface()
    // The driver's snapshot records the refs, so the refs named here resolve in the next call.
    const snapshot = yield* call.snapshot(entry)
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

/** At most this many targets are counted to find the ones that match nothing (a form may have 100 fields). */
const MAX_COUNTED = 10

/**
 * The targets that match nothing in the active window right now, in order; a list's first such item ends
 * the search (a form is filled in order: the fields after it were never reached). Empty when the window
 * cannot be read.
 */
const unmatched = (targets: ReadonlyArray<NamedArgument>): Effect.Effect<ReadonlyArray<NamedArgument>, never, HandleServices> =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const entry = yield* call.surface()
    const missing: Array<NamedArgument> = []
    for (const target of targets.slice(0, MAX_COUNTED)) {
      const locator = yield* call.locate(entry, target.value)
      const count = yield* call.count(locator, `count ${target.value}`)
      if (count > 0) continue
      missing.push(target)
      if (target.inList) break
    }
    return missing
  }).pipe(
    Effect.timeout("3 seconds"),
    Effect.orElseSucceed(() => [] as ReadonlyArray<NamedArgument>)
  )

/**
 * ELEMENT_NOT_FOUND for a call with element targets (Tool.targets): the same error, with what is near in
 * its hint. With one target, what is near it; with several (a drag's source and target, a form's fields),
 * which of them matches nothing, and what is near each of those.
 */
export const explainNoMatch = (error: ElementNotFound, targets: ReadonlyArray<NamedArgument>): Effect.Effect<never, ElementNotFound, HandleServices> =>
  Effect.gen(function* () {
    if (targets.length === 0 || error.details?.["nearest"] !== undefined) return yield* error
    const parts: Array<string> = []
    if (targets.length === 1) {
      const target = targets[0]!.value
      parts.push(...noMatchLines(yield* nearbyFor(target), target))
    } else {
      for (const target of yield* unmatched(targets)) {
        const lines = noMatchLines(yield* nearbyFor(target.value), target.value)
        parts.push(`${target.name} matches nothing.`, ...lines)
      }
    }
    if (parts.length === 0) return yield* error
    // What is near goes in the hint only: the error's structuredContent repeats the hint already.
    return yield* new ElementNotFound({
      message: error.message,
      hint: `${parts.join(" ")} ${error.hint}`,
      ...(error.details ? { details: error.details } : {})
    })
  })
