/**
 * What an agent is shown of a snapshot: compacted (unnamed wrappers, pointer marks and the refs of plain
 * text dropped), long runs of rows folded (./snapshot-fold.ts) and cut to a token budget with a marker that
 * says where it cut and how to see the rest. The driver keeps the whole snapshot: every ref stays valid.
 *
 * Tokens are estimated as characters / 4 (the runtime has no tokenizer; src/bench/snapshot-size.ts measures
 * real BPE counts).
 */
import { foldSnapshot, lineInfo, type Expansion, type Folded } from "./snapshot-fold.js"

/** A budget's characters: tokens are estimated as characters / 4. */
export const CHARS_PER_TOKEN = 4
export const approxTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN)

/** Plain-text roles: in a compact snapshot a leaf of these shows its text without its ref (the ref stays valid). */
const TEXT_ROLES = new Set([
  "generic",
  "paragraph",
  "strong",
  "emphasis",
  "text",
  "term",
  "definition",
  "code",
  "time",
  "mark",
  "subscript",
  "superscript",
  "deletion",
  "insertion",
  "caption",
  "blockquote",
  "listitem",
  "cell",
  "note",
  "heading"
])

const CUT_BY_DEPTH = / \(\d+ lines cut by depth\)$/

/**
 * A combobox line with its ref whose option rows follow (`- combobox "Priority" [ref=e5]:`). Its name is the app's:
 * the ref is looked for from its last `[ref=`, not by a pattern that backtracks over the name from every `[ref=` in it.
 */
const comboboxWithRows = (line: string): boolean =>
  line.endsWith(":") && /^\s*- combobox /.test(line) && /^\[ref=[a-z0-9]+\][^:]*:$/.test(line.slice(line.lastIndexOf("[ref=")))

/**
 * Drops unnamed `generic` wrappers (their children move up a level), Playwright's pointer-cursor marks and
 * the refs of plain-text leaves nobody clicks (no pointer cursor, no focus): the refs an agent acts on, and
 * the containers it may scope a snapshot to, in far fewer tokens.
 */
export const compactSnapshot = (snapshot: string): string => {
  const lines = snapshot.split("\n")
  const indentOf = (line: string) => line.length - line.trimStart().length
  const keyed = (line: string | undefined) => line !== undefined && /^\s*- '?[a-z]/.test(line)
  // First the wrappers go (their children move up a level), then the leaves are looked at where they now sit.
  const unwrapped: Array<string> = []
  const dropped: Array<number> = [] // indents of dropped wrappers, innermost last
  for (const line of lines) {
    const indent = indentOf(line)
    while (dropped.length > 0 && indent <= dropped[dropped.length - 1]!) dropped.pop()
    if (/^\s*- generic(?: \[[^\]]*\])*:$/.test(line) && !/\[active\]/.test(line)) dropped.push(indent)
    else unwrapped.push(" ".repeat(Math.max(0, indent - 2 * dropped.length)) + line.trimStart())
  }
  const indents = unwrapped.map(indentOf)
  const leaf = (index: number) => index + 1 >= unwrapped.length || indents[index + 1]! <= indents[index]!
  // The nearest line at the same depth before or after (the field a label names sits right beside it).
  const sibling = (index: number, step: 1 | -1) => {
    for (let j = index + step; j >= 0 && j < unwrapped.length; j += step) {
      if (indents[j]! < indents[index]!) return undefined
      if (indents[j] === indents[index]) return unwrapped[j]
    }
    return undefined
  }
  const out: Array<string> = []
  for (let index = 0; index < unwrapped.length; index++) {
    const line = unwrapped[index]!
    // A description list's term and its definition, both plain leaves: one line, "Term: definition".
    const term = /^(\s*)- term(?: \[ref=[a-z0-9]+\])?: (.*)$/.exec(line)
    const definition = term !== null && leaf(index) ? /^(\s*)- definition(?: \[ref=[a-z0-9]+\])?: (.*)$/.exec(unwrapped[index + 1] ?? "") : null
    if (term !== null && definition !== null && definition[1] === term[1] && leaf(index + 1)) {
      out.push(`${term[1]}- ${term[2]}: ${definition[2]}`)
      index++
      continue
    }
    // A select's options without refs: on its own line, "options "Low", "Medium" [selected]".
    if (comboboxWithRows(line)) {
      let end = index + 1
      while (
        end < unwrapped.length &&
        indents[end]! > indents[index]! &&
        indents[end] === indents[index]! + 2 &&
        /^\s*- option "(?:[^"\\]|\\.)*"(?: \[(?:selected|disabled)\])*$/.test(unwrapped[end]!)
      )
        end++
      if (end > index + 1 && (end >= unwrapped.length || indents[end]! <= indents[index]!)) {
        out.push(
          `${line} options ${unwrapped
            .slice(index + 1, end)
            .map((o) => o.trim().replace(/^- option /, ""))
            .join(", ")}`
        )
        index = end - 1
        continue
      }
    }
    let shown = line
    const info = keyed(line) ? lineInfo(line) : undefined
    // A node whose children the depth cut (./snapshot-diff.ts markCutSubtrees) keeps its line, ref and mark: it is where to look next.
    if (info !== undefined && leaf(index) && !/\[(?:cursor=pointer|active)\]/.test(line) && !CUT_BY_DEPTH.test(line) && TEXT_ROLES.has(info.role)) {
      // Nothing to read (an empty paragraph, a hidden icon) or the name of the field beside it (its label): left out.
      const text = info.name ?? info.value
      if (text === undefined || info.hidden) continue
      const names = (other: string | undefined) => keyed(other) && lineInfo(other!).name === text && lineInfo(other!).ref !== undefined
      if ((info.role === "generic" || info.role === "text") && info.name === undefined && (names(sibling(index, 1)) || names(sibling(index, -1)))) continue
      shown = shown.replace(/ \[ref=[a-z0-9]+\]/, "")
    }
    out.push(shown.replace(/ \[cursor=pointer\]/g, ""))
  }
  return out.join("\n")
}

