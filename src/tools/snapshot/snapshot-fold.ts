/**
 * Folding repeated rows of an AI-mode aria snapshot: where a node has many sibling rows of one role (a
 * list's items, a table's or grid's rows, a listbox's options), the answer shows the first row in full and
 * folds the others into one block that says how many there are, the ref range `expand` takes to show them
 * and, ten rows a line, each row's label with the refs of every element in it an agent can act on:
 *
 *     - listitem ×41 more like the one above, folded (expand: "e76-e414" shows them); refs of checkbox "Done: …", button "Edit …", button "Delete …" in each:
 *       Prepare Q3 budget review e78 e83 e84; Book dentist appointment e87 e91 e92; …
 *
 * Folding is text only: the driver records the whole snapshot, so the ref of a folded button stays valid
 * for electron_click and every other tool. A row that holds the focus, or whose elements differ from the
 * other rows (an open inline editor), is shown in full where it is.
 */

/** A parent with at least this many sibling rows of one role has them folded. */
export const FOLD_MIN_ROWS = 8
/** How many rows of a folded run are shown in full, as samples of what the folded ones hold. */
export const FOLD_SAMPLE_ROWS = 1
/** A row label is cut to this many characters. */
const MAX_LABEL = 40
/** Folded rows listed on one line of the block. */
const ROWS_A_LINE = 10

/** The roles of rows: a run of siblings of one of these folds (sections, headings or toolbars' buttons do not). */
const ROW_ROLES = new Set(["listitem", "row", "option", "treeitem", "article", "menuitem", "menuitemcheckbox", "menuitemradio", "generic"])

/** The roles of elements an agent acts on: a folded row lists their refs. */
const ACTIONABLE = new Set([
  "button",
  "link",
  "checkbox",
  "radio",
  "switch",
  "textbox",
  "searchbox",
  "combobox",
  "listbox",
  "slider",
  "spinbutton",
  "menuitem",
  "menuitemcheckbox",
  "menuitemradio",
  "tab",
  "option",
  "treeitem"
])

interface LineInfo {
  readonly role: string
  readonly name: string | undefined
  readonly ref: string | undefined
  /** The text after the key (`- generic [ref=e8]: "Theme: light"` → Theme: light). */
  readonly value: string | undefined
  readonly hidden: boolean
}

interface Node {
  readonly line: string
  /** A diff's mark of the line ("+ ", "~ ", "  "); "" in a snapshot. */
  readonly mark: string
  readonly indent: number
  readonly info: LineInfo
  readonly children: Array<Node>
}

const unquote = (text: string): string => {
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text) as string
    } catch {
      return text
    }
  }
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2) return text.slice(1, -1).replace(/''/g, "'")
  return text
}

/** What one snapshot line says: role, name, ref, text value. */
export const lineInfo = (line: string): LineInfo => {
  let rest = line.trimStart().replace(/^- /, "")
  let value: string | undefined
  if (rest.startsWith("'")) {
    // A key YAML had to quote: 'checkbox "Done: A" [ref=e3]' or 'button "#1" [ref=e4]': Edit
    let end = 1
    while (end < rest.length && !(rest[end] === "'" && rest[end + 1] !== "'")) end += rest[end] === "'" ? 2 : 1
    const after = rest.slice(end + 1)
    value = after.startsWith(": ") ? unquote(after.slice(2)) : undefined
    rest = rest.slice(1, end).replace(/''/g, "'")
  } else {
    const colon = /:(?:\s(.*))?$/.exec(rest.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => "\u0001".repeat(quoted.length)))
    if (colon !== null) {
      value = colon[1] !== undefined && colon[1] !== "" ? unquote(rest.slice(colon.index + 2)) : undefined
      rest = rest.slice(0, colon.index)
    }
  }
  const head = /^([a-z/]+)(?: "((?:[^"\\]|\\.)*)")?/.exec(rest)
  const role = head?.[1] ?? "text"
  let name: string | undefined
  if (head?.[2] !== undefined) name = unquote(`"${head[2]}"`)
  return { role, name, ref: /\[ref=([a-z0-9]+)\]/.exec(rest)?.[1], value, hidden: /\[aria-hidden\]/.test(rest) }
}

