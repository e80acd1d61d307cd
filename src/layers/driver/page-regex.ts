/**
 * Which regular expressions the page may run: selector regexes (selector-patterns.ts) run in the page on
 * V8's backtracking RegExp, against the text of every candidate element, so only those whose
 * backtracking is provably bounded pass.
 *
 * The bound: a backtracking matcher that fails at one start position explores, for each item of the
 * pattern, its scan (the characters it may consume) plus, for each way it may end, the rest of the
 * pattern; alternatives are explored one after another. cost(item, rest) = scan + endings × cost(rest),
 * or 2·scan + cost(rest) when the item's end is forced (what must follow cannot be matched by it, as in
 * `\d+-`, `\w+@`, `a*$`), and the whole is tried at every start position (once when anchored with ^).
 * With k overlapping unbounded quantifiers this grows as n^(k+1) (`a*a*b`: n³); nested quantified groups
 * (`(a+)+`, `(a|a)*`) are exponential and refused outright, as are backreferences and lookarounds. A
 * pattern passes when its cost is at most 20·n² for n = 1,000 and n = 100,000 characters: one overlapping
 * open-ended quantifier (`.*foo`, `^Task \d+$`, `Save|Cancel`) passes; a second (`.*a.*b`), or a large
 * constant (twenty overlapping alternatives in a row), does not.
 */

const MAX_SOURCE = 1_000
const SIZES = [1_000, 100_000]
const PER_CHAR = 128

type Ranges = ReadonlyArray<readonly [number, number]>
const TOP = 0x10ffff
const ANY: Ranges = [[0, TOP]]
const NONE: Ranges = []
const LINE_TERMINATORS: Ranges = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029]
]
const DIGIT: Ranges = [[48, 57]]
const WORD: Ranges = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122]
]
const SPACE: Ranges = [
  [9, 13],
  [32, 32],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff]
]

const normalize = (ranges: Ranges): Ranges => {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0])
  const out: Array<[number, number]> = []
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1]
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi)
    else out.push([lo, hi])
  }
  return out
}
const union = (a: Ranges, b: Ranges): Ranges => normalize([...a, ...b])
const complement = (ranges: Ranges): Ranges => {
  const out: Array<[number, number]> = []
  let next = 0
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1])
    next = hi + 1
  }
  if (next <= TOP) out.push([next, TOP])
  return out
}
const overlaps = (a: Ranges, b: Ranges) => a.some(([lo, hi]) => b.some(([l, h]) => lo <= h && l <= hi))
const LETTERS: Ranges = [
  [65, 90],
  [97, 122]
]
/** With the i flag a set also matches the other case of its ASCII letters; beyond ASCII (ſ, K, É…), conservatively, any letter. */
const caseClosed = (ranges: Ranges): Ranges => {
  const extra: Array<readonly [number, number]> = []
  for (const [lo, hi] of ranges) {
    for (const [a, z, shift] of [
      [65, 90, 32],
      [97, 122, -32]
    ] as const)
      if (lo <= z && a <= hi) extra.push([Math.max(lo, a) + shift, Math.min(hi, z) + shift])
  }
  if (overlaps(ranges, LETTERS) || ranges.some(([, hi]) => hi >= 0x80)) extra.push([0x80, TOP])
  if (ranges.some(([, hi]) => hi >= 0x80)) extra.push(...LETTERS)
  return union(ranges, extra)
}

/** Where an item sits in the source: from its start to the end of its atom (before any quantifier) and to its end. */
interface Span {
  readonly from: number
  readonly atomEnd: number
  readonly to: number
}
type Item = Span &
  (
    | { readonly kind: "set"; readonly set: Ranges; readonly min: number; readonly max: number }
    | { readonly kind: "group"; readonly branches: ReadonlyArray<ReadonlyArray<Item>>; readonly min: number; readonly max: number }
    | { readonly kind: "assert"; readonly anchor: boolean }
  )
type Atom = Item extends infer I ? (I extends Span ? Omit<I, keyof Span> : never) : never

class Refusal {
  constructor(readonly why: string) {}
}