export interface BudgetCut {
  readonly text: string
  /** Whether the budget cut the text. */
  readonly cut: boolean
  readonly shownLines: number
  readonly totalLines: number
  /** The refs of the biggest subtrees left out (what `target` can take to see one). */
  readonly rest: ReadonlyArray<string>
}

/**
 * `text` (one element a line, indented as a tree) cut at a line so that it and the marker fit in
 * `budget` tokens; the marker names the left-out subtrees' refs and says how to see them (`how`).
 * `keepLines` leading lines (a header) are never cut.
 */
export const cutToBudget = (text: string, budget: number | undefined, how: string, keepLines = 0): BudgetCut => {
  const lines = text.split("\n")
  const whole = { text, cut: false, shownLines: lines.length, totalLines: lines.length, rest: [] }
  if (budget === undefined || text.length <= budget * CHARS_PER_TOKEN) return whole
  const markerRoom = 400
  const limit = Math.max(0, budget * CHARS_PER_TOKEN - markerRoom)
  let used = 0
  let shown = 0
  while (shown < lines.length && (shown < keepLines || used + lines[shown]!.length + 1 <= limit)) used += lines[shown++]!.length + 1
  // The roots of what is left out: left-out lines whose parent was shown (or that have none).
  const indentOf = (line: string) => line.length - line.trimStart().length
  const rest: Array<string> = []
  let floor = Infinity
  for (let i = shown; i < lines.length; i++) {
    const indent = indentOf(lines[i]!)
    if (indent > floor) continue
    floor = indent
    const info = lineInfo(lines[i]!.replace(/^[+~ ] (?=\s*- )/, ""))
    if (info.ref !== undefined) rest.push(`${info.role}${info.name !== undefined ? ` ${JSON.stringify(info.name)}` : ""} ${info.ref}`)
  }
  const left = lines.length - shown
  const restTokens = approxTokens(lines.slice(shown).join("\n"))
  const named = rest.slice(0, 6)
  const marker =
    `… cut at the budget of ${budget} tokens: ${left} more line${left === 1 ? "" : "s"} (~${restTokens} tokens)` +
    (named.length > 0 ? `, from ${named.join(", ")}${rest.length > named.length ? ` and ${rest.length - named.length} more` : ""}` : "") +
    `; ${how}.`
  return { text: [...lines.slice(0, shown), marker].join("\n"), cut: true, shownLines: shown, totalLines: lines.length, rest }
}

/** The first of `lines` that fit in `budget` tokens after `heading`, with room left for a marker. */
export const withinBudget = (heading: string, lines: ReadonlyArray<string>, budget: number | undefined): ReadonlyArray<string> => {
  const total = lines.reduce((n, line) => n + 1 + line.length, heading.length)
  if (budget === undefined || total <= budget * CHARS_PER_TOKEN) return lines
  const limit = budget * CHARS_PER_TOKEN - 160
  let used = heading.length
  let n = 0
  while (n < lines.length && used + 1 + lines[n]!.length <= limit) used += 1 + lines[n++]!.length
  return lines.slice(0, n)
}

export interface ViewOptions {
  readonly compact?: boolean
  /** false: every row as it is (no folding). */
  readonly fold?: boolean
  readonly expand?: Expansion
  readonly budget?: number
}

export interface SnapshotView {
  readonly text: string
  readonly folded: Folded
  readonly cut: BudgetCut
}

/** How to see what a budget left out of a snapshot. */
export const SNAPSHOT_REST = "pass target: one of those refs, or a larger budget"

/** A snapshot (after its header line, if `header` is given) as an agent is shown it. */
export const viewSnapshot = (body: string, options: ViewOptions, header?: string): SnapshotView => {
  const shaped = options.compact === true ? compactSnapshot(body) : body
  const folded =
    options.fold === false ? { text: shaped, foldedRows: 0, folds: [] } : foldSnapshot(shaped, options.expand !== undefined ? { expand: options.expand } : {})
  const full = header !== undefined ? `${header}\n${folded.text}` : folded.text
  const cut = cutToBudget(full, options.budget, SNAPSHOT_REST, header !== undefined ? 1 : 0)
  return { text: cut.text, folded, cut }
}

/** How to see what a budget left out of a diff. */
export const DIFF_REST = "electron_snapshot (folded) shows the whole page, target: a ref scopes it"

/** A diff (electron_snapshot since="last") as an agent is shown it: its added rows folded, cut to the budget. */
export const viewDiff = (diff: string, options: Pick<ViewOptions, "fold" | "expand" | "budget">): SnapshotView => {
  const folded =
    options.fold === false
      ? { text: diff, foldedRows: 0, folds: [] }
      : foldSnapshot(diff, { marked: true, ...(options.expand !== undefined ? { expand: options.expand } : {}) })
  const cut = cutToBudget(folded.text, options.budget, DIFF_REST)
  return { text: cut.text, folded, cut }
}
