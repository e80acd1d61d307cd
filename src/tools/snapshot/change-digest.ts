/**
 * A change too big to show line by line, summed up for an action's answer: each added subtree by the
 * landmark it went into and how many lines it holds, the refs an agent most likely acts on next (the
 * focused element, the fields and buttons of a new dialog or form first), changed lines and removals —
 * cut to a bound that is never more than a follow-up snapshot would cost.
 *
 *     + dialog "Edit task" [ref=e81] (14 lines) in main [ref=e22]: textbox "Task title" e83 (focused), button "Save" e90, …
 *     + 40 added to list "Task list" [ref=e66]: listitem ×40 (280 lines); refs: checkbox "Done: Renew passport" e69, …
 */
import { bare, type Comparison, indentOf, liftRows, quiet, refOf, removalLines, UNNAMED_WRAPPER } from "./snapshot-diff.js"
import { lineInfo, listRows } from "./snapshot-fold.js"

/** How many refs an added subtree's line names, and how many the whole digest names. */
const REFS_A_GROUP = 6
const REFS_IN_ALL = 16
/** How many changed lines are shown before "… N more changed". */
const CHANGED_SHOWN = 6

const FIELDS = new Set(["textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider", "spinbutton"])
const ACTS = new Set([...FIELDS, "button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "option", "treeitem"])
const CONTAINERS = new Set(["dialog", "alertdialog", "form"])

/** Lower first: the order in which an agent most likely acts on an added element. */
const priority = (line: string, inContainer: boolean): number =>
  /\[active\]/.test(line) ? 0 : (inContainer ? 0 : 2) + (FIELDS.has(lineInfo(line).role) ? 1 : lineInfo(line).role === "button" ? 2 : 3)

const refName = (line: string): string => {
  const info = lineInfo(line)
  const name = info.name !== undefined ? ` ${JSON.stringify(info.name.length > 40 ? `${info.name.slice(0, 39)}…` : info.name)}` : ""
  return `${info.role}${name} ${info.ref}${/\[active\]/.test(line) ? " (focused)" : ""}`
}

/**
 * The digest of a comparison (see the module comment), at most `maxChars` characters; `how` says where
 * the whole change is (the last line when the bound cut it).
 */
export const digestChanges = (cmp: Comparison, maxChars: number, how: string): string => {
  const { after, added, changed, afterParents } = cmp
  const role = (index: number) => lineInfo(after[index]!).role
  const subtree = (root: number) => {
    const out = [root]
    for (let j = root + 1; j < after.length && indentOf(after[j]!) > indentOf(after[root]!); j++) if (added.has(j)) out.push(j)
    return out
  }
  // The added subtrees' roots; an added unnamed wrapper stands for its children (the landmarks are in them).
  const open = (index: number): Array<number> =>
    UNNAMED_WRAPPER.test(after[index]!)
      ? subtree(index)
          .filter((j) => afterParents[j] === index)
          .flatMap(open)
      : [index]
  // A change inside many rows is those rows' (the alignment may have matched their first lines elsewhere).
  const roots = liftRows(after, afterParents, [...added].filter((index) => !(afterParents[index]! >= 0 && added.has(afterParents[index]!))).flatMap(open))
  const whole = (root: number) => {
    let end = root + 1
    while (end < after.length && indentOf(after[end]!) > indentOf(after[root]!)) end++
    return after.slice(root, end)
  }
  const landmarkOf = (index: number) => {
    let p = afterParents[index]!
    while (p >= 0 && UNNAMED_WRAPPER.test(after[p]!)) p = afterParents[p]!
    return p
  }
  const groups = new Map<number, Array<number>>()
  for (const root of roots) groups.set(landmarkOf(root), [...(groups.get(landmarkOf(root)) ?? []), root])
  // Inside a new dialog or form: its fields and buttons come first.
  const inContainer = (index: number, root: number) => {
    for (let p = index; p >= 0; p = afterParents[p]!) {
      if (CONTAINERS.has(role(p))) return true
      if (p === root) return false
    }
    return false
  }

  // Changes and removals first: the added subtrees get the room they leave.
  const changedLines = [...changed].sort((a, b) => a - b)
  const tail = [
    ...changedLines.slice(0, CHANGED_SHOWN).map((i) => `~ ${bare(quiet(after[i]!))}`),
    ...(changedLines.length > CHANGED_SHOWN ? [`~ … ${changedLines.length - CHANGED_SHOWN} more changed`] : []),
    ...removalLines(cmp, 6),
    ...(cmp.renewed > 0 ? [`(${cmp.renewed} unchanged elements were re-rendered with new refs)`] : [])
  ]
  let room = maxChars - tail.reduce((n, line) => n + line.length + 1, 0) - how.length - 3
  const lines: Array<string> = []
  let refsLeft = REFS_IN_ALL
  const refsOf = (members: ReadonlyArray<number>): string => {
    const candidates = members.flatMap((root) =>
      subtree(root)
        .filter((i) => refOf(after[i]!) !== undefined && (ACTS.has(role(i)) || /\[active\]/.test(after[i]!)))
        .map((i) => ({ i, rank: priority(after[i]!, inContainer(i, root)) }))
    )
    const picked = [...candidates].sort((a, b) => a.rank - b.rank || a.i - b.i).slice(0, Math.min(REFS_A_GROUP, refsLeft))
    refsLeft -= picked.length
    if (picked.length === 0) return ""
    const more = candidates.length - picked.length
    return `; refs: ${picked
      .sort((a, b) => a.i - b.i)
      .map((c) => refName(after[c.i]!))
      .join(", ")}${more > 0 ? `, +${more} more` : ""}`
  }
  for (const [parent, members] of groups) {
    const from = lines.length
    const landmark = parent >= 0 ? bare(quiet(after[parent]!)) : "the page"
    if (members.length <= 3) {
      for (const root of members) {
        const n = subtree(root).length
        lines.push(`+ ${bare(quiet(after[root]!))}${n > 1 ? ` (${n} lines)` : ""} in ${landmark}${refsOf([root])}`)
      }
    } else {
      const tally = new Map<string, number>()
      for (const root of members) tally.set(role(root), (tally.get(role(root)) ?? 0) + 1)
      const size = members.reduce((n, root) => n + subtree(root).length, 0)
      const verb = members.every((root) => added.has(root)) ? "added to" : "new or changed in"
      const head = `+ ${members.length} ${verb} ${landmark}: ${[...tally].map(([r, n]) => `${r} ×${n}`).join(", ")} (${size} lines)`
      // Rows of one role: listed as a fold lists them (label and refs a row), as many as there is room for.
      const rows = tally.size === 1 ? listRows(members.map((root) => whole(root).join("\n")).join("\n")) : undefined
      if (rows !== undefined && rows.columns.length > 0) {
        let line = `${head}; refs of ${rows.columns.join(", ")} in each:`
        let listed = 0
        for (const [k, entry] of rows.entries.entries()) {
          const left = rows.entries.length - k - 1
          if (line.length + 2 + entry.length + (left > 0 ? ` …, +${left} more rows`.length : 0) > room) break
          line += `${listed === 0 ? " " : "; "}${entry}`
          listed++
        }
        if (listed < rows.entries.length) line += ` …, +${rows.entries.length - listed} more rows`
        lines.push(line)
      } else lines.push(`${head}${refsOf(members)}`)
    }
    room -= lines.slice(from).reduce((n, line) => n + line.length + 1, 0)
  }
  lines.push(...tail)
  // Bounded: whole lines while they fit, then where to see the rest.
  const marker = `… ${how}`
  const out: Array<string> = []
  let used = 0
  for (const [k, line] of lines.entries()) {
    const last = k === lines.length - 1
    if (used + line.length + 1 > maxChars - (last ? 0 : marker.length + 1)) {
      out.push(marker)
      break
    }
    out.push(line)
    used += line.length + 1
  }
  return out.join("\n")
}
