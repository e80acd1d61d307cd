/**
 * Incremental snapshots: what changed between two AI-mode aria snapshots of a window.
 *
 * - added lines (`+`) with their ancestors for context;
 * - changed lines (`~`): an element (same ref) whose line changed, shown once with its new value;
 * - removed lines summed up by subtree and landmark: `- form "Edit task" [ref=e81] (+11 inside)`, or
 *   `- 40 removed from list "Task list" [ref=e30]: listitem ×40 (160 lines)` when many went at once.
 *
 * And the marks of a depth-limited snapshot: a node whose children the depth cut says how many lines it holds.
 */

export const indentOf = (line: string) => line.length - line.trimStart().length
export const refOf = (line: string) => /\[ref=([a-z0-9]+)\]/.exec(line)?.[1]
const roleOf = (line: string) => /^\s*- '?([a-z]+)/.exec(line)?.[1] ?? "text"
export const bare = (line: string, max = 120) => {
  const text = line
    .trim()
    .replace(/^- /, "")
    .replace(/:$/, "")
    .replace(/ \[cursor=pointer\]/g, "")
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

export interface SnapshotDiff {
  readonly text: string
  /** Lines that are new (not counting changed ones). */
  readonly added: number
  /** Lines that are gone (not counting changed ones). */
  readonly removed: number
  /** Elements (same ref) whose line changed. */
  readonly changed: number
}

export const diffCounts = (diff: SnapshotDiff): string => `+${diff.added} -${diff.removed}${diff.changed > 0 ? ` ~${diff.changed}` : ""}`

/** Indices of `lines` that `other` does not hold (as a multiset: a line twice in `lines` and once in `other` leaves one). */
const unmatched = (lines: ReadonlyArray<string>, other: ReadonlyArray<string>): Set<number> => {
  const remaining = new Map<string, number>()
  for (const line of other) remaining.set(line, (remaining.get(line) ?? 0) + 1)
  const out = new Set<number>()
  lines.forEach((line, index) => {
    const count = remaining.get(line) ?? 0
    if (count > 0) remaining.set(line, count - 1)
    else out.add(index)
  })
  return out
}

/** The index of each line's parent (the nearest line above with a smaller indent), -1 at the top. */
const parentsOf = (lines: ReadonlyArray<string>): ReadonlyArray<number> => {
  const stack: Array<number> = []
  return lines.map((line, index) => {
    const indent = indentOf(line)
    while (stack.length > 0 && indentOf(lines[stack[stack.length - 1]!]!) >= indent) stack.pop()
    const parent = stack.length > 0 ? stack[stack.length - 1]! : -1
    stack.push(index)
    return parent
  })
}

/** Playwright's pointer-cursor mark repeats on every button: a diff does without it. */
export const quiet = (line: string) => line.replace(/ \[cursor=pointer\]/g, "")

export const UNNAMED_WRAPPER = /^\s*- generic(?: \[[^\]]*\])*:?$/

/** A line without its ref and focus mark: a page that re-renders the same content under new refs, or moves the focus, has not changed. */
const withoutRef = (line: string) => line.replace(/ \[(?:ref=[a-z0-9]+|active)\]/g, "")
/** What makes a line the same element when its value changed: indent, role and name. */
const identityOf = (line: string) => /^(\s*- '?[a-z]+(?: "(?:[^"\\]|\\.)*")?)/.exec(line)?.[1]

/** Above this many cells the line alignment falls back to multiset matching (positions ignored). */
const MAX_ALIGN_CELLS = 4_000_000

/**
 * The lines of `a` and of `b` outside their longest common subsequence: what was removed and what was
 * added, in place (a line that moved elsewhere counts as both). Common head and tail are skipped first.
 */
const align = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): { readonly removed: Set<number>; readonly added: Set<number> } => {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const n = a.length - head - tail
  const m = b.length - head - tail
  if (n * m > MAX_ALIGN_CELLS) return { removed: unmatched(a, b), added: unmatched(b, a) }
  // lengths[i][j]: LCS of a[head+i..] and b[head+j..], in one flat array.
  const width = m + 1
  const lengths = new Uint32Array((n + 1) * width)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[head + i] === b[head + j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!)
    }
  }
  const removed = new Set<number>()
  const added = new Set<number>()
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (a[head + i] === b[head + j]) {
      i++
      j++
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) removed.add(head + i++)
    else added.add(head + j++)
  }
  while (i < n) removed.add(head + i++)
  while (j < m) added.add(head + j++)
  return { removed, added }
}

/** Roles of rows: a change inside a row is that row's change. */
const ROW_ROLES = new Set(["listitem", "row", "option", "treeitem", "article"])
/** Roles that hold rows: a row is looked for below them only. */
const ROW_HOLDERS = new Set(["list", "table", "grid", "treegrid", "rowgroup", "listbox", "tree", "menu", "feed"])

/**
 * The outermost row (listitem, row, …) holding line `index`, below the nearest list/table/grid; the line
 * itself when no row holds it. The line alignment may match a row's first line with another row's, so
 * a new row can show up as its children only: lifted, it counts (and is shown) as the row.
 */
