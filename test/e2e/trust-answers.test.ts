/**
 * Issue 10, items 2–8, on the `tasks` sample app over MCP: answers an agent can trust and that cost
 * only what they are worth.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { activityLines } from "../support/activity.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let outputDir: string
const userData = freshUserData()

beforeAll(async () => {
  outputDir = mkdtempSync(join(tmpdir(), "stagewright-trust-out-"))
  mcp = await inMemoryClient({ outputDir })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })
  expect(launched.isError, launched.text).toBe(false)
  const loaded = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
  const late = await mcp.call("electron_wait_for", { target: "testid=late-panel" })
  expect(late.isError, late.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("issue 10 on the tasks app", () => {
  it("2. electron_dialog_stub records every option a native dialog was given, in the text and structuredContent", async () => {
    const set = await mcp.call("electron_dialog_stub", { action: "set", rules: [{ kind: "message", answer: { response: 1 } }] })
    expect(set.isError, set.text).toBe(false)
    await mcp.call("electron_click", { target: "testid=about-button" })
    // Copy version (response 1) copies the version and the app says so (it shows nothing for OK).
    const about = await mcp.call("electron_expect_text", { target: "testid=notice", text: 'Copied "Tasks 1.4.0" to the clipboard' })
    expect(about.isError, about.text).toBe(false)
    await mcp.call("electron_click", { target: "testid=open-file-button" })
    // Canceled: the app shows nothing (as a real app); its activity log records it.
    await expect.poll(() => activityLines(userData, "open-dialog"), { timeout: 15_000 }).toEqual(["open-dialog canceled"])
    const list = await mcp.call("electron_dialog_stub", { action: "list" })
    expect(list.text).toContain(
      'showMessageBox "About Tasks" — Tasks 1.4.0 (type info; detail "A sample task board for Stagewright, the MCP server that drives Electron apps."; buttons [OK, Copy version, Cancel]; checkbox "Show tips on startup"): stub'
    )
    expect(list.text).toMatch(/showOpenDialog "Import tasks" \(filters Task files \(json\); All files \(\*\); properties openFile\): canceled/)
    const [box, open] = list.structured.calls
    expect(box).toMatchObject({
      method: "showMessageBox",
      type: "info",
      detail: "A sample task board for Stagewright, the MCP server that drives Electron apps.",
      checkboxLabel: "Show tips on startup",
      buttons: ["OK", "Copy version", "Cancel"]
    })
    expect(open).toMatchObject({
      method: "showOpenDialog",
      filters: [
        { name: "Task files", extensions: ["json"] },
        { name: "All files", extensions: ["*"] }
      ]
    })
    await mcp.call("electron_dialog_stub", { action: "restore" })
  })

  it('3. since:"last" diffs against the last snapshot the agent was shown, not an action\'s change summary', async () => {
    const shown = await mcp.call("electron_snapshot")
    expect(shown.isError, shown.text).toBe(false)
    const search = await mcp.call("electron_fill", { target: "testid=search-input", value: "passport" })
    expect(search.isError, search.text).toBe(false)
    const since = await mcp.call("electron_snapshot", { since: "last" })
    expect(since.text).not.toContain("(no change)")
    expect(since.structured).toMatchObject({ incremental: true })
    expect(since.structured.removed).toBeGreaterThan(10)
    expect(since.text).toMatch(/^~ +- searchbox "Search tasks" (\[active\] )?\[ref=e\d+\]: passport$/m)
    // That answer was shown: it is the new baseline.
    expect((await mcp.call("electron_snapshot", { since: "last" })).text).toContain("(no change)")
    const cleared = await mcp.call("electron_fill", { target: "testid=search-input", value: "" })
    expect(cleared.isError, cleared.text).toBe(false)
    await mcp.call("electron_snapshot")
  })

  it("4. electron_screenshot with a name saves under the output folder and returns path, bytes and size; inline=true adds the image", async () => {
    const saved = await mcp.call("electron_screenshot", { name: "board" })
    expect(saved.isError, saved.text).toBe(false)
    expect(saved.images).toBe(0)
    const path = join(outputDir, "board.png")
    expect(saved.structured).toMatchObject({ path, bytes: statSync(path).size })
    expect(saved.structured.width).toBeGreaterThan(100)
    expect(saved.text).toBe(`Screenshot of w1 (${saved.structured.width}x${saved.structured.height}, ${saved.structured.bytes} bytes) saved to ${path}.`)
    expect(saved.raw._meta.size.chars).toBeLessThan(400)
    const inline = await mcp.call("electron_screenshot", { name: "board-inline", target: "testid=board-name", inline: true })
    expect(inline.images).toBe(1)
    expect(existsSync(join(outputDir, "board-inline.png"))).toBe(true)
    const escaping = await mcp.call("electron_screenshot", { name: "../../escape.png" })
    expect(escaping.code).toBe("PATH_NOT_ALLOWED")
    const plain = await mcp.call("electron_screenshot", { target: "testid=board-name" })
    expect(plain.images).toBe(1)
    // The other tool that writes a file on request returns its path and size, the content one argument away.
    const exported = await mcp.call("electron_export_test", { name: "trust" })
    expect(exported.isError, exported.text).toBe(false)
    expect(exported.text).toMatch(/^Wrote .*trust\.spec\.ts \(\d+ steps, \d+ bytes\)\.$/)
    expect(exported.structured.bytes).toBe(statSync(exported.structured.path).size)
    const withCode = await mcp.call("electron_export_test", { name: "trust", inline: true })
    expect(withCode.text).toContain("_electron.launch(")
  })

  it("5. every expect_* answer's text carries the actual value, pass or fail", async () => {
    const text = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "My" })
    expect(text.text).toBe('Passed: text of testid=board-name; actual "My board".')
    const value = await mcp.call("electron_expect_value", { target: "testid=task-priority-select", value: "medium" })
    expect(value.text).toContain('actual "medium"')
    const count = await mcp.call("electron_expect_count", { target: "testid=task-row", min: 1 })
    expect(count.text).toContain("actual 42")
    const state = await mcp.call("electron_expect_state", { target: "testid=add-task-button", state: { visible: true, enabled: true } })
    expect(state.text).toContain("actual visible=true, enabled=true")
    const visible = await mcp.call("electron_expect_visible", { target: "testid=notice" })
    expect(visible.text).toContain('actual "visible"')
    const failed = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Other", timeoutMs: 200 })
    expect(failed.code).toBe("ASSERTION_FAILED")
    expect(failed.text).toContain('Actual: "My board"')
  })

  it("6. a depth-limited snapshot marks the subtrees it cut with their size", async () => {
    // The size is the whole subtree's: counted in the snapshot with every row (expand: "all").
    const full = await mcp.call("electron_snapshot", { expand: "all" })
    const limited = await mcp.call("electron_snapshot", { depth: 2 })
    expect(limited.isError, limited.text).toBe(false)
    const marked = /^(\s*)- region "Tasks" \[ref=(e\d+)\] \((\d+) lines cut by depth\)$/m.exec(limited.text)
    expect(marked, limited.text).not.toBeNull()
    const lines = full.text.split("\n")
    const at = lines.findIndex((l) => l.includes(`[ref=${marked![2]}]`))
    const indent = (l: string) => l.length - l.trimStart().length
    let inside = 0
    for (let j = at + 1; j < lines.length && indent(lines[j]!) > indent(lines[at]!); j++) inside++
    expect(Number(marked![3])).toBe(inside)
  })

  it("7. a zero-match find or ELEMENT_NOT_FOUND says what is near and how to match part of a name", async () => {
    const none = await mcp.call("electron_find", { target: 'role=button[name="Delete Renew"]' })
    expect(none.structured.count).toBe(0)
    expect(none.text).toMatch(/Near: button "Delete Renew passport" \[ref=e\d+\]/)
    expect(none.text).toContain('role=button[name*="Delete Renew"] matches part of it')
    expect(none.structured.near[0]).toMatch(/^button "Delete Renew passport"/)
    // The advice is right: both forms it names find the button.
    const partial = await mcp.call("electron_find", { target: 'role=button[name*="Delete Renew"]' })
    expect(partial.text).toMatch(/^- button "Delete Renew passport"/m)
    expect((await mcp.call("electron_find", { target: 'role=button[name="delete renew passport" i]' })).structured.count).toBe(1)
    expect((await mcp.call("electron_find", { target: "role=button[name=/delete renew p/i]" })).structured.count).toBe(1)
    const click = await mcp.call("electron_click", { target: 'role=button[name="Edit Renew"]', timeoutMs: 500 })
    expect(click.code).toBe("ELEMENT_NOT_FOUND")
    expect(click.text).toMatch(/Hint: Near: button "Edit Renew passport" \[ref=e\d+\]/)
  })

  it("8. change summaries show removals by subtree and landmark, and a changed field once with its new value", async () => {
    await mcp.call("electron_snapshot")
    const edit = await mcp.call("electron_click", { target: 'role=button[name="Edit Renew passport"]' })
    expect(edit.isError, edit.text).toBe(false)
    const cancel = await mcp.call("electron_click", { target: "testid=edit-cancel" })
    expect(cancel.isError, cancel.text).toBe(false)
    expect(cancel.text).toMatch(/^- form "Edit task Renew passport" \[ref=e\d+\] \(\+\d+ inside\)$/m)
    expect(cancel.text).not.toMatch(/^- (textbox|button) "(Task title|Save|Cancel)"/m)
    const form = await mcp.call("electron_fill_form", {
      fields: [
        { target: "testid=task-title-input", value: "Buy milk" },
        { target: "testid=task-notes-input", value: "two litres" }
      ]
    })
    expect(form.isError, form.text).toBe(false)
    // Each field once, with its new value: only the fields changed, so no snapshot was needed to say so.
    expect(form.text).toContain('Only fields changed: "Title" = "Buy milk"; "Notes" = "two litres" (focused).')
    expect(form.text.match(/"Title"/g)).toHaveLength(1)
    expect(form.text).not.toMatch(/^- /m)
    const filtered = await mcp.call("electron_fill", { target: "testid=search-input", value: "passport" })
    expect(filtered.text).toMatch(/^- 41 removed from list "Task list" \[ref=e\d+\]: listitem ×41 \(\d+ lines\)$/m)
    await mcp.call("electron_fill", { target: "testid=search-input", value: "" })
  })
})
