/**
 * The ipc plugin end to end on the `tasks` app over the in-memory MCP pair: handlers and listeners, the
 * traffic log in both directions (the app's own load and save), invoke, mock (seen by the real renderer
 * path), clear the mocks, send to a window; bad input on each; and the hint of a plugin that is not loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, waitForExit, type TestClient } from "../support/mcp.js"
import { startForAttach } from "../support/attach.js"

let mcp: TestClient

type Called = Awaited<ReturnType<TestClient["call"]>>

/** Calls `tool` until `done` holds (effects that land after an IPC round trip), 10 s at most. */
const until = async (tool: string, args: Record<string, unknown>, done: (result: Called) => boolean) => {
  let result = await mcp.call(tool, args)
  for (let i = 0; i < 100 && !done(result); i++) {
    await new Promise((r) => setTimeout(r, 100))
    result = await mcp.call(tool, args)
  }
  return result
}

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["ipc"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(ready.isError, ready.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("ipc plugin on tasks", () => {
  it("electron_ipc_handlers lists handle channels and on listeners, filtered by channel", async () => {
    const all = await mcp.call("electron_ipc_handlers")
    expect(all.isError, all.text).toBe(false)
    expect(all.text).toMatch(/^tasks:load: handle$/m)
    expect(all.text).toMatch(/^tasks:save: handle$/m)
    expect(all.text).toMatch(/^app:log: on ×1$/m)
    const tasks = await mcp.call("electron_ipc_handlers", { channel: "tasks:" })
    expect(tasks.structured.channels.map((c: { channel: string }) => c.channel)).toEqual(["tasks:load", "tasks:save"])
    const bad = await mcp.call("electron_ipc_handlers", { channel: 5 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_ipc_log records the app's own load (registered before the hook) and save, with window, size and reply", async () => {
    // The hook is installed once the launch is done: a reload makes the page load its board again.
    expect((await mcp.call("electron_reload")).isError).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
    const start = await until("electron_ipc_log", { channel: "tasks:load" }, (r) => r.structured?.entries?.length > 0)
    expect(start.isError, start.text).toBe(false)
    expect(start.text).toMatch(/w1 → main invoke tasks:load \[\] \(2 B\) ⇒ \{"version":1,"board":\{"name":"My board"\},"tasks":\[.*… \(\d{4,} B\) \d+ ms$/m)
    const cursor = start.structured.cursor as number
    expect((await mcp.call("electron_fill", { target: "testid=task-title-input", value: "Logged over IPC" })).isError).toBe(false)
    expect((await mcp.call("electron_click", { target: "testid=add-task-button" })).isError).toBe(false)
    const saved = await until("electron_ipc_log", { cursor, channel: "tasks:save" }, (r) => r.structured?.entries?.length > 0)
    expect(saved.isError, saved.text).toBe(false)
    const entry = saved.structured.entries[0]
    expect(entry).toMatchObject({ channel: "tasks:save", dir: "in", kind: "invoke", window: "w1" })
    expect(entry.size).toBeGreaterThan(1000)
    expect(entry.preview).toContain("Logged over IPC")
    expect(entry.result.preview).toMatch(/"ok":true.*"count":43/)
    expect(saved.text).toMatch(/w1 → main invoke tasks:save \[\{.*\(\d+ B\) ⇒ \{"ok":true/)
    const bad = await mcp.call("electron_ipc_log", { direction: "sideways" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_ipc_send delivers a main → renderer message the page reacts to, and the log shows it going out", async () => {
    const sent = await mcp.call("electron_ipc_send", { channel: "menu:command", args: [{ id: "new-task" }] })
    expect(sent.isError, sent.text).toBe(false)
    expect(sent.text).toBe('Sent menu:command to w1 with [{"id":"new-task"}].')
    const shown = await mcp.call("electron_expect_text", { target: "testid=notice", text: "Ready for a new task" })
    expect(shown.isError, shown.text).toBe(false)
    const out = await mcp.call("electron_ipc_log", { direction: "out", channel: "menu:command" })
    expect(out.text).toMatch(/main → w1 send menu:command \[\{"id":"new-task"\}\]/)
    const missing = await mcp.call("electron_ipc_send", { channel: "menu:command", window: "w9" })
    expect(missing.code).toBe("WINDOW_NOT_FOUND")
    const badId = await mcp.call("electron_ipc_send", { channel: "menu:command", window: "main" })
    expect(badId.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_ipc_invoke calls a handler as the window's renderer would and shows the reply; an unknown channel lists the handled ones", async () => {
    const ping = await mcp.call("electron_ipc_invoke", { channel: "app:ping", args: ["x"] })
    expect(ping.isError, ping.text).toBe(false)
    expect(ping.text).toMatch(/^app:ping from w1, \d+ ms: replied "pong:x"$/)
    const load = await mcp.call("electron_ipc_invoke", { channel: "tasks:load" })
    expect(load.structured.value.tasks).toHaveLength(43)
    expect(load.structured.value.source).toBe("file")
    const throws = await mcp.call("electron_ipc_invoke", { channel: "tasks:save", args: [{}] })
    expect(throws.isError).toBe(false)
    expect(throws.text).toContain(
      "the handler threw; the renderer would get: Error invoking remote method 'tasks:save': Error: tasks:save expects { board, tasks: [] }"
    )
    const logged = await mcp.call("electron_ipc_log", { channel: "app:ping" })
    expect(logged.text).toMatch(/w1 → main invoke app:ping \["x"\].*\[via electron_ipc_invoke\]/)
    const unknown = await mcp.call("electron_ipc_invoke", { channel: "tasks:nope" })
    expect(unknown.code).toBe("INVALID_ARGUMENT")
    expect(unknown.text).toContain("tasks:load")
    const badArgs = await mcp.call("electron_ipc_invoke", { channel: "app:ping", args: "x" })
    expect(badArgs.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_ipc_mock answers the renderer's own invoke with a fixed result or error; electron_ipc_clear_mocks restores the app's handlers", async () => {
    const mocked = await mcp.call("electron_ipc_mock", { channel: "app:ping", result: "mocked!" })
    expect(mocked.isError, mocked.text).toBe(false)
    expect(mocked.text).toContain('app:ping now reply "mocked!"')
    expect((await mcp.call("electron_ipc_handlers", { channel: "app:ping" })).text).toMatch(/^app:ping: handle, MOCKED$/m)
    expect((await mcp.call("electron_click", { target: "testid=ping-button" })).isError).toBe(false)
    const seen = await mcp.call("electron_expect_text", { target: "testid=ping-result", text: "mocked!" })
    expect(seen.isError, seen.text).toBe(false)
    const failing = await mcp.call("electron_ipc_mock", { channel: "tasks:save", error: "disk full" })
    expect(failing.isError, failing.text).toBe(false)
    const refused = await mcp.call("electron_ipc_invoke", { channel: "tasks:save", args: [{ tasks: [] }] })
    expect(refused.text).toContain("(mocked)")
    expect(refused.text).toContain("Error: disk full")
    const ghost = await mcp.call("electron_ipc_mock", { channel: "tasks:ghost", result: { ok: 1 } })
    expect(ghost.text).toContain("the app registers no handler for it")
    expect((await mcp.call("electron_ipc_handlers", { channel: "ghost" })).text).toMatch(/^tasks:ghost: MOCKED$/m)
    expect((await mcp.call("electron_ipc_invoke", { channel: "tasks:ghost" })).text).toMatch(/\(mocked\), \d+ ms: replied \{"ok":1\}$/)
    const cleared = await mcp.call("electron_ipc_clear_mocks")
    expect(cleared.isError, cleared.text).toBe(false)
    expect(cleared.text).toBe(
      "Cleared app:ping (answered 1 call), tasks:save (answered 1 call), tasks:ghost (answered 1 call); the app's handlers answer again."
    )
    expect((await mcp.call("electron_ipc_invoke", { channel: "tasks:ghost" })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_click", { target: "testid=ping-button" })).isError).toBe(false)
    const real = await mcp.call("electron_expect_text", { target: "testid=ping-result", text: "pong:hello" })
    expect(real.isError, real.text).toBe(false)
    const both = await mcp.call("electron_ipc_mock", { channel: "app:ping", result: 1, error: "x" })
    expect(both.code).toBe("INVALID_ARGUMENT")
    const neither = await mcp.call("electron_ipc_mock", { channel: "app:ping" })
    expect(neither.code).toBe("INVALID_ARGUMENT")
    const notMocked = await mcp.call("electron_ipc_clear_mocks", { channel: "app:ping" })
    expect(notMocked.code).toBe("INVALID_ARGUMENT")
  })
})

describe("ipc plugin not loaded", () => {
  it("its tools answer PLUGIN_NOT_LOADED with the restart hint", async () => {
    const bare = await inMemoryClient()
    try {
      const result = await bare.call("electron_ipc_log")
      expect(result.code).toBe("PLUGIN_NOT_LOADED")
      expect(result.text).toContain("restart with --plugin ipc")
    } finally {
      await bare.close()
    }
  })
})

describe("ipc plugin on an attached app", () => {
  it("answers NEEDS_MAIN_PROCESS without the inspector, and records traffic once attached with it (the hook installs at attach)", async () => {
    const app = await startForAttach()
    const client = await inMemoryClient({ plugins: ["ipc"] })
    try {
      const windowsOnly = await client.call("electron_attach", { cdpUrl: app.cdp })
      expect(windowsOnly.isError, windowsOnly.text).toBe(false)
      for (const [tool, args] of [
        ["electron_ipc_handlers", {}],
        ["electron_ipc_log", {}],
        ["electron_ipc_invoke", { channel: "app:ping" }],
        ["electron_ipc_mock", { channel: "app:ping", result: 1 }],
        ["electron_ipc_send", { channel: "x" }],
        ["electron_ipc_clear_mocks", {}]
      ] as const) {
        const result = await client.call(tool, args)
        expect(result.code, `${tool}: ${result.text}`).toBe("NEEDS_MAIN_PROCESS")
        expect(result.text).toContain("inspectorUrl")
      }
      const full = await client.call("electron_attach", { cdpUrl: app.cdp, inspectorUrl: app.inspector })
      expect(full.structured.mainProcess, full.text).toBe(true)
      expect((await client.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
      expect((await client.call("electron_click", { target: "testid=ping-button" })).isError).toBe(false)
      expect((await client.call("electron_expect_text", { target: "testid=ping-result", text: "pong:hello" })).isError).toBe(false)
      const log = await client.call("electron_ipc_log", { channel: "app:ping" })
      expect(log.text).toMatch(/w1 → main invoke app:ping \["hello"\] \(9 B\) ⇒ "pong:hello"/)
      expect((await client.call("electron_close")).isError).toBe(false)
    } finally {
      await client.close()
      try {
        process.kill(-app.child.pid!, "SIGKILL")
      } catch {
        // already gone
      }
      await waitForExit(app.child.pid!)
    }
  })
})
