/**
 * Snapshot folding, compaction and budgets, on snapshots built here: long runs of rows fold to a sample,
 * a count, the range `expand` takes and each folded row's label with its refs, so every actionable ref of
 * the page is still in the text; expand, focus and rows of another shape show rows in full; a budget cuts
 * at a line and says what it left out.
 */
import { describe, expect, it } from "vitest"
import { foldSnapshot, lineInfo, listRows, parseExpand, type Expansion } from "../../src/tools/snapshot/snapshot-fold.js"
import { markCutSubtrees } from "../../src/tools/snapshot/snapshot-diff.js"
import { compactSnapshot, cutToBudget, viewDiff, viewSnapshot, withinBudget } from "../../src/tools/snapshot/snapshot-view.js"

const titles = Array.from({ length: 30 }, (_, i) => `Task number ${i + 1}${i === 6 ? " #7" : ""}`)

/** A board like the tasks app's: a list of rows with a checkbox and two buttons each (refs e100 on, 6 a row). */
const board = (options: { readonly editing?: number; readonly active?: number } = {}) => {
  const rows = titles.flatMap((title, i) => {
    const ref = 100 + 6 * i
    const quoted = (key: string) => (/[:#]/.test(key) ? `'${key}'` : key)
    if (i === options.editing) {
      return [
        `    - listitem [ref=e${ref}]:`,
        `      - form "Edit task ${title}" [ref=e${ref + 1}]:`,
        `        - textbox "Task title" [ref=e${ref + 2}]: ${title}`,
        `        - button "Save" [ref=e${ref + 3}]`
      ]
    }
    return [
      `    - listitem [ref=e${ref}]:`,
      `      - ${quoted(`checkbox "Done: ${title}"${i === options.active ? " [active]" : ""} [ref=e${ref + 1}]`)}`,
      `      - generic [ref=e${ref + 2}]: ${title}`,
      `      - ${quoted(`button "Edit ${title}" [ref=e${ref + 3}] [cursor=pointer]`)}: Edit`,
      `      - ${quoted(`button "Delete ${title}" [ref=e${ref + 4}] [cursor=pointer]`)}: Delete`
    ]
  })
  return [
    "- main [ref=e1]:",
    '  - heading "Tasks" [level=2] [ref=e2]',
    '  - list "Task list" [ref=e3]:',
    ...rows,
    '  - button "Add task" [ref=e4] [cursor=pointer]'
  ].join("\n")
}

const refsIn = (text: string) => new Set(Array.from(text.matchAll(/\be\d+\b/g), (m) => m[0]))
const actionableRefs = (text: string) =>
  new Set(
    text
      .split("\n")
      .filter((l) => /- '?(checkbox|button|textbox)/.test(l))
      .map((l) => /\[ref=(e\d+)\]/.exec(l)![1]!)
  )
const expansion = (spec: string): Expansion => {
  const parsed = parseExpand(spec)
  if (typeof parsed === "string") throw new Error(parsed)
  return parsed
}

describe("lineInfo", () => {
  it("reads role, name, ref and text, YAML-quoted keys included", () => {
    expect(lineInfo(`  - 'checkbox "Done: Renew passport" [checked] [ref=e95]'`)).toMatchObject({ role: "checkbox", name: "Done: Renew passport", ref: "e95" })
    expect(lineInfo(`- 'button "Edit Review pull request #482" [ref=e126] [cursor=pointer]': Edit`)).toMatchObject({
      role: "button",
      name: "Edit Review pull request #482",
      value: "Edit"
    })
    expect(lineInfo(`- generic [ref=e8]: "Theme: light"`)).toMatchObject({ role: "generic", name: undefined, ref: "e8", value: "Theme: light" })
    expect(lineInfo(`- button "Say \\"hi\\"" [ref=e9]`)).toMatchObject({ role: "button", name: 'Say "hi"' })
    expect(lineInfo(`- generic [aria-hidden] [ref=e68]: ⠿`)).toMatchObject({ hidden: true, value: "⠿" })
  })
})

describe("foldSnapshot", () => {
  it("folds a long run of rows to one sample, a count, the range and every folded row's refs by label", () => {
    const text = board()
    const folded = foldSnapshot(text)
    expect(folded.foldedRows).toBe(29)
    expect(folded.folds).toEqual([{ parent: "e3", rows: 29, range: "e106-e278" }])
    expect(folded.text).toContain(`- 'checkbox "Done: Task number 1" [ref=e101]'`)
    expect(folded.text).toContain(
      `- listitem ×29 more like the one above, folded (expand: "e106-e278" shows them); refs of checkbox "Done: …", button "Edit …", button "Delete …" in each:`
    )
    // Each folded row: its label, then its checkbox, Edit and Delete refs, in that order.
    expect(folded.text).toContain("Task number 2 e107 e109 e110; Task number 3 e113 e115 e116")
    expect(folded.text).toContain("Task number 7 #7 e137 e139 e140")
    // Every element an agent can act on keeps its ref in the text; the whole is far smaller.
    for (const ref of actionableRefs(text)) expect(refsIn(folded.text).has(ref), ref).toBe(true)
    expect(folded.text.length).toBeLessThan(text.length / 3)
    expect(folded.text.split("\n").length).toBeLessThan(15)
  })

  it("leaves short runs, and a run under minRows, as they are", () => {
    const three = ["- list [ref=e1]:", ...[1, 2, 3].map((i) => `  - listitem [ref=e${i + 1}]: item ${i}`)].join("\n")
    expect(foldSnapshot(three)).toEqual({ text: three, foldedRows: 0, folds: [] })
    expect(foldSnapshot(board(), { minRows: 31 }).foldedRows).toBe(0)
  })

  it("shows expanded rows, the focused row and a row of another shape in full, folding the rest around them", () => {
    const expanded = foldSnapshot(board(), { expand: expansion("e160-e171") })
    // Rows 11 and 12 (e160, e166) are in the range: in full; the rows before and after them stay folded.
    expect(expanded.text).toContain(`- button "Edit Task number 11" [ref=e163] [cursor=pointer]: Edit`)
    expect(expanded.text).toContain(`- generic [ref=e168]: Task number 12`)
    expect(expanded.folds.map((f) => f.rows)).toEqual([9, 18])
    const all = foldSnapshot(board(), { expand: expansion("e3") })
    expect(all.foldedRows).toBe(0)
    const focused = foldSnapshot(board({ active: 20 }))
    expect(focused.text).toContain(`checkbox "Done: Task number 21" [active] [ref=e221]`)
    const editing = foldSnapshot(board({ editing: 15 }))
    expect(editing.text).toContain(`- form "Edit task Task number 16" [ref=e191]:`)
    expect(editing.text).toContain(`- button "Save" [ref=e193]`)
    for (const ref of actionableRefs(board({ editing: 15 }))) expect(refsIn(editing.text).has(ref), ref).toBe(true)
  })

  it("folds a diff's added rows, keeping their mark", () => {
    const diff = [
      '  - list "Task list" [ref=e3]:',
      ...board()
        .split("\n")
        .slice(3, -1)
        .map((line) => `+ ${line}`)
    ].join("\n")
    const view = viewDiff(diff, {})
    expect(view.folded.foldedRows).toBe(29)
    expect(view.text).toMatch(/^\+ {5}- listitem ×29 more like the one above, folded/m)
    expect(view.text).toMatch(/^\+ {7}Task number 2 e107 e109 e110;/m)
  })

  it("lists rows of elements that differ by their controls", () => {
    const rows = listRows(
      ["- listitem [ref=e1]:", '  - link "Docs" [ref=e2]', "- listitem [ref=e3]:", '  - button "Open" [ref=e4]', '  - button "Close" [ref=e5]'].join("\n")
    )
    expect(rows.columns).toEqual(["its controls"])
    expect(rows.entries).toEqual(["Docs e2", "Open e4 e5"])
  })
})

describe("odd input", () => {
  it("folds, compacts and cuts any lines without throwing, and keeps every actionable ref", () => {
    const pieces = [
      "- listitem [ref=e1]:",
      '  - button "Go" [ref=e2]',
      "- listitem:",
      "    - 'checkbox \"a: b\" [ref=e3]'",
      '- option "x"',
      "-",
      '  - text: "',
      "- row [ref=f1e9]:",
      "'",
      "  - generic [ref=e4]: ",
      "- listitem [ref=e5]: y"
    ]
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 40 }, () => pieces[next()]!).join("\n")
      const view = viewSnapshot(text, { compact: round % 2 === 0, budget: 100 + round })
      const folded = foldSnapshot(text, { minRows: 3 })
      for (const ref of actionableRefs(
        text
          .split("\n")
          .filter((l) => /\[ref=e\d+\]/.test(l))
          .join("\n")
      ))
        expect(refsIn(folded.text).has(ref)).toBe(true)
      expect(typeof view.text).toBe("string")
    }
    // A long name costs bounded work: its label is cut.
    const long = "word ".repeat(2_000)
    const rows = Array.from({ length: 20 }, (_, i) => [
      `- listitem [ref=e${10 * i + 1}]:`,
      `  - button "Edit ${long}${i}" [ref=e${10 * i + 2}]`,
      `  - button "Delete ${long}${i}" [ref=e${10 * i + 3}]`
    ]).flat()
    const folded = foldSnapshot(["- list [ref=e0]:", ...rows.map((r) => `  ${r}`)].join("\n"))
    expect(folded.foldedRows).toBe(19)
    expect(folded.text.length).toBeLessThan(rows.join("\n").length / 10)
  })
})

