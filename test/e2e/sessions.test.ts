/**
 * Several apps at once over the in-memory MCP pair: named app sessions of the `tasks` app (each its own
 * userData folder), each with its own windows, refs and buffers; the active one is what tools act on; the
 * bound on sessions per server; and a second instance of a single-instance app raising `second-instance` in
 * the first.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const tasks = sampleAppPath("tasks")

const rows = async (mcp: TestClient): Promise<number> => {
  const found = await mcp.call("electron_find", { target: "testid=task-row", limit: 1 })
  expect(found.isError, found.text).toBe(false)
  return found.structured.count as number
}

describe("two sessions of the tasks app", () => {
  let mcp: TestClient

  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "full", maxApps: 2 })
  })

  afterAll(async () => {
    await mcp?.close()
  })

  it("launches two named sessions; electron_status lists both, the newest active", async () => {
    const a = await mcp.call("electron_launch", { app: tasks, session: "a", env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(a.isError, a.text).toBe(false)
    expect(a.text).toContain("as session a")
    expect((await mcp.call("electron_wait_for", { target: "testid=task-row" })).isError).toBe(false)
    const b = await mcp.call("electron_launch", { app: tasks, session: "b", env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(b.isError, b.text).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: "testid=task-row" })).isError).toBe(false)
    const status = await mcp.call("electron_status")
    expect(status.structured.sessions).toEqual([
      expect.objectContaining({ name: "a", active: false, state: "running", kind: "launched" }),
      expect.objectContaining({ name: "b", active: true, state: "running", kind: "launched" })
    ])
    expect(status.structured.sessions[0].pid).not.toBe(status.structured.sessions[1].pid)
    expect(status.text).toMatch(/^sessions: a running \(pid \d+\), \*b running \(pid \d+\)$/m)
    expect(status.text).toMatch(/^app: running \(pid \d+\), session b$/m)
  })

  it("a third session is refused past --max-apps, naming the bound", async () => {
    const c = await mcp.call("electron_launch", { app: tasks, session: "c", env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(c.code).toBe("LAUNCH_FAILED")
    expect(c.text).toContain("already holds 2 app sessions (a, b), its bound (--max-apps 2)")
    expect(c.text).toContain("electron_select_window session=NAME, then electron_close")
    expect((await mcp.call("electron_status")).structured.sessions.map((s: { name: string }) => s.name)).toEqual(["a", "b"])
  })

  it("an action in one session leaves the other unchanged; refs stay with their session", async () => {
    const before = await rows(mcp)
    const snapshotB = await mcp.call("electron_snapshot")
    const addB = /button "Add task" \[ref=(e\d+)\]/.exec(snapshotB.text)?.[1]
    expect(addB).toBeDefined()
    const filled = await mcp.call("electron_fill", { target: "label=Title", value: "Only in b" })
    expect(filled.isError, filled.text).toBe(false)
    expect((await mcp.call("electron_click", { target: addB })).isError).toBe(false)
    expect((await mcp.call("electron_expect_count", { target: "testid=task-row", count: before + 1 })).isError).toBe(false)
    const switched = await mcp.call("electron_select_window", { session: "a" })
    expect(switched.isError, switched.text).toBe(false)
    expect(switched.text).toMatch(/^Active window: \* w1 "Tasks/)
    // Session a has not been snapshotted: b's ref means nothing here.
    const stale = await mcp.call("electron_click", { target: addB })
    expect(stale.code).toBe("REF_STALE")
    expect(stale.text).toContain("window w1 has no snapshot yet")
    expect(await rows(mcp)).toBe(before)
    expect((await mcp.call("electron_get_text", { target: "testid=task-title", all: true })).text).not.toContain("Only in b")
    const consoleA = await mcp.call("electron_console", { text: "Only in b" })
    expect(consoleA.structured.messages).toEqual([])
  })

  it("closing one session leaves the other running and active", async () => {
    expect((await mcp.call("electron_select_window", { session: "a" })).isError).toBe(false)
    const closed = await mcp.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    expect(closed.structured).toMatchObject({ session: "a", sessions: ["b"], active: "b" })
    const status = await mcp.call("electron_status")
    expect(status.structured.sessions).toEqual([expect.objectContaining({ name: "b", active: true, state: "running" })])
    expect(await rows(mcp)).toBeGreaterThan(0)
    expect((await mcp.call("electron_select_window", { session: "a" })).code).toBe("APP_NOT_RUNNING")
  })
})

describe("a single-instance app", () => {
  let mcp: TestClient

  beforeAll(async () => {
    mcp = await inMemoryClient({ toolProfile: "full" })
  })

  afterAll(async () => {
    await mcp?.close()
  })

  it("a second instance with the same userData quits and hands its argv to the first, which raises second-instance", async () => {
    const userData = freshUserData()
    const env = { SAMPLE_APP_USER_DATA: userData, SAMPLE_APP_SINGLE_INSTANCE: "1" }
    const first = await mcp.call("electron_launch", { app: tasks, session: "first", env })
    expect(first.isError, first.text).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: "testid=task-row" })).isError).toBe(false)
    const second = await mcp.call("electron_launch", { app: tasks, session: "second", env, args: ["--from-second", "open-report"], timeoutMs: 15_000 })
    expect(second.code).toBe("LAUNCH_FAILED")
    const status = await mcp.call("electron_status")
    expect(status.structured.sessions).toEqual([expect.objectContaining({ name: "first", active: true, state: "running" })])
    const raised = await mcp.call("electron_wait_for", { text: 'second-instance ["--from-second","open-report"]' })
    expect(raised.isError, raised.text).toBe(false)
  })
})