/** Parses a JavaScript regex source into alternatives of items; refuses backreferences and lookarounds. */
const parse = (source: string, flags: string): ReadonlyArray<ReadonlyArray<Item>> => {
  let i = 0
  const ci = flags.includes("i")
  const set = (ranges: Ranges): Ranges => (ci ? caseClosed(ranges) : ranges)
  const char = (c: number): Ranges => [[c, c]]
  const hex = (digits: string, length?: number) =>
    /^[0-9a-fA-F]+$/.test(digits) && (length === undefined || digits.length === length) ? parseInt(digits, 16) : undefined
  /** The code point at i, i moved past it (a surrogate pair is one character: conservative without the u flag too). */
  const next = (): number => {
    const code = source.codePointAt(i)!
    i += code > 0xffff ? 2 : 1
    return code
  }
  /** An escape after `\` (i at the escaped character): its set, or "b"/"B" for word boundaries. */
  const escape = (inClass: boolean): Ranges | "boundary" => {
    const c = source[i++] ?? "\\"
    if (/[1-9]/.test(c)) throw new Refusal("backreferences (\\1) are not allowed")
    if (c === "k" && source[i] === "<") throw new Refusal("named backreferences (\\k<name>) are not allowed")
    if (c === "d" || c === "D") return c === "d" ? DIGIT : complement(DIGIT)
    if (c === "w" || c === "W") return c === "w" ? WORD : complement(WORD)
    if (c === "s" || c === "S") return c === "s" ? SPACE : complement(SPACE)
    if (c === "b") return inClass ? char(8) : "boundary"
    if (c === "B" && !inClass) return "boundary"
    if (c === "p" || c === "P") {
      if (source[i] === "{") i = Math.max(i, source.indexOf("}", i) + 1)
      return ANY
    }
    if (c === "c") return /[a-zA-Z]/.test(source[i] ?? "") ? char(source.charCodeAt(i++) % 32) : char(92)
    if (/[0-7]/.test(c)) return [[0, 255]]
    const fixed = c === "x" ? hex(source.slice(i, i + 2), 2) : c === "u" ? hex(source.slice(i, i + 4), 4) : undefined
    if (fixed !== undefined) return ((i += c === "x" ? 2 : 4), char(fixed))
    const braced = c === "u" && source[i] === "{" ? hex(source.slice(i + 1, Math.max(i + 1, source.indexOf("}", i)))) : undefined
    if (braced !== undefined) return ((i = source.indexOf("}", i) + 1), char(Math.min(braced, TOP)))
    const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 }
    return char(controls[c] ?? c.codePointAt(0)!)
  }
  const charClass = (): Ranges => {
    const negate = source[i] === "^"
    if (negate) i++
    let ranges: Ranges = NONE
    while (i < source.length && source[i] !== "]") {
      const one = (): Ranges | "boundary" => (source[i] === "\\" ? (i++, escape(true)) : char(next()))
      const from = one()
      if (from === "boundary") continue
      if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length && from.length === 1 && from[0]![0] === from[0]![1]) {
        i++
        const to = one()
        if (to !== "boundary" && to.length === 1 && to[0]![0] === to[0]![1] && to[0]![0] >= from[0]![0]) {
          ranges = union(ranges, [[from[0]![0], to[0]![0]]])
          continue
        }
        ranges = union(ranges, union(to === "boundary" ? NONE : to, char(45)))
      }
      ranges = union(ranges, from)
    }
    i++
    return set(negate ? complement(ranges) : ranges)
  }
  const quantifier = (): readonly [number, number] | undefined => {
    const c = source[i]
    let q: readonly [number, number] | undefined
    if (c === "*") (q = [0, Infinity]), i++
    else if (c === "+") (q = [1, Infinity]), i++
    else if (c === "?") (q = [0, 1]), i++
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24))
      if (m) {
        i += m[0].length
        q = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3])]
      }
    }
    if (q && source[i] === "?") i++
    return q
  }
  const alternatives = (depth: number): Array<Array<Item>> => {
    if (depth > 50) throw new Refusal("groups are nested too deeply")
    const branches: Array<Array<Item>> = [[]]
    while (i < source.length && source[i] !== ")") {
      const at = i
      const c = source[i++]!
      if (c === "|") {
        branches.push([])
        continue
      }
      let atom: Atom
      if (c === "(") {
        if (source[i] === "?") {
          const kind = source.slice(i, i + 3)
          if (/^\?[=!]|^\?<[=!]/.test(kind)) throw new Refusal("lookarounds ((?=, (?!, (?<=, (?<!) are not allowed")
          if (kind.startsWith("?:")) i += 2
          else if (kind.startsWith("?<")) i = source.indexOf(">", i) + 1 || source.length
          else throw new Refusal(`the group syntax (${kind} is not supported`)
        }
        const inner = alternatives(depth + 1)
        i++
        atom = { kind: "group", branches: inner, min: 1, max: 1 }
      } else if (c === "^" || c === "$") atom = { kind: "assert", anchor: !flags.includes("m") }
      else if (c === "[") atom = { kind: "set", set: charClass(), min: 1, max: 1 }
      else if (c === ".") atom = { kind: "set", set: flags.includes("s") ? ANY : complement(LINE_TERMINATORS), min: 1, max: 1 }
      else if (c === "\\") {
        const escaped = escape(false)
        atom = escaped === "boundary" ? { kind: "assert", anchor: false } : { kind: "set", set: set(escaped), min: 1, max: 1 }
      } else {
        i = at
        atom = { kind: "set", set: set(char(next())), min: 1, max: 1 }
      }
      const atomEnd = i
      const q = quantifier()
      if (q && atom.kind !== "assert") atom = { ...atom, min: q[0], max: q[1] }
      branches[branches.length - 1]!.push({ ...atom, from: at, atomEnd, to: i } as Item)
    }
    return branches
  }
  const top = alternatives(0)
  if (i < source.length) throw new Refusal("it has an unmatched )")
  return top
}

