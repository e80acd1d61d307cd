/**
 * electron_eval_main and native dialogs, which are held in the main process until the agent answers them: a
 * function that awaits the dialog it opens ends the call at once with DIALOG_OPEN and the dialog's rows (it would
 * otherwise wait out the call's whole bound), and clicking a row's ref lets the function go on; a function that
 * opens one without awaiting it answers with its value, and a dialog already held does not end a later evaluation.
 * electron_eval_renderer awaiting an IPC invoke whose handler awaits a message box ends the same way, and so does
 * the ipc plugin's electron_ipc_invoke of that channel.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

let mcp: TestClient

const refOf = (result: ToolCallOutcome, name: string): string => {
  const match = new RegExp(`- button "${name}" \\[ref=(d\\d+)\\]`).exec(result.text)
  expect(match, `no button "${name}" row in:\n${result.text}`).not.toBeNull()
  return match![1]!
}

const box = (message: string) => `BrowserWindow.getAllWindows()[0], { message: ${JSON.stringify(message)}, buttons: ["OK", "No"] }`

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["main", "renderer"], plugins: ["ipc"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
}, 60_000)

afterAll(async () => {
  await mcp?.close()
})

describe("electron_eval_main and the native dialogs it opens", () => {
  it("a function awaiting its message box ends at once with DIALOG_OPEN and the box's rows; clicking a row lets it go on", async () => {
    const started = Date.now()
    const waiting = await mcp.call("electron_eval_main", {
      function: `async ({ dialog, BrowserWindow }) => { globalThis.evalAnswer = (await dialog.showMessageBox(${box("Keep going?")})).response; return "done" }`
    })
    expect(waiting.code, waiting.text).toBe("DIALOG_OPEN")
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(waiting.text).toContain('The function opened a native message dialog, held in the main process until it is answered ("Keep going?")')
    expect(waiting.text).toMatch(/Hint: Answer it with electron_click on one of its refs above/)
    const clicked = await mcp.call("electron_click", { target: refOf(waiting, "No") })
    expect(clicked.isError, clicked.text).toBe(false)
    const answered = await mcp.call("electron_eval_main", { function: "() => globalThis.evalAnswer" })
    expect(answered.text).toBe("1")
  })

  it("electron_eval_renderer awaiting an IPC invoke that opens a message box ends at once with its rows", async () => {
    const waiting = await mcp.call("electron_eval_renderer", { function: "async () => (await window.api.showAbout())" })
    expect(waiting.code, waiting.text).toBe("DIALOG_OPEN")
    expect(waiting.text).toContain('The function opened a native message dialog, held in the main process until it is answered ("About Tasks: Tasks 1.4.0")')
    const clicked = await mcp.call("electron_click", { target: refOf(waiting, "Cancel") })
    expect(clicked.isError, clicked.text).toBe(false)
    expect((await mcp.call("electron_snapshot")).text).not.toContain("Tasks 1.4.0")
  })

  it("electron_ipc_invoke of a channel whose handler awaits a message box ends at once with its rows", async () => {
    const waiting = await mcp.call("electron_ipc_invoke", { channel: "dialog:about" })
    expect(waiting.code, waiting.text).toBe("DIALOG_OPEN")
    expect(waiting.text).toContain('The handler opened a native message dialog, held in the main process until it is answered ("About Tasks: Tasks 1.4.0")')
    expect(waiting.text).toMatch(/Hint: Answer it with electron_click on one of its refs above \(electron_snapshot lists it too\); the handler then goes on/)
    expect((await mcp.call("electron_click", { target: refOf(waiting, "Cancel") })).isError).toBe(false)
    expect((await mcp.call("electron_snapshot")).text).not.toContain("Tasks 1.4.0")
  })

  it("a function that opens a box without awaiting it answers with its value; the held box does not end a later evaluation", async () => {
    const opened = await mcp.call("electron_eval_main", {
      function: `({ dialog, BrowserWindow }) => { void dialog.showMessageBox(${box("Left open")}); return 7 }`
    })
    expect(opened.isError, opened.text).toBe(false)
    expect(opened.text).toBe("7")
    const later = await mcp.call("electron_eval_main", { function: "() => 6 * 7" })
    expect(later.isError, later.text).toBe(false)
    expect(later.text).toBe("42")
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.text).toContain('dialog "message box: Left open"')
    expect((await mcp.call("electron_click", { target: refOf(snapshot, "OK") })).isError).toBe(false)
    expect((await mcp.call("electron_snapshot")).text).not.toContain("Left open")
  })

  it("where the main process lacks the installed read (issue 42), a click's answer still reads its message box", async () => {
    const removed = await mcp.call("electron_eval_main", {
      function: "() => { delete globalThis.__stagewrightReadHeld; return typeof globalThis.__stagewrightReadHeld }"
    })
    expect(removed.text).toMatch(/^"undefined"/)
    for (const round of [1, 2]) {
      const clicked = await mcp.call("electron_click", { target: "testid=about-button" })
      expect(clicked.isError, clicked.text).toBe(false)
      expect(clicked.text, `round ${round}`).toContain('dialog "message box: About Tasks')
      expect((await mcp.call("electron_click", { target: refOf(clicked, "Cancel") })).isError).toBe(false)
    }
    expect((await mcp.call("electron_snapshot")).text).not.toContain("Tasks 1.4.0")
  })
})