const parse = (lines: ReadonlyArray<string>, marked: boolean): Array<Node> => {
  const roots: Array<Node> = []
  const stack: Array<Node> = []
  for (const line of lines) {
    if (line.trim() === "") continue
    const mark = marked ? line.slice(0, 2) : ""
    const body = line.slice(mark.length)
    const node: Node = { line, mark, indent: body.length - body.trimStart().length, info: lineInfo(body), children: [] }
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= node.indent) stack.pop()
    ;(stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(node)
    stack.push(node)
  }
  return roots
}

const walk = function* (node: Node): Generator<Node> {
  yield node
  for (const child of node.children) yield* walk(child)
}

const actionables = (row: Node): Array<Node> => [...walk(row)].filter((n) => n !== row && n.info.ref !== undefined && ACTIONABLE.has(n.info.role))
const shapeOf = (row: Node): string =>
  `${row.info.role}|${(ACTIONABLE.has(row.info.role) ? [row, ...actionables(row)] : actionables(row)).map((n) => n.info.role).join(",")}`
const refNumber = (ref: string): { prefix: string; n: number } | undefined => {
  const m = /^(f\d+e|e)(\d+)$/.exec(ref)
  return m === null ? undefined : { prefix: m[1]!, n: Number(m[2]) }
}

/** Of a name, this much is searched for the part a row's names share (labels are cut shorter anyway). */
const MAX_SEARCHED = 120

/**
 * The longest run of whole words all the names share, or "" (shorter than 3 characters). Only word
 * boundaries of the shortest name's first MAX_SEARCHED characters are tried: bounded work on any page.
 */
const commonPart = (names: ReadonlyArray<string>): string => {
  if (names.length < 2) return ""
  const [first, ...others] = [...names].map((n) => n.slice(0, MAX_SEARCHED)).sort((a, b) => a.length - b.length)
  const starts = [0, ...Array.from(first!.matchAll(/\s+/g), (m) => m.index + m[0].length)]
  const ends = [...Array.from(first!.matchAll(/\s+/g), (m) => m.index), first!.length]
  let best = ""
  for (const i of starts) {
    for (const j of [...ends].reverse()) {
      if (j - i <= best.length) break
      const part = first!.slice(i, j)
      if (others.every((o) => o.includes(part))) {
        best = part
        break
      }
    }
  }
  const trimmed = trimSeparators(best)
  return trimmed.length >= 3 ? trimmed : ""
}

/** `text` without the spaces and separators (`:`, `·`, `,`, `-`) at its ends; a loop, linear however long the text. */
const trimSeparators = (text: string): string => {
  const separator = (c: string | undefined) => c !== undefined && /[\s:·,-]/.test(c)
  let start = 0
  let end = text.length
  while (start < end && separator(text[start])) start++
  while (end > start && separator(text[end - 1])) end--
  return text.slice(start, end)
}

const cutLabel = (text: string) => (text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text)

/** What names a row: the part its elements' names share ("Renew passport"), else its name or first text. */
const rowLabel = (row: Node, acts: ReadonlyArray<Node>): string => {
  const common = commonPart(
    acts
      .slice(0, 8)
      .map((n) => n.info.name ?? "")
      .filter((n) => n !== "")
  )
  if (common !== "") return cutLabel(common)
  for (const node of walk(row)) {
    if (node.info.hidden || node.info.role.startsWith("/")) continue
    const text = node.info.name ?? node.info.value
    if (text !== undefined && text.trim() !== "") return cutLabel(text.trim())
  }
  return ""
}

/** Rows as a fold lists them: the columns' headings, and one "label ref ref ref" entry a row. */
export interface RowListing {
  readonly columns: ReadonlyArray<string>
  readonly entries: ReadonlyArray<string>
}

