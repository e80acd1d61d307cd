/**
 * The patterns that read snapshot lines finish on what a page can put in them: a combobox named with thousands of
 * `[ref=…]`, a row whose text is thousands of unclosed `[`. Each was a pattern that started again from every
 * such token and backtracked to the end (seconds at 50,000 characters, hours at a megabyte); each now reads the
 * line once. The answers are what they were for ordinary lines.
 */
import { describe, expect, it } from "@effect/vitest"
import { nearLines } from "../../src/tools/pipeline/nearby.js"
import { compactSnapshot } from "../../src/tools/snapshot/snapshot-view.js"

describe("patterns over the page's text", () => {
  it("a combobox's option rows are still joined, and a combobox named with 100,000 [ref=…] is read once", () => {
    const ordinary = ['- combobox "Priority" [ref=e5]:', '  - option "Low"', '  - option "High" [selected]'].join("\n")
    expect(compactSnapshot(ordinary)).toBe('- combobox "Priority" [ref=e5]: options "Low", "High" [selected]')
    const name = "[ref=a]x".repeat(100_000)
    const hostile = [`- combobox "${name}" [ref=e5]:`, '  - option "Low"'].join("\n")
    expect(compactSnapshot(hostile)).toBe(`- combobox "${name}" [ref=e5]: options "Low"`)
    const notCombobox = `- combobox "${name}"`
    expect(compactSnapshot(notCombobox)).toBe(notCombobox)
  })

  it("lines near a target are found past a row whose text is 100,000 unclosed [", () => {
    const snapshot = [`- listitem [ref=e1]: ${"[a".repeat(100_000)}`, '- button "Save draft" [ref=e2]'].join("\n")
    expect(nearLines(snapshot, 'role=button[name="Save"]')).toEqual(['button "Save draft" [ref=e2]'])
  })
})
