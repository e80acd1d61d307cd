/**
 * Issue 10, item 1: a pending web dialog never leaves a session stuck and never lets a call report
 * success. In `essential` (no electron_web_dialog) a confirm() opens: every following page call answers
 * within 1 s with DIALOG_OPEN naming the dialog and the restart flag; electron_status lists it.
 * In `full` the hint names electron_web_dialog, and a dialog that opens during a call ends that call.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

const launchTasks = async (mcp: TestClient) => {
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const loaded = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
}

const timed = async (mcp: TestClient, name: string, args: Record<string, unknown> = {}): Promise<ToolCallOutcome & { ms: number }> => {
  const started = Date.now()
  const result = await mcp.call(name, args)
  return { ...result, ms: Date.now() - started }
}

describe("a confirm() in the essential profile", () => {
  let mcp: TestClient
  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "essential" })
    await launchTasks(mcp)
  })
  afterAll(async () => {
    await mcp?.close()
  })

  it("every following page call fails within 1 s with DIALOG_OPEN, none succeeds, status shows the dialog; the snapshot shows its rows", async () => {
    const opened = await mcp.call("electron_click", { target: 'role=button[name="Delete Renew passport"]' })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.structured.dialog).toMatchObject({ type: "confirm", message: 'Delete "Renew passport"?', window: "w1" })
    // Essential has no electron_web_dialog: the dialog's rows are the way to answer it (issue 35).
    expect(opened.text).toMatch(/- button "OK" \[ref=d\d+\]/)
    for (const args of [{}, { since: "last" }]) {
      const shown = await timed(mcp, "electron_snapshot", args)
      expect(shown.isError, shown.text).toBe(false)
      expect(shown.ms).toBeLessThan(1_000)
      expect(shown.text).toContain("its page is blocked until the dialog below is answered")
      expect(shown.text).toMatch(/- button "Cancel" \[ref=d\d+\]/)
    }

    const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ["electron_press_key", { key: "a" }],
      ["electron_expect_text", { target: "testid=notice", text: "Deleted" }],
      ["electron_expect_visible", { target: "testid=notice" }],
      ["electron_expect_value", { target: "testid=search-input", value: "" }],
      ["electron_find", { target: "role=button" }],
      ["electron_click", { target: "testid=about-board" }],
      ["electron_fill", { target: "testid=search-input", value: "x" }],
      ["electron_fill_form", { fields: [{ target: "testid=search-input", value: "x" }] }],
      ["electron_type", { text: "abc" }],
      ["electron_select_option", { target: "testid=filter-select", values: ["open"] }],
      ["electron_check", { target: "testid=task-urgent-checkbox" }],
      ["electron_wait_for", { text: "Deleted" }]
    ]
    for (const [name, args] of calls) {
      const result = await timed(mcp, name, args)
      expect(result.isError, `${name}: ${result.text}`).toBe(true)
      expect(result.code, `${name}: ${result.text}`).toBe("DIALOG_OPEN")
      expect(result.ms, `${name} took ${result.ms} ms`).toBeLessThan(1_000)
      expect(result.text).toContain('confirm dialog is open in w1: "Delete "Renew passport"?"')
      expect(result.text).toContain("Hint: electron_snapshot shows it first with a ref per button: electron_click one")
    }

    const status = await timed(mcp, "electron_status")
    expect(status.isError).toBe(false)
    expect(status.ms).toBeLessThan(1_000)
    expect(status.text).toContain('dialog open: confirm "Delete "Renew passport"?" in w1')
    expect(status.structured.app.dialogs).toEqual([{ window: "w1", type: "confirm", message: 'Delete "Renew passport"?' }])

    const windows = await timed(mcp, "electron_windows")
    expect(windows.ms).toBeLessThan(1_000)
    expect(windows.text).toContain("(confirm dialog open)")

    const excluded = await mcp.call("electron_web_dialog", { action: "accept" })
    expect(excluded.code).toBe("TOOL_NOT_IN_PROFILE")
  })
})

describe("web dialogs in the full profile", () => {
  let mcp: TestClient
  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "full", allowEval: ["renderer"] })
    await launchTasks(mcp)
  })
  afterAll(async () => {
    await mcp?.close()
  })

  it("names electron_web_dialog, and the page works again once it is answered", async () => {
    const opened = await mcp.call("electron_click", { target: "testid=about-board" })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.structured.dialog).toMatchObject({ type: "alert" })
    expect(opened.text).toContain("Answer it with electron_web_dialog")
    const blocked = await timed(mcp, "electron_get_text", { target: "testid=notice" })
    expect(blocked.code).toBe("DIALOG_OPEN")
    expect(blocked.ms).toBeLessThan(1_000)
    expect(blocked.text).toContain("Hint: Answer it with electron_web_dialog")
    const answered = await mcp.call("electron_web_dialog", { action: "accept" })
    expect(answered.isError, answered.text).toBe(false)
    const notice = await mcp.call("electron_expect_text", { target: "testid=notice", text: "About board shown" })
    expect(notice.isError, notice.text).toBe(false)
    const status = await mcp.call("electron_status")
    expect(status.text).not.toContain("dialog open")
  })

  it("a dialog that opens during a call ends the call with DIALOG_OPEN instead of a timeout", async () => {
    // The page clicks its About button 300 ms from now, while a wait for a text that never comes runs (10 s).
    // (Not a key press: with a before-input-event listener in main, the stand-in replays keys after the call.)
    const scheduled = await mcp.call("electron_eval_renderer", {
      function: "() => { setTimeout(() => document.querySelector('[data-testid=about-board]').click(), 300) }"
    })
    expect(scheduled.isError, scheduled.text).toBe(false)
    const waited = await timed(mcp, "electron_wait_for", { text: "a text this app never shows", timeoutMs: 10_000 })
    expect(waited.code, waited.text).toBe("DIALOG_OPEN")
    expect(waited.text).toContain('An alert dialog is open in w1: "Board "My board": 42 tasks')
    expect(waited.ms).toBeLessThan(3_000)
    expect((await mcp.call("electron_web_dialog", { action: "dismiss" })).isError).toBe(false)
    expect((await mcp.call("electron_get_text", { target: "testid=board-name" })).text).toBe("My board")
  })
})