const rowListing = (rows: ReadonlyArray<Node>): RowListing => {
  const acts = rows.map((row) => (ACTIONABLE.has(row.info.role) ? [row, ...actionables(row)] : actionables(row)))
  const labels = rows.map((row, index) => rowLabel(row, acts[index]!))
  const sameRoles = new Set(acts.map((list) => list.map((n) => n.info.role).join(","))).size === 1
  // A column's heading: its role, and its name with the row's label as "…" when that is the same in every row.
  const columns = !sameRoles
    ? acts.some((list) => list.length > 0)
      ? ["its controls"]
      : []
    : acts[0]!.map((sample, c) => {
        const names = new Set(acts.map((list, r) => (list[c]!.info.name ?? "").replace(labels[r]!.replace(/…$/, ""), "…")))
        const only = names.size === 1 ? [...names][0]! : ""
        return only !== "" ? `${sample.info.role} "${only}"` : sample.info.role
      })
  // "label ref ref ref" a row: the fewest tokens that still say which ref is which.
  const entries = rows.map((row, r) => [labels[r] !== "" ? labels[r]! : (row.info.ref ?? row.info.role), ...acts[r]!.map((n) => n.info.ref)].join(" "))
  return { columns, entries }
}

/** The rows of `text` (each top-level line a row, a diff's marks first when `marked`) as a fold lists them. */
export const listRows = (text: string, marked = false): RowListing => rowListing(parse(text.split("\n"), marked))

/** Which refs `expand` names: "e40-e60", "e66" (a folded parent: all its rows), several with commas. */
export interface Expansion {
  /** Whether a row holding this ref is shown in full. */
  readonly row: (ref: string) => boolean
  /** Whether every row of the parent with this ref is shown in full. */
  readonly parent: (ref: string) => boolean
}

export const parseExpand = (expand: string | undefined): Expansion | string => {
  if (expand === undefined || expand.trim() === "") return { row: () => false, parent: () => false }
  const ranges: Array<{ prefix: string; from: number; to: number }> = []
  const singles = new Set<string>()
  for (const part of expand
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const m = /^([a-z0-9]+)\s*(?:-|–|\.\.)\s*([a-z0-9]+)$/.exec(part)
    const from = refNumber(m?.[1] ?? part)
    const to = m !== null ? refNumber(m[2]!) : from
    if (from === undefined || to === undefined || from.prefix !== to.prefix) return `"${part}" is not a ref or a ref range like e40-e60`
    if (m === null) singles.add(part)
    ranges.push({ prefix: from.prefix, from: Math.min(from.n, to.n), to: Math.max(from.n, to.n) })
  }
  return {
    row: (ref) => {
      const r = refNumber(ref)
      return r !== undefined && ranges.some((range) => range.prefix === r.prefix && r.n >= range.from && r.n <= range.to)
    },
    parent: (ref) => singles.has(ref)
  }
}

export interface FoldOptions {
  readonly expand?: Expansion
  readonly minRows?: number
  readonly sampleRows?: number
  /** The text is a diff: each line starts with a two-character mark ("+ ", "~ ", "  "). */
  readonly marked?: boolean
}

export interface Folded {
  readonly text: string
  /** How many rows were folded (0: the text is the snapshot as it was). */
  readonly foldedRows: number
  /** The folded blocks: the parent's ref, how many rows, and the ref range `expand` takes. */
  readonly folds: ReadonlyArray<{ readonly parent: string | undefined; readonly rows: number; readonly range: string }>
}