const hasQuantifierOrAlternation = (branches: ReadonlyArray<ReadonlyArray<Item>>): boolean =>
  branches.length > 1 ||
  branches.some((items) =>
    items.some((item) => item.kind !== "assert" && (item.min !== 1 || item.max !== 1 || (item.kind === "group" && hasQuantifierOrAlternation(item.branches))))
  )
const charsOf = (branches: ReadonlyArray<ReadonlyArray<Item>>): Ranges =>
  branches
    .flat()
    .reduce<Ranges>((all, item) => (item.kind === "set" ? union(all, item.set) : item.kind === "group" ? union(all, charsOf(item.branches)) : all), NONE)
const lengthOf = (branches: ReadonlyArray<ReadonlyArray<Item>>): number =>
  Math.max(
    1,
    ...branches.map((items) =>
      items.reduce((sum, item) => sum + (item.kind === "assert" ? 0 : item.min * (item.kind === "group" ? lengthOf(item.branches) : 1)), 0)
    )
  )

/** What follows a point of the pattern: the cost of matching it, the characters it may start with, and whether it may match nothing up to the pattern's end. */
interface Tail {
  readonly cost: number
  readonly first: Ranges
  readonly end: boolean
}

const sequence = (items: ReadonlyArray<Item>, tail: Tail, n: number, flags: string): Tail =>
  items.reduceRight<Tail>((rest, item) => {
    if (item.kind === "assert") {
      return item.anchor
        ? { cost: 1 + rest.cost, first: NONE, end: false }
        : { cost: 1 + rest.cost, first: flags.includes("m") ? union(rest.first, LINE_TERMINATORS) : rest.first, end: rest.end }
    }
    if (item.kind === "group" && item.max <= 1) {
      const inner = item.branches.map((branch) => sequence(branch, rest, n, flags))
      const skip = item.min === 0 && item.max >= 0 ? [rest] : []
      if (item.max === 0) return rest
      const all = [...inner, ...skip]
      return { cost: all.reduce((sum, t) => sum + t.cost, 0), first: all.reduce<Ranges>((f, t) => union(f, t.first), NONE), end: all.some((t) => t.end) }
    }
    if (item.kind === "group" && hasQuantifierOrAlternation(item.branches))
      throw new Refusal("a repeated group contains a quantifier or alternation (like (a+)+ or (a|b)*), which backtracks exponentially")
    const chars = item.kind === "group" ? charsOf(item.branches) : item.set
    const unit = item.kind === "group" ? lengthOf(item.branches) : 1
    const scan = item.max === Infinity ? n : item.max * unit
    const endings = item.max === Infinity ? n : item.max - item.min + 1
    const forced = rest.end || !overlaps(chars, rest.first)
    const cost = item.min === item.max ? scan + rest.cost : forced ? 2 * scan + rest.cost : scan + endings * rest.cost
    return { cost, first: item.min > 0 ? chars : union(chars, rest.first), end: item.min === 0 && rest.end }
  }, tail)

const TAIL_END: Tail = { cost: 1, first: NONE, end: true }
const fixedSet = (item: Item): boolean => item.kind === "set" && item.min === item.max

/**
 * The first open-ended set of an unanchored branch whose scans cannot overlap from one start position to the
 * next: everything before it is a fixed run of sets and the set just before it shares no character with it
 * (`\w@\w+\.com`: each `\w+` run starts after an `@` and ends before the next), so its scans add up to n.
 */
