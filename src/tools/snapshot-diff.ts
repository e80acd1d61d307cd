/**
 * Incremental snapshots: what changed between two AI-mode aria snapshots of a window, as the added or
 * changed lines with their ancestors for context, and the removed lines.
 */

const indentOf = (line: string) => line.length - line.trimStart().length

export interface SnapshotDiff {
  readonly text: string
  readonly added: number
  readonly removed: number
}

export const diffSnapshots = (previous: string, next: string, maxRemovedShown = 12): SnapshotDiff => {
  const before = new Map<string, number>()
  for (const line of previous.split("\n")) before.set(line, (before.get(line) ?? 0) + 1)
  const lines = next.split("\n")
  const remaining = new Map(before)
  const changed = new Set<number>()
  lines.forEach((line, index) => {
    const count = remaining.get(line) ?? 0
    if (count > 0) remaining.set(line, count - 1)
    else changed.add(index)
  })
  // Include each changed line's ancestors so the agent sees where it sits.
  const shown = new Set<number>(changed)
  for (const index of changed) {
    let indent = indentOf(lines[index]!)
    for (let j = index - 1; j >= 0 && indent > 0; j--) {
      const own = indentOf(lines[j]!)
      if (own < indent) {
        shown.add(j)
        indent = own
      }
    }
  }
  const out: Array<string> = []
  for (const index of [...shown].sort((a, b) => a - b)) out.push(`${changed.has(index) ? "+" : " "} ${lines[index]}`)
  const removed: Array<string> = []
  for (const [line, count] of remaining) for (let i = 0; i < count; i++) removed.push(line)
  for (const line of removed.slice(0, maxRemovedShown)) out.push(`- ${line.trimStart()}`)
  if (removed.length > maxRemovedShown) out.push(`- … ${removed.length - maxRemovedShown} more removed lines`)
  return { text: out.join("\n"), added: changed.size, removed: removed.length }
}