/** The snapshot with long runs of same-role sibling rows folded (see the module comment). */
export const foldSnapshot = (snapshot: string, options: FoldOptions = {}): Folded => {
  const expand = options.expand ?? { row: () => false, parent: () => false }
  const minRows = options.minRows ?? FOLD_MIN_ROWS
  const samples = options.sampleRows ?? FOLD_SAMPLE_ROWS
  const out: Array<string> = []
  const folds: Array<{ parent: string | undefined; rows: number; range: string }> = []
  let foldedRows = 0

  const render = (node: Node) => {
    out.push(node.line)
    renderChildren(node.children, node.info.ref)
  }
  const renderChildren = (children: ReadonlyArray<Node>, parentRef: string | undefined) => {
    let i = 0
    while (i < children.length) {
      let j = i + 1
      while (j < children.length && children[j]!.info.role === children[i]!.info.role && children[j]!.indent === children[i]!.indent) j++
      const run = children.slice(i, j)
      if (run.length >= minRows && ROW_ROLES.has(run[0]!.info.role) && run[0]!.info.ref !== undefined && !(parentRef !== undefined && expand.parent(parentRef)))
        renderRun(run, parentRef)
      else run.forEach(render)
      i = j
    }
  }
  const renderRun = (run: ReadonlyArray<Node>, parentRef: string | undefined) => {
    const shapes = new Map<string, number>()
    for (const row of run) shapes.set(shapeOf(row), (shapes.get(shapeOf(row)) ?? 0) + 1)
    const common = [...shapes].sort((a, b) => b[1] - a[1])[0]![0]
    // A row is shown in full when it is a sample, holds the focus, is expanded or holds other elements.
    const shown = run.map((row, index) => {
      const nodes = [...walk(row)]
      return index < samples || shapeOf(row) !== common || nodes.some((n) => /\[active\]/.test(n.line) || (n.info.ref !== undefined && expand.row(n.info.ref)))
    })
    let k = 0
    while (k < run.length) {
      if (shown[k]) {
        render(run[k]!)
        k++
        continue
      }
      let end = k
      while (end < run.length && !shown[end]) end++
      const segment = run.slice(k, end)
      if (segment.length < 3) segment.forEach(render)
      else foldBlock(segment, k > 0, parentRef)
      k = end
    }
  }
  const foldBlock = (rows: ReadonlyArray<Node>, afterShown: boolean, parentRef: string | undefined) => {
    const first = rows[0]!
    // In a diff the block is marked as its most telling line: added, else changed, else context.
    const marks = new Set(rows.flatMap((row) => [...walk(row)].map((n) => n.mark)))
    const pad = (marks.has("+ ") ? "+ " : marks.has("~ ") ? "~ " : first.mark) + " ".repeat(first.indent)
    const refs = rows.flatMap((row) => [...walk(row)].map((n) => n.info.ref).filter((r): r is string => r !== undefined))
    const numbered = refs.map((r) => ({ r, n: refNumber(r) })).filter((x) => x.n !== undefined)
    // Rows without refs have nothing to expand by: shown as they are.
    if (numbered.length === 0) return rows.forEach(render)
    const low = numbered.reduce((a, b) => (b.n!.n < a.n!.n ? b : a)).r
    const high = numbered.reduce((a, b) => (b.n!.n > a.n!.n ? b : a)).r
    const range = `${low}-${high}`
    const { columns, entries } = rowListing(rows)
    const like = afterShown ? ` like the one${samples > 1 ? "s" : ""} above` : ""
    const head = `${pad}- ${first.info.role} ×${rows.length}${afterShown ? " more" : ""}${like}, folded (expand: "${range}" shows them)`
    if (columns.length === 0) out.push(head)
    else {
      out.push(`${head}; refs of ${columns.join(", ")} in each:`)
      for (let at = 0; at < entries.length; at += ROWS_A_LINE) out.push(`${pad}  ${entries.slice(at, at + ROWS_A_LINE).join("; ")}`)
    }
    folds.push({ parent: parentRef, rows: rows.length, range })
    foldedRows += rows.length
  }

  const lines = snapshot.split("\n")
  for (const node of parse(lines, options.marked === true)) render(node)
  return foldedRows === 0 ? { text: snapshot, foldedRows: 0, folds: [] } : { text: out.join("\n"), foldedRows, folds }
}
