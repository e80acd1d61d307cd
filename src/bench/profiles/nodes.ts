/** The benchmark agent's reading of snapshot and find answers: elements by role, name, ref and text. */

/** One element of a snapshot or find result. */
export interface Node {
  readonly depth: number
  readonly role: string
  readonly name: string
  readonly ref?: string
  readonly text: string
  readonly attrs: ReadonlyArray<string>
  /** Read from a mention inside another line (a change summary's `refs:` list), not from an element line. */
  readonly inline?: boolean
}

const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') && s.length >= 2 ? s.slice(1, -1).replace(/\\"/g, '"') : s)

/**
 * The elements of a folded block (`- listitem ×41 … refs of checkbox "Done: …", button "Edit …" in each:`
 * then `Label e1 e2; Label e3 e4` lines), read as an agent reads them: each ref is the column's role, and
 * its name is the column's with the row's label for "…".
 */
const foldColumns = (line: string): ReadonlyArray<{ role: string; name: string }> | undefined => {
  const m = /folded \(expand: "[^"]*" shows them\); refs of (.*) in each:$/.exec(line)
  if (m === null) return undefined
  return Array.from(m[1]!.matchAll(/([a-z]+)(?: "((?:[^"\\]|\\.)*)")?/g), (c) => ({ role: c[1]!, name: (c[2] ?? "").replace(/\\"/g, '"') }))
}

/** Parses the aria-snapshot lines (`- role "name" [attr] [ref=e1]: text`) of a result. */
export const parseNodes = (text: string): ReadonlyArray<Node> => {
  const nodes: Array<Node> = []
  let fold: { readonly depth: number; readonly columns: ReadonlyArray<{ role: string; name: string }> } | undefined
  for (const raw of text.split("\n")) {
    const depth = raw.replace(/^[+~ ] /, "  ").length - raw.replace(/^[+~ ] /, "  ").trimStart().length
    if (fold !== undefined && depth > fold.depth && !/^\s*- /.test(raw.replace(/^[+~ ] /, "  "))) {
      for (const entry of raw.trim().split("; ")) {
        const refs = /((?: (?:f\d+)?e\d+)+)$/.exec(` ${entry}`)
        if (refs === null) continue
        const label = ` ${entry}`.slice(0, refs.index).trim()
        refs[1]!
          .trim()
          .split(" ")
          .forEach((ref, c) => {
            const column = fold!.columns[c]
            if (column !== undefined)
              nodes.push({ depth: depth + 2, role: column.role, name: column.name.replace("…", label), ref, text: "", attrs: [`ref=${ref}`] })
          })
      }
      continue
    }
    fold = undefined
    const columns = foldColumns(raw)
    if (columns !== undefined) fold = { depth, columns }
    // Inline mentions an answer makes of elements, whatever the line's shape: `checkbox "Done: X" e465`.
    for (const c of raw.matchAll(/(?:^|[\s,(;:])([a-z]+) "((?:[^"\\]|\\.)*)" ((?:f\d+)?e\d+)\b(?!\])/g)) {
      nodes.push({ depth: 0, role: c[1]!, name: c[2]!.replace(/\\"/g, '"'), ref: c[3]!, text: "", attrs: [`ref=${c[3]!}`], inline: true })
    }
    let line = raw.replace(/^[+ ] /, "  ")
    // A change summary's line (`~ status [ref=e26]: Added "X"`, `+ listitem [ref=e4] (9 lines) in …`) reads as an element line.
    if (/^[+~] [a-z]+(?: "|\s*\[|:)/.test(raw)) line = `  - ${raw.slice(2)}`
    const m = /^(\s*)- '?([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/.exec(line)
    if (m === null) continue
    let rest = (m[4] ?? "").replace(/'$/, "")
    const attrs: Array<string> = []
    for (;;) {
      const a = /^\s*\[([^\]]*)\]/.exec(rest)
      if (a === null) break
      attrs.push(a[1] ?? "")
      rest = rest.slice(a[0].length)
    }
    line = rest.trim()
    const text = line.startsWith(":") ? unquote(line.slice(1).trim()) : ""
    const ref = attrs.find((a) => a.startsWith("ref="))?.slice(4)
    nodes.push({ depth: (m[1] ?? "").length, role: m[2] ?? "", name: (m[3] ?? "").replace(/\\"/g, '"'), ...(ref !== undefined ? { ref } : {}), text, attrs })
  }
  return nodes
}

export const matches = (value: string, want: string | RegExp) => (typeof want === "string" ? value === want : want.test(value))