describe("parseExpand", () => {
  it("takes ranges, single refs and lists; refuses anything else", () => {
    const e = expansion("e10-e20, e30, f1e5..f1e9")
    expect([e.row("e10"), e.row("e20"), e.row("e21"), e.row("e30"), e.row("f1e7"), e.row("e7")]).toEqual([true, true, false, true, true, false])
    expect([e.parent("e30"), e.parent("e10")]).toEqual([true, false])
    expect(parseExpand("rows 1-3")).toMatch(/not a ref/)
    expect(parseExpand("e1-f1e3")).toMatch(/not a ref/)
  })
})

describe("compactSnapshot", () => {
  it("keeps the nodes a depth cut marked, with their refs and marks (compact + depth)", () => {
    const full = [
      "- main [ref=e1]:",
      "  - generic [ref=e2]:",
      "    - generic [ref=e3]:",
      '      - button "Deep" [ref=e4]',
      '  - list "Tasks" [ref=e5]:',
      "    - listitem [ref=e6]:",
      "      - text: one",
      "  - paragraph [ref=e7]:",
      '    - link "x" [ref=e8]'
    ].join("\n")
    const limited = [
      "- main [ref=e1]:",
      "  - generic [ref=e2]:",
      "    - generic [ref=e3]",
      '  - list "Tasks" [ref=e5]:',
      "    - listitem [ref=e6]",
      "  - paragraph [ref=e7]"
    ].join("\n")
    const shown = compactSnapshot(markCutSubtrees(limited, full))
    expect(shown).toContain("- generic [ref=e3] (1 lines cut by depth)")
    expect(shown).toContain("- listitem [ref=e6] (1 lines cut by depth)")
    expect(shown).toContain("- paragraph [ref=e7] (1 lines cut by depth)")
  })

  it("drops wrappers, pointer marks, labels that repeat their field's name and plain-text refs; keeps every actionable ref", () => {
    const text = [
      "- generic [ref=e1]:",
      "  - generic [ref=e2]: Title",
      '  - textbox "Title" [ref=e3]',
      "  - paragraph [ref=e4]",
      '  - combobox "Priority" [ref=e5]:',
      '    - option "Low"',
      '    - option "High" [selected]',
      "  - term [ref=e6]: Ping",
      "  - definition [ref=e7]: pong",
      "  - generic [ref=e8] [cursor=pointer]: Clickable text",
      '  - button "Go" [ref=e9] [cursor=pointer]',
      "  - status [ref=e10]: Saved"
    ].join("\n")
    expect(compactSnapshot(text)).toBe(
      [
        '- textbox "Title" [ref=e3]',
        '- combobox "Priority" [ref=e5]: options "Low", "High" [selected]',
        "- Ping: pong",
        "- generic [ref=e8]: Clickable text",
        '- button "Go" [ref=e9]',
        "- status [ref=e10]: Saved"
      ].join("\n")
    )
  })
})

