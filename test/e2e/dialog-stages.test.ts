/**
 * Issue 24, item 1 end to end: every tool, core or plugin (first-party and third-party), runs through the
 * same stages (src/tools/pipeline/guard.ts). With a confirm() that opens while the call waits, a core action
 * (electron_click waiting for an element), electron_fill_form, a perf plugin tool and a third-party
 * plugin's tool each answer DIALOG_OPEN naming the dialog, long before the operation bound (20 s) and
 * their own waits (15 s). With a confirm already open, plugin tools answer DIALOG_OPEN with the way to
 * answer it in the active profile. A drag whose source matches nothing is told what is near the source.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { fileURLToPath } from "node:url"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const PAGE_PLUGIN = fileURLToPath(new URL("../fixtures/plugins/page-plugin.mjs", import.meta.url))
const OPERATION_TIMEOUT = 20_000

const launchTasks = async (mcp: TestClient) => {
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const loaded = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
}

describe("a dialog that opens during the call (full profile)", () => {
  let mcp: TestClient
  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "full", allowEval: ["renderer"], operationTimeoutMs: OPERATION_TIMEOUT, plugins: ["perf", PAGE_PLUGIN] })
    await launchTasks(mcp)
  })
  afterAll(async () => {
    await mcp?.close()
  })

  const calls: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ["electron_click", { target: "testid=never-there", timeoutMs: 15_000 }],
    [
      "electron_fill_form",
      {
        fields: [
          { target: "testid=task-title-input", value: "a" },
          { target: "testid=never-there", value: "x" }
        ],
        timeoutMs: 15_000
      }
    ],
    ["electron_perf_long_tasks", { durationMs: 15_000 }],
    ["pagewait_title", { ms: 15_000 }]
  ]

  for (const [name, args] of calls) {
    it(`${name} answers DIALOG_OPEN, not a timeout, and the page works once the dialog is answered`, async () => {
      // The page opens a confirm 2 s from now, while the call waits (past an action's first 1 s attempt,
      // during which a dialog counts as the action's own).
      const scheduled = await mcp.call("electron_eval_renderer", {
        function: "() => { setTimeout(() => { window.stageAnswer = confirm('Stage test?') }, 2000) }"
      })
      expect(scheduled.isError, scheduled.text).toBe(false)
      const started = Date.now()
      const result = await mcp.call(name, args)
      const elapsed = Date.now() - started
      // The figure for the report (dialog to answer: elapsed - 2000 ms); not asserted.
      console.log(`${name}: DIALOG_OPEN ${elapsed - 2_000} ms after the dialog opened (${elapsed} ms in all)`)
      expect(result.isError, result.text).toBe(true)
      expect(result.code, result.text).toBe("DIALOG_OPEN")
      expect(result.text).toContain('A confirm dialog is open in w1: "Stage test?"')
      expect(result.text).toContain("Hint: Answer it with electron_web_dialog")
      expect(result.structured.error).toMatchObject({ window: "w1", dialog: "confirm", dialogMessage: "Stage test?" })
      const dismissed = await mcp.call("electron_web_dialog", { action: "dismiss" })
      expect(dismissed.isError, dismissed.text).toBe(false)
      expect(dismissed.text).toContain('Dismissed the confirm "Stage test?"')
      expect((await mcp.call("electron_get_text", { target: "testid=board-name" })).text).toBe("My board")
    })
  }

  it("an action that opens a dialog itself still answers with it (its own dialog is its result)", async () => {
    const opened = await mcp.call("electron_click", { target: "testid=about-board" })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.structured.dialog).toMatchObject({ type: "alert", window: "w1" })
    expect((await mcp.call("electron_web_dialog", { action: "accept" })).isError).toBe(false)
  })

  it("a drag whose source matches nothing is told what is near the source; one whose target matches nothing, the target", async () => {
    const source = await mcp.call("electron_drag", { source: 'role=button[name="Edit Renew"]', target: "testid=task-row >> nth=2", timeoutMs: 500 })
    expect(source.code, source.text).toBe("ELEMENT_NOT_FOUND")
    expect(source.text).toMatch(/Hint: source matches nothing\. Near: button "Edit Renew passport" \[ref=e\d+\]/)
    expect(source.text).toContain('role=button[name*="Edit Renew"] matches part of it')
    expect(source.text).not.toContain("target matches nothing")
    const target = await mcp.call("electron_drag", { source: "testid=task-row >> nth=0", target: 'role=button[name="Edit Renew"]', timeoutMs: 500 })
    expect(target.code, target.text).toBe("ELEMENT_NOT_FOUND")
    expect(target.text).toMatch(/Hint: target matches nothing\. Near: button "Edit Renew passport" \[ref=e\d+\]/)
    expect(target.text).not.toContain("source matches nothing")
  })
})

describe("a dialog already open (essential profile)", () => {
  let mcp: TestClient
  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "essential", operationTimeoutMs: OPERATION_TIMEOUT, plugins: ["a11y", "perf", "emulation", PAGE_PLUGIN] })
    await launchTasks(mcp)
  })
  afterAll(async () => {
    await mcp?.close()
  })

  it("plugin tools answer DIALOG_OPEN with how to answer it in this profile", async () => {
    const opened = await mcp.call("electron_click", { target: 'role=button[name="Delete Renew passport"]' })
    expect(opened.structured.dialog).toMatchObject({ type: "confirm", window: "w1" })
    // The perf and emulation tools read every window (Windows.every): the blocked one fails them at once.
    const tools = [
      ["electron_a11y_audit", {}],
      ["pagewait_title", { ms: 0 }],
      ["electron_perf_startup", {}],
      ["electron_emulation_theme", {}]
    ] as const
    for (const [name, args] of tools) {
      const result = await mcp.call(name, args)
      expect(result.code, `${name}: ${result.text}`).toBe("DIALOG_OPEN")
      expect(result.text).toContain('confirm dialog is open in w1: "Delete "Renew passport"?"')
      expect(result.text).toContain("Hint: electron_snapshot shows it first with a ref per button: electron_click one")
    }
  })
})