const amortised = (items: ReadonlyArray<Item>): number => {
  for (let k = 1; k < items.length; k++) {
    const item = items[k]!
    if (item.kind === "set" && item.max === Infinity) {
      const before = items[k - 1]!
      return items.slice(0, k).every(fixedSet) && before.kind === "set" && !overlaps(before.set, item.set) ? k : -1
    }
    if (!fixedSet(item)) return -1
  }
  return -1
}

/** What one branch costs over a text of n characters, searched from every start position (or once when anchored). */
const branchCost = (items: ReadonlyArray<Item>, n: number, flags: string): number => {
  const lead = items.find((item) => item.kind !== "assert" || item.anchor)
  if (lead?.kind === "assert" || flags.includes("y")) return n + sequence(items, TAIL_END, n, flags).cost
  const k = amortised(items)
  if (k < 0) return n * sequence(items, TAIL_END, n, flags).cost
  const rest = sequence(items.slice(k + 1), TAIL_END, n, flags).cost
  const once = items.map((item, index): Item => (index === k && item.kind === "set" ? { ...item, min: 1, max: 1 } : item))
  return n * sequence(once, TAIL_END, n, flags).cost + n * (2 + rest)
}

/**
 * The same test with the open-ended repeats at a branch's unanchored edges cut to their minimum: for a yes/no
 * search (what a selector asks) `.*b` and `b`, `\w+@` and `\w@`, `Tasks .+` and `Tasks .` match the same
 * texts, and the cut ones do not scan the rest of the text from every position. Not with the g or y flag
 * (where the match's span matters).
 */
const cutEdges = (source: string, flags: string, branches: ReadonlyArray<ReadonlyArray<Item>>): string => {
  if (flags.includes("g") || flags.includes("y")) return source
  type Repeat = Exclude<Item, { readonly kind: "assert" }>
  const cut = (item: Repeat) => (item.min === 0 ? "" : source.slice(item.from, item.atomEnd) + (item.min === 1 ? "" : `{${item.min}}`))
  const open = (item: Item | undefined): item is Repeat => item !== undefined && item.kind !== "assert" && item.min !== item.max
  const rebuilt = branches.map((items) => {
    const parts = items.map((item) => source.slice(item.from, item.to))
    let first = 0
    for (let item = items[first]; open(item); item = items[++first]) {
      parts[first] = cut(item)
      if (item.min > 0) break
    }
    let last = items.length - 1
    for (let item = items[last]; last > first && open(item); item = items[--last]) {
      parts[last] = cut(item)
      if (item.min > 0) break
    }
    return parts.join("")
  })
  const joined = rebuilt.join("|")
  return joined === "" ? "(?:)" : joined
}

const TOO_SLOW =
  "it can backtrack for a very long time in the page on a long text (an open-ended repeat such as .* or \\w+ inside the pattern that can match what comes before or after it, or many overlapping alternatives)"

/**
 * The regex the page may run for this one, or why none: edges cut (cutEdges), then its backtracking must be
 * linear in the text's length (at most PER_CHAR steps a character at n = 1,000 and n = 100,000), so no text,
 * however long, can make it hang the renderer.
 */
export const pageRegex = (source: string, flags: string): { readonly source: string } | { readonly problem: string } => {
  if (source.length > MAX_SOURCE) return { problem: `it is longer than ${MAX_SOURCE} characters` }
  if (flags.includes("v")) return { problem: "the v flag is not supported (use u)" }
  try {
    const written = parse(source, flags)
    for (const items of written) sequence(items, TAIL_END, 1, flags) // refuses nested repeats as written
    const rewritten = cutEdges(source, flags, written)
    const branches = parse(rewritten, flags)
    for (const n of SIZES) {
      const total = branches.reduce((sum, items) => sum + branchCost(items, n, flags), 0)
      if (!(total <= PER_CHAR * n)) return { problem: TOO_SLOW }
    }
    return { source: rewritten }
  } catch (error) {
    if (error instanceof Refusal) return { problem: error.why }
    throw error
  }
}

/** Why a regex the page would run is refused, or undefined when it (edges cut) runs in linear time (see pageRegex). */
export const pageRegexProblem = (source: string, flags: string): string | undefined => {
  const decided = pageRegex(source, flags)
  return "problem" in decided ? decided.problem : undefined
}
