/**
 * Answers that stay small on the tasks board (42 task rows): the folded snapshot is a fraction of the
 * page and still names a ref for every button on it (a folded row's refs resolve to that row's elements and
 * a click on one works), expand shows rows in full, a budget cuts with a marker whose refs work, and the
 * change summary of an action that brings back many rows is a short digest whose refs work too.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient()
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: "testid=late-panel" })).isError).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

interface FoldedRow {
  readonly label: string
  readonly done: string
  readonly edit: string
  readonly remove: string
}

/** The folded rows of the task list, read from a snapshot's text the way an agent reads them. */
const foldedRows = (text: string): ReadonlyArray<FoldedRow> => {
  const lines = text.split("\n")
  const at = lines.findIndex((l) => l.includes('refs of checkbox "Done: …", button "Edit …", button "Delete …" in each:'))
  expect(at, text).toBeGreaterThan(0)
  const indent = (l: string) => l.length - l.trimStart().length
  const rows: Array<FoldedRow> = []
  for (let i = at + 1; i < lines.length && indent(lines[i]!) > indent(lines[at]!); i++) {
    for (const entry of lines[i]!.trim().split("; ")) {
      const m = /^(.*) (e\d+) (e\d+) (e\d+)$/.exec(entry)
      expect(m, entry).not.toBeNull()
      rows.push({ label: m![1]!, done: m![2]!, edit: m![3]!, remove: m![4]! })
    }
  }
  return rows
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The refs of the buttons a snapshot's text shows on their own lines. */
const buttonLines = (text: string) => Array.from(text.matchAll(/^\s*- '?button "(?:[^"\\]|\\.)*"[^\n]*?\[ref=(e\d+)\]/gm), (m) => m[1]!)

describe("folded snapshots of the tasks board", () => {
  it("stay under 6,000 characters and give every button on the board a ref that resolves to it", async () => {
    const full = await mcp.call("electron_snapshot", { expand: "all", compact: true })
    const snap = await mcp.call("electron_snapshot", { compact: true })
    expect(snap.isError, snap.text).toBe(false)
    expect(snap.text.length).toBeLessThan(6_000)
    expect(snap.text.length).toBeLessThan(full.text.length / 3)
    expect(snap.structured.folded).toMatchObject({ rows: 41, blocks: [{ rows: 41 }] })
    const rows = foldedRows(snap.text)
    expect(rows).toHaveLength(41)
    // Every button on the page: on its own line, or an Edit or Delete ref of a folded row.
    const refs = new Set([...buttonLines(snap.text), ...rows.flatMap((r) => [r.edit, r.remove])])
    const buttons = await mcp.call("electron_find", { target: "role=button", limit: 1 })
    expect(refs.size).toBe(buttons.structured.count)
    // A folded row's refs are that row's checkbox and buttons.
    for (const row of rows) {
      for (const [ref, name] of [
        [row.done, `Done: ${row.label}`],
        [row.edit, `Edit ${row.label}`],
        [row.remove, `Delete ${row.label}`]
      ] as const) {
        const label = await mcp.call("electron_get_attribute", { target: ref, name: "aria-label" })
        expect(label.structured.value, `${ref} of ${row.label}`).toBe(name)
      }
    }
  })

  it("a folded row's refs work in electron_click: Edit opens that row's editor, Delete asks to delete that task", async () => {
    const rows = foldedRows((await mcp.call("electron_snapshot", { compact: true })).text)
    const row = rows[29]!
    const edit = await mcp.call("electron_click", { target: row.edit })
    expect(edit.isError, edit.text).toBe(false)
    expect(edit.text).toContain(`form "Edit task ${row.label}"`)
    expect((await mcp.call("electron_click", { target: "testid=edit-cancel" })).isError).toBe(false)
    // The list re-rendered: a new snapshot's refs.
    const again = foldedRows((await mcp.call("electron_snapshot", { compact: true })).text)
    const victim = again[20]!
    const asked = await mcp.call("electron_click", { target: victim.remove })
    expect(asked.structured.dialog, asked.text).toMatchObject({ type: "confirm" })
    expect(asked.structured.dialog.message).toBe(`Delete "${victim.label}"?`)
    expect((await mcp.call("electron_web_dialog", { action: "accept" })).isError).toBe(false)
    const notice = await mcp.call("electron_expect_text", { target: "testid=notice", text: `Deleted "${victim.label}"` })
    expect(notice.isError, notice.text).toBe(false)
  })

  it("expand shows the rows of a ref range in full, between two folded blocks; a bad range is refused", async () => {
    const rows = foldedRows((await mcp.call("electron_snapshot", { compact: true })).text)
    const expanded = await mcp.call("electron_snapshot", { compact: true, expand: `${rows[10]!.done}-${rows[11]!.remove}` })
    expect(expanded.isError, expanded.text).toBe(false)
    for (const row of [rows[10]!, rows[11]!]) {
      expect(expanded.text).toMatch(new RegExp(`checkbox "Done: ${escaped(row.label)}"(?: \\[checked\\])? \\[ref=${row.done}\\]`))
      expect(expanded.text).toMatch(new RegExp(`button "Delete ${escaped(row.label)}" \\[ref=${row.remove}\\]`))
    }
    expect(expanded.structured.folded.blocks.map((b: { rows: number }) => b.rows)).toEqual([10, rows.length - 12])
    const all = await mcp.call("electron_snapshot", { expand: /list "Task list" \[ref=(e\d+)\]/.exec(expanded.text)![1]! })
    expect(all.structured.folded).toBeUndefined()
    const bad = await mcp.call("electron_snapshot", { expand: "rows 1 to 3" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("a budget cuts the snapshot and find at a line, and the marker's refs show the rest", async () => {
    const cut = await mcp.call("electron_snapshot", { budget: 400 })
    expect(cut.isError, cut.text).toBe(false)
    expect(cut.text.length).toBeLessThanOrEqual(400 * 4)
    const marker = cut.text.split("\n").at(-1)!
    expect(marker).toMatch(/^… cut at the budget of 400 tokens: \d+ more lines \(~\d+ tokens\), from /)
    const rest: ReadonlyArray<string> = cut.structured.cut.rest
    expect(rest.length).toBeGreaterThan(0)
    const ref = rest.at(-1)!.split(" ").at(-1)!
    const scoped = await mcp.call("electron_snapshot", { target: ref })
    expect(scoped.isError, scoped.text).toBe(false)
    expect(scoped.text).toContain(`[ref=${ref}]`)
    const found = await mcp.call("electron_find", { target: "role=button", limit: 100, budget: 150 })
    expect(found.text.length).toBeLessThanOrEqual(150 * 4)
    expect(found.text).toMatch(/… \d+ more \(cut at the budget of 150 tokens; pass a larger budget or a narrower target\)$/)
    expect(found.structured.items.length).toBeLessThan(found.structured.count)
    expect(found.structured.cut.shown).toBe(found.structured.items.length)
  })

  it("an action that brings back many rows answers with a short digest whose refs work", async () => {
    expect((await mcp.call("electron_select_option", { target: "testid=filter-select", values: ["done"] })).isError).toBe(false)
    await mcp.call("electron_snapshot")
    const back = await mcp.call("electron_select_option", { target: "testid=filter-select", values: ["all"] })
    expect(back.isError, back.text).toBe(false)
    expect(back.text).toMatch(/\nThe page changed \(\+\d+ -\d+( ~\d+)? lines\), in short:\n/)
    const digest =
      /\+ (\d+) (?:added to|new or changed in) list "Task list" \[ref=e\d+\]: listitem ×\d+ \(\d+ lines\); refs of checkbox "Done: …", button "Edit …", button "Delete …" in each: (.*?)(?: …, \+\d+ more rows)?$/m.exec(
        back.text
      )
    expect(digest, back.text).not.toBeNull()
    expect(Number(digest![1])).toBeGreaterThan(20)
    expect(back.text.length).toBeLessThan(1_500)
    const [label, , edit] = /^(.*) (e\d+) (e\d+) (e\d+)$/.exec(digest![2]!.split("; ")[0]!)!.slice(1)
    const opened = await mcp.call("electron_click", { target: edit! })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.text).toContain(`form "Edit task ${label}"`)
    expect((await mcp.call("electron_click", { target: "testid=edit-cancel" })).isError).toBe(false)
  })
})
