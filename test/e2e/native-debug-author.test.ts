/**
 * Electron-native, debug and authoring tools end to end on the `tasks` app, over the in-memory MCP
 * pair: one success and one failure each, and an exported session run with Playwright Test.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { runNode } from "../support/cli.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const outputDir = join(packageRoot(), "stagewright-output", `e2e-${process.pid}`)
let mcp: TestClient
let userData: string

const launchTasks = async (client: TestClient, data: string) => {
  const launched = await client.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: data } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await client.call("electron_wait_for", { target: "testid=late-panel" })
  expect(ready.isError, ready.text).toBe(false)
  // The tasks arrive through IPC, independently of the late panel's timer.
  const loaded = await client.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(loaded.isError, loaded.text).toBe(false)
}

type Called = Awaited<ReturnType<TestClient["call"]>>

/** Calls `tool` until `done` holds for its result (effects that land after an IPC round trip), 10 s at most. */
const until = (client: TestClient, tool: string, args: Record<string, unknown>, done: (result: Called) => boolean) =>
  Effect.runPromise(callUntil(client, tool, args, done))

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true })
  mcp = await inMemoryClient({ outputDir })
  userData = freshUserData()
  await launchTasks(mcp, userData)
})

afterAll(async () => {
  await mcp?.close()
  rmSync(outputDir, { recursive: true, force: true })
})