describe("budgets", () => {
  it("cuts a snapshot at a line within the budget and names the left-out subtrees' refs", () => {
    const page = [
      "- main [ref=e1]:",
      ...Array.from({ length: 60 }, (_, i) => `  - region "Part ${i}" [ref=e${i + 2}]:\n    - paragraph: ${"words ".repeat(10)}`)
    ].join("\n")
    const view = viewSnapshot(page, { budget: 200 }, 'w1 "Page" file:///index.html')
    expect(view.cut.cut).toBe(true)
    expect(view.text.length).toBeLessThanOrEqual(200 * 4)
    expect(view.text.split("\n")[0]).toBe('w1 "Page" file:///index.html')
    const marker = view.text.split("\n").at(-1)!
    expect(marker).toMatch(/^… cut at the budget of 200 tokens: \d+ more lines \(~\d+ tokens\), from region "Part \d+" e\d+/)
    expect(marker).toContain("pass target: one of those refs, or a larger budget")
    // The first region left out is the one after the last shown.
    const lastShown = Math.max(...Array.from(view.text.matchAll(/region "Part (\d+)"/g), (m) => Number(m[1])).slice(0, -6))
    expect(view.cut.rest[0]).toBe(`region "Part ${lastShown + 1}" e${lastShown + 3}`)
    expect(viewSnapshot(page, { budget: 100_000 }).cut.cut).toBe(false)
  })

  it("keeps whole lines of a list within the budget", () => {
    const lines = Array.from({ length: 50 }, (_, i) => `- button "Button ${i}" [ref=e${i}]`)
    const kept = withinBudget("50 matches", lines, 100)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(50)
    expect(["50 matches", ...kept].join("\n").length).toBeLessThanOrEqual(100 * 4 - 160)
    expect(withinBudget("50 matches", lines, undefined)).toBe(lines)
    expect(cutToBudget("short", 100, "how").cut).toBe(false)
  })
})