export const rowOf = (lines: ReadonlyArray<string>, parents: ReadonlyArray<number>, index: number): number => {
  let row = index
  for (let p = parents[index]!; p >= 0 && !ROW_HOLDERS.has(roleOf(lines[p]!)); p = parents[p]!) if (ROW_ROLES.has(roleOf(lines[p]!))) row = p
  return row
}

/**
 * Change roots (`roots`, lines of `lines`) with those inside rows replaced by their rows, where at least
 * `min` rows of one parent changed (many rows at once: a filter, a re-render); a change in one or two rows
 * keeps its own roots (an editor that opened in a row is that editor).
 */
export const liftRows = (lines: ReadonlyArray<string>, parents: ReadonlyArray<number>, roots: ReadonlyArray<number>, min = 4): Array<number> => {
  const lifted = roots.map((root) => rowOf(lines, parents, root))
  const rowsUnder = new Map<number, Set<number>>()
  for (const row of lifted) rowsUnder.set(parents[row]!, (rowsUnder.get(parents[row]!) ?? new Set()).add(row))
  const many = (row: number) => rowsUnder.get(parents[row]!)!.size >= min
  return [...new Set(roots.map((root, i) => (many(lifted[i]!) ? lifted[i]! : root)))].sort((a, b) => a - b)
}

/**
 * The lines as the alignment compares them: without refs, and a row's line (`- listitem [ref=e5]:`, the
 * same for every row) with the first words inside it, so that rows are matched with the same rows.
 */
const alignmentKeys = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  lines.map((line, index) => {
    const key = withoutRef(line)
    if (!ROW_ROLES.has(roleOf(line)) || !line.endsWith(":")) return key
    for (let j = index + 1; j < lines.length && j <= index + 6 && indentOf(lines[j]!) > indentOf(line); j++) {
      if (/"[^"]+"|: \S/.test(lines[j]!) && !/\[aria-hidden\]/.test(lines[j]!)) return `${key} ${withoutRef(lines[j]!).trim()}`
    }
    return key
  })

/** Two snapshots' lines lined up: which of `before` were removed, which of `after` were added or changed. */
export interface Comparison {
  readonly before: ReadonlyArray<string>
  readonly after: ReadonlyArray<string>
  readonly removed: ReadonlySet<number>
  readonly added: ReadonlySet<number>
  readonly changed: ReadonlySet<number>
  /** Each line of `after`'s parent index (-1 at the top). */
  readonly afterParents: ReadonlyArray<number>
  /** Unchanged elements the page re-rendered under new refs. */
  readonly renewed: number
}

export const compareSnapshots = (previous: string, next: string): Comparison => {
  const before = previous.split("\n")
  const after = next.split("\n")
  const aligned = align(alignmentKeys(before), alignmentKeys(after))
  const addedIdx = aligned.added
  const removedIdx = aligned.removed

  // The same element on both sides (same ref, else same role and name at the same depth) with a
  // different line: one change, shown once with its new line.
  const removedBy = new Map<string, number>()
  for (const index of removedIdx) {
    const ref = refOf(before[index]!)
    if (ref !== undefined) removedBy.set(`ref ${ref}`, index)
    const identity = identityOf(before[index]!)
    if (identity !== undefined && !removedBy.has(identity)) removedBy.set(identity, index)
  }
  const changedIdx = new Set<number>()
  for (const index of addedIdx) {
    const ref = refOf(after[index]!)
    const identity = identityOf(after[index]!)
    const key = ref !== undefined && removedBy.has(`ref ${ref}`) ? `ref ${ref}` : identity !== undefined && removedBy.has(identity) ? identity : undefined
    const old = key !== undefined ? removedBy.get(key) : undefined
    if (old !== undefined && removedIdx.has(old)) {
      changedIdx.add(index)
      removedIdx.delete(old)
      removedBy.delete(key!)
    }
  }
  for (const index of changedIdx) addedIdx.delete(index)
  // Unchanged elements the page re-rendered under new refs: their old refs no longer resolve.
  const refsAfter = new Set(after.map(refOf).filter((r) => r !== undefined))
  const renewed = before.filter((line, index) => !removedIdx.has(index) && refOf(line) !== undefined && !refsAfter.has(refOf(line)!)).length
  return { before, after, removed: removedIdx, added: addedIdx, changed: changedIdx, afterParents: parentsOf(after), renewed }
}

