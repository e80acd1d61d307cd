/**
 * Observe, interact, assert and eval tools end to end: an SDK client over the in-memory MCP pair,
 * driving the `tasks` sample app on the runtime chosen by resolveElectronRuntime() (the stand-in
 * unless STAGEWRIGHT_ELECTRON names a real Electron).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let userData: string

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer", "main"] })
  userData = freshUserData()
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: "testid=late-panel" })
  expect(ready.isError, ready.text).toBe(false)
  // The tasks arrive through IPC, independently of the late panel's timer.
  const loaded = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("observe tools on the tasks app", () => {
  it("electron_snapshot returns refs, and since=last returns only what changed", async () => {
    const full = await mcp.call("electron_snapshot")
    expect(full.isError).toBe(false)
    expect(full.text).toMatch(/heading "Task Board" \[level=1\] \[ref=e\d+\]/)
    const unchanged = await mcp.call("electron_snapshot", { since: "last" })
    expect(unchanged.text).toContain("(no change)")
    // A change made behind the agent's back (no tool snapshot in between) shows up as a diff.
    await mcp.call("electron_eval_renderer", {
      function:
        "() => { const i = document.querySelector('[data-testid=search-input]'); i.value = 'passport'; i.dispatchEvent(new Event('input', { bubbles: true })) }"
    })
    const diff = await mcp.call("electron_snapshot", { since: "last" })
    expect(diff.structured).toMatchObject({ incremental: true })
    expect(diff.structured.removed).toBeGreaterThan(10)
    expect(diff.text).toMatch(/^~ +- searchbox "Search tasks" \[ref=e\d+\]: passport$/m)
    expect(diff.text).toMatch(/^~ +- paragraph \[ref=e\d+\]: Showing 1 of 42 tasks/m)
    expect(diff.text.length).toBeLessThan(full.text.length)
    // An action reports what it changed itself; the baseline of since="last" stays what the agent was shown.
    // (A fill, not a key: keys reach the page after the call on the stand-in while main listens for before-input-event.)
    const refined = await mcp.call("electron_fill", { target: "testid=search-input", value: "renew" })
    expect(refined.text).toMatch(/The page changed \(\+\d+ -\d+( ~\d+)? lines\)|Changes \(/)
    expect(refined.text).toContain("renew")
    expect((await mcp.call("electron_snapshot", { since: "last" })).text).not.toContain("(no change)")
    expect((await mcp.call("electron_snapshot", { since: "last" })).text).toContain("(no change)")
    // Back to the whole list for the tests that follow (an empty fill is a Delete key press: wait for its effect).
    expect((await mcp.call("electron_fill", { target: "testid=search-input", value: "" })).isError).toBe(false)
    expect((await mcp.call("electron_expect_count", { target: "testid=task-row", count: 42 })).isError).toBe(false)
    const compact = await mcp.call("electron_snapshot", { compact: true })
    expect(compact.text.length).toBeLessThan(full.text.length)
    expect(compact.text).toContain("[ref=")
  })

  it("electron_snapshot refuses a ref that no snapshot produced", async () => {
    const stale = await mcp.call("electron_snapshot", { target: "e99999" })
    expect(stale.code).toBe("REF_STALE")
    expect(stale.text).toContain("Hint: ")
  })

  it("electron_find returns a count and refs that other tools accept", async () => {
    const found = await mcp.call("electron_find", { target: "role=button[name=/^Edit /]", limit: 2 })
    expect(found.structured.count).toBe(42)
    expect(found.structured.items).toHaveLength(2)
    const ref = found.structured.items[0].ref as string
    expect(ref).toMatch(/^e\d+$/)
    const text = await mcp.call("electron_get_text", { target: ref })
    expect(text.text).toBe("Edit")
    const none = await mcp.call("electron_find", { target: "testid=does-not-exist" })
    expect(none.structured.count).toBe(0)
  })

  it("electron_get_text and electron_get_attribute read the page, and ambiguity is reported", async () => {
    const notice = await mcp.call("electron_get_text", { target: "testid=board-name" })
    expect(notice.text).toBe("My board")
    const all = await mcp.call("electron_get_text", { target: "testid=task-title", all: true })
    expect(all.structured.texts).toHaveLength(42)
    const href = await mcp.call("electron_get_attribute", { target: "testid=external-link", name: "href" })
    expect(href.structured.value).toBe("https://example.com/")
    const ambiguous = await mcp.call("electron_get_text", { target: "testid=task-title", timeoutMs: 1000 })
    expect(ambiguous.code).toBe("AMBIGUOUS_LOCATOR")
    const missingAttr = await mcp.call("electron_get_attribute", { target: "testid=nothing-here", name: "id", timeoutMs: 500 })
    expect(missingAttr.code).toBe("ELEMENT_NOT_FOUND")
  })

  it("electron_screenshot returns a PNG image, or saves it by name; an escaping name is refused", async () => {
    const shot = await mcp.call("electron_screenshot")
    expect(shot.isError).toBe(false)
    expect(shot.images).toBe(1)
    const png = Buffer.from(shot.raw.content.find((c: any) => c.type === "image").data, "base64")
    expect(png.subarray(1, 4).toString()).toBe("PNG")
    const element = await mcp.call("electron_screenshot", { target: "testid=board-name" })
    expect(element.images).toBe(1)
    // Without --screenshot-dir a name saves under the output folder; a name never leaves it.
    const saved = await mcp.call("electron_screenshot", { name: "x.png" })
    expect(saved.images).toBe(0)
    expect(saved.structured.path).toMatch(/x\.png$/)
    expect((await mcp.call("electron_screenshot", { name: "../x.png" })).code).toBe("PATH_NOT_ALLOWED")
  })

  it("electron_wait_for waits for text and for URL, and times out with TIMEOUT", async () => {
    const text = await mcp.call("electron_wait_for", { text: "Recommendations" })
    expect(text.isError).toBe(false)
    const timeout = await mcp.call("electron_wait_for", { text: "this text never appears", timeoutMs: 300 })
    expect(timeout.code).toBe("TIMEOUT")
    const nothing = await mcp.call("electron_wait_for", {})
    expect(nothing.code).toBe("INVALID_ARGUMENT")
  })
})

describe("interact tools on the tasks app", () => {
  it("electron_fill_form + electron_click add a task; electron_expect_* confirm it", async () => {
    const form = await mcp.call("electron_fill_form", {
      fields: [
        { target: "label=Title", value: "Write the e2e tests" },
        { target: "testid=task-notes-input", value: "through MCP" },
        { target: "testid=task-priority-select", value: "high" },
        { target: "testid=task-urgent-checkbox", value: true },
        { target: "testid=category-home", value: true }
      ]
    })
    expect(form.isError, form.text).toBe(false)
    expect(form.structured.filled).toHaveLength(5)
    const value = await mcp.call("electron_expect_value", { target: "testid=task-priority-select", value: "high" })
    expect(value.isError, value.text).toBe(false)
    const click = await mcp.call("electron_click", { target: 'role=button[name="Add task"]' })
    expect(click.isError, click.text).toBe(false)
    const notice = await mcp.call("electron_expect_text", { target: "testid=notice", text: 'Added "Write the e2e tests"' })
    expect(notice.isError, notice.text).toBe(false)
    const count = await mcp.call("electron_expect_count", { target: "testid=task-row", count: 43 })
    expect(count.isError, count.text).toBe(false)
    const first = await mcp.call("electron_expect_text", { target: "testid=task-title >> nth=0", text: "Write the e2e tests", exact: true })
    expect(first.isError, first.text).toBe(false)
  })

  it("electron_fill_form says which field failed and why", async () => {
    const wrong = await mcp.call("electron_fill_form", { fields: [{ target: "testid=task-urgent-checkbox", value: "yes" }] })
    expect(wrong.code).toBe("INVALID_ARGUMENT")
    expect(wrong.text).toContain("fields[0]")
  })

  it("electron_click fails with ELEMENT_NOT_FOUND for a missing target and NOT_INTERACTABLE for a hidden one", async () => {
    const missing = await mcp.call("electron_click", { target: 'role=button[name="No such button"]', timeoutMs: 500 })
    expect(missing.code).toBe("ELEMENT_NOT_FOUND")
    const ambiguous = await mcp.call("electron_click", { target: "testid=task-edit", timeoutMs: 500 })
    expect(ambiguous.code).toBe("AMBIGUOUS_LOCATOR")
  })

  it("electron_type types key by key and electron_press_key presses keys", async () => {
    const typed = await mcp.call("electron_type", { target: "testid=search-input", text: "dentist" })
    expect(typed.isError, typed.text).toBe(false)
    const rows = await mcp.call("electron_expect_count", { target: "testid=task-row", count: 1 })
    expect(rows.isError, rows.text).toBe(false)
    const selectAll = await mcp.call("electron_press_key", { target: "testid=search-input", key: "ControlOrMeta+A" })
    expect(selectAll.isError).toBe(false)
    const del = await mcp.call("electron_press_key", { key: "Backspace" })
    expect(del.isError).toBe(false)
    const restored = await mcp.call("electron_expect_count", { target: "testid=task-row", count: 43 })
    expect(restored.isError, restored.text).toBe(false)
    const unknown = await mcp.call("electron_press_key", { key: "NotAKey" })
    expect(unknown.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_select_option and electron_check change form controls", async () => {
    const filter = await mcp.call("electron_select_option", { target: "label=Show", values: ["done"] })
    expect(filter.isError, filter.text).toBe(false)
    const done = await mcp.call("electron_expect_count", { target: "testid=task-row", count: 10 })
    expect(done.isError, done.text).toBe(false)
    await mcp.call("electron_select_option", { target: "label=Show", values: ["all"] })
    const checkbox = 'role=checkbox[name="Done: Renew passport"]'
    const checked = await mcp.call("electron_check", { target: checkbox })
    expect(checked.isError, checked.text).toBe(false)
    const state = await mcp.call("electron_expect_state", { target: checkbox, state: { checked: true, enabled: true, visible: true } })
    expect(state.isError, state.text).toBe(false)
    const unchecked = await mcp.call("electron_check", { target: checkbox, checked: false })
    expect(unchecked.isError).toBe(false)
    const failed = await mcp.call("electron_expect_state", { target: checkbox, state: { checked: true }, timeoutMs: 300 })
    expect(failed.code).toBe("ASSERTION_FAILED")
    expect(failed.structured.error).toMatchObject({ expected: { checked: true }, actual: { checked: false } })
  })

  it("electron_hover, electron_scroll and electron_drag act on the list", async () => {
    const hover = await mcp.call("electron_hover", { target: "testid=task-row >> nth=2" })
    expect(hover.isError, hover.text).toBe(false)
    const scroll = await mcp.call("electron_scroll", { target: "testid=task-row >> nth=40" })
    expect(scroll.isError, scroll.text).toBe(false)
    const before = await mcp.call("electron_get_text", { target: "testid=task-title", all: true })
    const [a, b] = [before.structured.texts[0], before.structured.texts[2]]
    const drag = await mcp.call("electron_drag", { source: "testid=task-row >> nth=0", target: "testid=task-row >> nth=2" })
    expect(drag.isError, drag.text).toBe(false)
    const after = await mcp.call("electron_get_text", { target: "testid=task-title", all: true })
    expect(after.structured.texts[2]).toBe(a)
    expect(after.structured.texts[1]).toBe(b)
    const noop = await mcp.call("electron_scroll", {})
    expect(noop.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_upload_file sets an <input type=file>; a missing file is refused", async () => {
    const file = join(userData, "attachment.txt")
    writeFileSync(file, "hello")
    const upload = await mcp.call("electron_upload_file", { target: "testid=task-attachment-input", paths: [file] })
    expect(upload.isError, upload.text).toBe(false)
    const name = await mcp.call("electron_expect_text", { target: "testid=attachment-name", text: "attachment.txt" })
    expect(name.isError, name.text).toBe(false)
    const missing = await mcp.call("electron_upload_file", { target: "testid=task-attachment-input", paths: [join(userData, "nope.txt")] })
    expect(missing.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_web_dialog answers confirm and alert dialogs that actions open; prompt() opens none, as on Electron", async () => {
    const rename = await mcp.call("electron_click", { target: "testid=rename-board" })
    expect(rename.isError, rename.text).toBe(false)
    expect(rename.structured.dialog).toBeUndefined()
    const form = await mcp.call("electron_fill", { target: "label=Board name", value: "Release board" })
    expect(form.isError, form.text).toBe(false)
    await mcp.call("electron_click", { target: 'role=button[name="Save name"]' })
    const renamed = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Release board", exact: true })
    expect(renamed.isError, renamed.text).toBe(false)
    const about = await mcp.call("electron_click", { target: "testid=about-board" })
    expect(about.structured.dialog).toMatchObject({ type: "alert" })
    const answer = await mcp.call("electron_web_dialog", { action: "accept" })
    expect(answer.isError, answer.text).toBe(false)
    const del = await mcp.call("electron_click", { target: 'role=button[name="Delete Write the e2e tests"]' })
    expect(del.structured.dialog).toMatchObject({ type: "confirm" })
    await mcp.call("electron_web_dialog", { action: "dismiss" })
    const kept = await mcp.call("electron_expect_text", { target: "testid=notice", text: "Kept" })
    expect(kept.isError, kept.text).toBe(false)
    const none = await mcp.call("electron_web_dialog", { action: "accept" })
    expect(none.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_expect_visible waits for and fails on visibility; electron_expect_window checks windows", async () => {
    const visible = await mcp.call("electron_expect_visible", { target: "testid=late-panel" })
    expect(visible.isError, visible.text).toBe(false)
    const hidden = await mcp.call("electron_expect_visible", { target: "testid=late-panel", visible: false, timeoutMs: 300 })
    expect(hidden.code).toBe("ASSERTION_FAILED")
    expect(hidden.structured.error).toMatchObject({ expected: "hidden", actual: "visible" })
    const window = await mcp.call("electron_expect_window", { title: "Tasks", count: 1 })
    expect(window.isError, window.text).toBe(false)
    const missing = await mcp.call("electron_expect_window", { title: "Nope", timeoutMs: 300 })
    expect(missing.code).toBe("ASSERTION_FAILED")
    const text = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Wrong name", timeoutMs: 300 })
    expect(text.code).toBe("ASSERTION_FAILED")
    expect(text.text).toMatch(/Expected: .*Wrong name[\s\S]*Actual: "Release board"/)
  })
})

describe("eval tools (allowed here with --allow-eval all)", () => {
  it("electron_eval_renderer runs a function in the page", async () => {
    const result = await mcp.call("electron_eval_renderer", { function: "(n) => document.querySelectorAll('[data-testid=task-row]').length + n", arg: 1 })
    expect(result.isError, result.text).toBe(false)
    expect(result.structured.value).toBe(44)
    const bad = await mcp.call("electron_eval_renderer", { function: "document.title" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_eval_main runs a function in the main process with the electron module", async () => {
    const result = await mcp.call("electron_eval_main", { function: "({ app }) => app.getName()" })
    expect(result.structured.value).toBe("Tasks")
    const thrown = await mcp.call("electron_eval_main", { function: "() => { throw new Error('nope') }" })
    expect(thrown.code).toBe("OPERATION_FAILED")
    expect(thrown.text).toContain("nope")
  })
})