describe("native tools", () => {
  it("electron_menu shows the application menu tree", async () => {
    const menu = await mcp.call("electron_menu")
    expect(menu.isError, menu.text).toBe(false)
    expect(menu.text).toMatch(/^File$/m)
    expect(menu.text).toMatch(/New Task \[id=new-task, CmdOrCtrl\+N\]/)
    expect(menu.text).toMatch(/Quit \[role=quit(, Co(mmand|md)OrC(ontrol|trl)\+Q)?\]/)
    const extra = await mcp.call("electron_menu", { depth: 1 })
    expect(extra.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_menu_click triggers items by id and by label path; a missing item lists the nearest", async () => {
    const byId = await mcp.call("electron_menu_click", { id: "new-task" })
    expect(byId.isError, byId.text).toBe(false)
    expect((await mcp.call("electron_expect_text", { target: "testid=notice", text: "Ready for a new task" })).isError).toBe(false)
    const byPath = await mcp.call("electron_menu_click", { path: ["View", "Toggle Theme"] })
    expect(byPath.isError, byPath.text).toBe(false)
    expect((await mcp.call("electron_expect_text", { target: "testid=theme-indicator", text: "Theme: dark" })).isError).toBe(false)
    await mcp.call("electron_menu_click", { id: "toggle-theme" })
    const missing = await mcp.call("electron_menu_click", { id: "new-tsk" })
    expect(missing.code).toBe("ELEMENT_NOT_FOUND")
    expect(missing.text).toContain("New Task")
    const submenu = await mcp.call("electron_menu_click", { path: ["File"] })
    expect(submenu.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_dialog_stub answers native dialogs, records the calls, and restores", async () => {
    const file = join(userData, "import.json")
    writeFileSync(file, JSON.stringify([{ title: "Imported one" }, { title: "Imported two" }]))
    const set = await mcp.call("electron_dialog_stub", {
      action: "set",
      rules: [
        { kind: "open", answer: { filePaths: [file] } },
        { kind: "message", match: "Tasks", answer: { response: 1 } }
      ]
    })
    expect(set.isError, set.text).toBe(false)
    await mcp.call("electron_click", { target: "testid=open-file-button" })
    expect((await mcp.call("electron_expect_text", { target: "testid=dialog-result", text: `Imported 2 tasks from ${file}` })).isError).toBe(false)
    await mcp.call("electron_click", { target: "testid=about-button" })
    expect((await mcp.call("electron_expect_text", { target: "testid=notice", text: 'Copied "Tasks 1.4.0" to the clipboard' })).isError).toBe(false)
    const list = await mcp.call("electron_dialog_stub", { action: "list" })
    expect(list.text).toMatch(/showOpenDialog.*: stub/)
    expect(list.structured.calls).toHaveLength(2)
    const strict = await mcp.call("electron_dialog_stub", { action: "set", strict: true })
    expect(strict.isError).toBe(false)
    await mcp.call("electron_click", { target: "testid=save-as-button" })
    const refused = await until(mcp, "electron_dialog_stub", { action: "list" }, (r) => /showSaveDialog.*: refused/.test(r.text))
    expect(refused.text).toMatch(/showSaveDialog.*: refused/)
    const restored = await mcp.call("electron_dialog_stub", { action: "restore" })
    expect(restored.text).toContain("Real dialogs restored.")
    const bad = await mcp.call("electron_dialog_stub", { action: "set" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_clipboard writes and reads text", async () => {
    const written = await mcp.call("electron_clipboard", { action: "write", text: "from the agent" })
    expect(written.isError, written.text).toBe(false)
    const read = await mcp.call("electron_clipboard", { action: "read" })
    expect(read.text).toBe("from the agent")
    const bad = await mcp.call("electron_clipboard", { action: "write" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })
})

describe("debug tools", () => {
  it("electron_console reads renderer and main messages with a level filter and a cursor", async () => {
    const all = await mcp.call("electron_console", { limit: 200 })
    expect(all.isError, all.text).toBe(false)
    expect(all.text).toContain("[tasks] renderer starting")
    const warnings = await mcp.call("electron_console", { level: "warning", source: "renderer", limit: 200 })
    expect(warnings.text).toMatch(/tasks are overdue/)
    expect(warnings.text).not.toContain("renderer starting")
    const cursor = all.structured.cursor as number
    await mcp.call("electron_click", { target: "testid=ping-button" })
    // The ping's messages come after an IPC round trip: they may land a moment after the click returns.
    const fresh = await until(mcp, "electron_console", { cursor }, (r) => r.structured.messages.length > 0)
    expect(fresh.structured.messages.length).toBeGreaterThan(0)
    expect(fresh.structured.messages.every((m: { seq: number }) => m.seq > cursor)).toBe(true)
    const bad = await mcp.call("electron_console", { level: "verbose" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_errors reports the page error of the throwing button", async () => {
    const before = (await mcp.call("electron_errors")).structured.cursor as number
    await mcp.call("electron_click", { target: "testid=crash-button" })
    const errors = await until(mcp, "electron_errors", { cursor: before }, (r) => r.structured.errors.length > 0)
    expect(errors.text).toContain("Crash handler button: simulated uncaught error")
    expect(errors.structured.errors[0]).toMatchObject({ kind: "pageerror", window: "w1" })
    const bad = await mcp.call("electron_errors", { cursor: -1 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_requests lists the local fetches, filtered by URL and failure", async () => {
    await mcp.call("electron_click", { target: "testid=load-quote" })
    await mcp.call("electron_expect_text", { target: "testid=quote-result", text: "Dijkstra" })
    await mcp.call("electron_click", { target: "testid=load-broken" })
    await mcp.call("electron_expect_text", { target: "testid=quote-result", text: "Quote failed" })
    const quote = await mcp.call("electron_requests", { url: "/api/quote" })
    expect(quote.text).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/quote → 200/)
    const failed = await until(mcp, "electron_requests", { failed: true }, (r) => /\/api\/broken → 500/.test(r.text))
    expect(failed.text).toMatch(/\/api\/broken → 500/)
    expect(failed.text).not.toContain("/api/quote")
    const bad = await mcp.call("electron_requests", { status: 99 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_metrics reports processes and page performance", async () => {
    const metrics = await mcp.call("electron_metrics")
    expect(metrics.isError, metrics.text).toBe(false)
    expect(metrics.structured.processes.length).toBeGreaterThan(0)
    expect(metrics.structured.page.domNodes).toBeGreaterThan(100)
    const bad = await mcp.call("electron_metrics", { window: "w1" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_inspect shows an element's HTML, box and styles", async () => {
    const inspected = await mcp.call("electron_inspect", { target: "testid=add-task-button", styles: ["display", "cursor"] })
    expect(inspected.isError, inspected.text).toBe(false)
    expect(inspected.structured.html).toContain("Add task")
    expect(inspected.structured.box.width).toBeGreaterThan(0)
    expect(Object.keys(inspected.structured.styles)).toEqual(["display", "cursor"])
    const missing = await mcp.call("electron_inspect", { target: "testid=nothing", timeoutMs: 300 })
    expect(missing.code).toBe("ELEMENT_NOT_FOUND")
  })

  it("electron_trace_start / electron_trace_stop write a trace.zip in the output folder", async () => {
    const notRunning = await mcp.call("electron_trace_stop")
    expect(notRunning.code).toBe("INVALID_ARGUMENT")
    const started = await mcp.call("electron_trace_start")
    expect(started.isError, started.text).toBe(false)
    const twice = await mcp.call("electron_trace_start")
    expect(twice.code).toBe("OPERATION_FAILED")
    await mcp.call("electron_click", { target: "testid=ping-button" })
    const stopped = await mcp.call("electron_trace_stop", { name: "ping" })
    expect(stopped.isError, stopped.text).toBe(false)
    const path = stopped.structured.path as string
    expect(path).toBe(join(outputDir, "ping.zip"))
    expect(readFileSync(path).subarray(0, 2).toString()).toBe("PK")
    const escape = await mcp.call("electron_trace_start")
    expect(escape.isError).toBe(false)
    const outside = await mcp.call("electron_trace_stop", { name: "../../escape.zip" })
    expect(outside.code).toBe("PATH_NOT_ALLOWED")
    await mcp.call("electron_trace_stop", { name: "ok" })
  })
})

describe("authoring tools", () => {
  it("electron_generate_locator turns a ref into resilient locator code", async () => {
    const found = await mcp.call("electron_find", { target: "testid=add-task-button" })
    const ref = found.structured.items[0].ref as string
    const generated = await mcp.call("electron_generate_locator", { target: ref })
    expect(generated.isError, generated.text).toBe(false)
    expect(generated.structured.code).toMatch(/^window\.getBy(Role\('button', \{ name: 'Add task' \}\)|TestId\('add-task-button'\))$/)
    const stale = await mcp.call("electron_generate_locator", { target: "e99999" })
    expect(stale.code).toBe("REF_STALE")
  })

  // Playwright Test's defaults (30 s a test, 5 s an expect) are tight for a launch while this fork and the
  // other one run their own apps on two cores.
  const runExport = (file: string) => {
    const config = join(outputDir, "replay.config.mjs")
    writeFileSync(config, "export default { timeout: 120_000, expect: { timeout: 15_000 } }\n")
    return runNode(
      [
        join(packageRoot(), "node_modules", "@playwright", "test", "cli.js"),
        "test",
        file,
        `--config=${config}`,
        "--reporter=line",
        "--workers=1",
        `--output=${join(outputDir, "results")}`
      ],
      { cwd: outputDir, timeoutMs: 240_000, env: { ...process.env, CI: "1" } }
    )
  }

  it("electron_export_test writes a Playwright test that passes, and one whose assertion no longer holds fails", async () => {
    // A fresh session: its recorded steps are exactly what this test does.
    const exportData = freshUserData()
    const session = await inMemoryClient({ outputDir })
    try {
      await launchTasks(session, exportData)
      await session.call("electron_fill_form", {
        fields: [
          { target: "label=Title", value: "Exported task" },
          { target: "testid=task-priority-select", value: "low" }
        ]
      })
      await session.call("electron_click", { target: 'role=button[name="Add task"]' })
      await session.call("electron_expect_text", { target: "testid=notice", text: 'Added "Exported task"' })
      // Electron has no prompt(): Rename board shows the app's inline form; a confirm is the web dialog recorded.
      await session.call("electron_click", { target: "testid=rename-board" })
      await session.call("electron_fill", { target: "label=Board name", value: "Exported board" })
      await session.call("electron_click", { target: 'role=button[name="Save name"]' })
      await session.call("electron_expect_text", { target: "testid=board-name", text: "Exported board", exact: true })
      await session.call("electron_click", { target: 'role=button[name="Delete Renew passport"]' })
      await session.call("electron_web_dialog", { action: "accept" })
      await session.call("electron_expect_text", { target: "testid=notice", text: 'Deleted "Renew passport"' })
      await session.call("electron_click", { target: "testid=open-settings" })
      await session.call("electron_wait_for_window", { title: "Settings" })
      await session.call("electron_expect_visible", { target: "testid=theme-select" })
      const exported = await session.call("electron_export_test", { name: "passing" })
      expect(exported.isError, exported.text).toBe(false)
      const file = exported.structured.path as string
      expect(file).toBe(join(outputDir, "passing.spec.ts"))
      const code = readFileSync(file, "utf8")
      expect(code).toContain("_electron.launch")
      expect(code).toContain('window.once("dialog", (dialog) => dialog.accept())')
      expect(code).toMatch(/window = await windowWithUrl\(app, ".*settings\.html"\)/)
      // The replay must start from the same state the session started from.
      rmSync(exportData, { recursive: true, force: true })
      mkdirSync(exportData)
      const pass = await runExport("passing.spec.ts")
      expect(pass.status, pass.stdout + pass.stderr).toBe(0)
      expect(pass.stdout).toMatch(/1 passed/)

      // Second session: asserts the task count, which the first replay's saved task changes.
      await session.call("electron_close")
      const staleData = freshUserData()
      await launchTasks(session, staleData)
      await session.call("electron_expect_count", { target: "testid=task-row", count: 42 })
      await session.call("electron_fill", { target: "label=Title", value: "One more" })
      await session.call("electron_click", { target: 'role=button[name="Add task"]' })
      await session.call("electron_expect_count", { target: "testid=task-row", count: 43 })
      const second = await session.call("electron_export_test", { name: "stale.spec.ts" })
      expect(second.isError, second.text).toBe(false)
      // Without resetting userData, the board now starts with 43 tasks: the first assertion no longer holds.
      const fail = await runExport("stale.spec.ts")
      expect(fail.status).not.toBe(0)
      expect(fail.stdout).toMatch(/1 failed/)
      expect(fail.stdout).toMatch(/toHaveCount/)
      expect(existsSync(join(staleData, "tasks.json"))).toBe(true)
    } finally {
      await session.close()
    }
  }, 300_000)

  it("electron_export_test refuses an empty session and an escaping name", async () => {
    const fresh = await inMemoryClient({ outputDir })
    try {
      const none = await fresh.call("electron_export_test")
      expect(none.code).toBe("APP_NOT_RUNNING")
      const escaping = await mcp.call("electron_export_test", { name: "../../../tmp/evil.spec.ts" })
      expect(escaping.code).toBe("PATH_NOT_ALLOWED")
    } finally {
      await fresh.close()
    }
  })
})