/** The removed subtrees, one line each, by the landmark (the surviving parent) they were removed from. */
export const removalLines = (cmp: Comparison, maxShown = 12): ReadonlyArray<string> => {
  const { before, removed: removedIdx } = cmp
  const beforeParents = parentsOf(before)
  const underRemoved = (index: number) => {
    for (let p = beforeParents[index]!; p >= 0; p = beforeParents[p]!) if (removedIdx.has(p)) return true
    return false
  }
  const roots = liftRows(
    before,
    beforeParents,
    [...removedIdx].filter((index) => !underRemoved(index))
  )
  const inside = (root: number) => {
    let count = 0
    for (let j = root + 1; j < before.length && indentOf(before[j]!) > indentOf(before[root]!); j++) if (removedIdx.has(j)) count++
    return count
  }
  // A removed line's landmark: its nearest surviving ancestor that is not an unnamed wrapper.
  const landmarkOf = (index: number) => {
    let p = beforeParents[index]!
    while (p >= 0 && UNNAMED_WRAPPER.test(before[p]!)) p = beforeParents[p]!
    return p
  }
  const groups = new Map<number, Array<number>>()
  for (const root of roots) {
    const parent = landmarkOf(root)
    groups.set(parent, [...(groups.get(parent) ?? []), root])
  }
  const removedLines: Array<string> = []
  for (const [parent, members] of groups) {
    const landmark = parent >= 0 ? bare(before[parent]!) : "the page"
    if (members.length <= 3) {
      for (const root of members) {
        const n = inside(root)
        removedLines.push(`- ${bare(before[root]!)}${n > 0 ? ` (+${n} inside)` : ""}`)
      }
    } else {
      const tally = new Map<string, number>()
      for (const root of members) tally.set(roleOf(before[root]!), (tally.get(roleOf(before[root]!)) ?? 0) + 1)
      const lines = members.reduce((n, root) => n + (removedIdx.has(root) ? 1 : 0) + inside(root), 0)
      const verb = members.every((root) => removedIdx.has(root)) ? "removed from" : "removed or emptied in"
      removedLines.push(`- ${members.length} ${verb} ${landmark}: ${[...tally].map(([role, n]) => `${role} ×${n}`).join(", ")} (${lines} lines)`)
    }
  }
  const out = removedLines.slice(0, maxShown)
  if (removedLines.length > maxShown) out.push(`- … ${removedLines.length - maxShown} more removals`)
  return out
}

export const diffSnapshots = (previous: string, next: string, maxRemovedShown = 12): SnapshotDiff => diffOf(compareSnapshots(previous, next), maxRemovedShown)

/** The diff text of a comparison: added and changed lines with their ancestors, then the removals. */
export const diffOf = (cmp: Comparison, maxRemovedShown = 12): SnapshotDiff => {
  const { after, added: addedIdx, changed: changedIdx, afterParents } = cmp
  // Added and changed lines with their ancestors for context; many rows changed at once are shown whole.
  const shown = new Set<number>([...addedIdx, ...changedIdx])
  const touched = [...shown].filter((index) => !(afterParents[index]! >= 0 && shown.has(afterParents[index]!)))
  const lifted = new Set(liftRows(after, afterParents, touched))
  for (const row of new Set(touched.map((index) => rowOf(after, afterParents, index)).filter((row) => lifted.has(row) && ROW_ROLES.has(roleOf(after[row]!))))) {
    for (let j = row; j === row || (j < after.length && indentOf(after[j]!) > indentOf(after[row]!)); j++) shown.add(j)
  }
  for (const index of [...shown]) {
    for (let p = afterParents[index]!; p >= 0 && !shown.has(p); p = afterParents[p]!) shown.add(p)
  }
  const out: Array<string> = []
  for (const index of [...shown].sort((a, b) => a - b)) {
    const mark = addedIdx.has(index) ? "+" : changedIdx.has(index) ? "~" : " "
    // Unnamed wrappers say nothing as context: the named ancestors place the change.
    if (mark === " " && UNNAMED_WRAPPER.test(after[index]!)) continue
    out.push(`${mark} ${quiet(after[index]!)}`)
  }
  out.push(...removalLines(cmp, maxRemovedShown))
  if (cmp.renewed > 0) out.push(`(${cmp.renewed} unchanged elements were re-rendered with new refs)`)
  return { text: out.join("\n"), added: addedIdx.size, removed: cmp.removed.size, changed: changedIdx.size }
}

/**
 * A depth-limited snapshot (`limited`) with each node whose children the depth cut marked with the
 * number of lines under it in the whole snapshot (`full`, which holds the same refs).
 */
export const markCutSubtrees = (limited: string, full: string): string => {
  const fullLines = full.split("\n")
  const sizeByRef = new Map<string, number>()
  fullLines.forEach((line, index) => {
    const ref = refOf(line)
    if (ref === undefined) return
    let n = 0
    for (let j = index + 1; j < fullLines.length && indentOf(fullLines[j]!) > indentOf(line); j++) n++
    if (n > 0) sizeByRef.set(ref, n)
  })
  const lines = limited.split("\n")
  return lines
    .map((line, index) => {
      const ref = refOf(line)
      const size = ref !== undefined ? sizeByRef.get(ref) : undefined
      if (size === undefined) return line
      const next = lines[index + 1]
      const hasChildren = next !== undefined && indentOf(next) > indentOf(line)
      return hasChildren ? line : `${line.replace(/:$/, "")} (${size} lines cut by depth)`
    })
    .join("\n")
}
