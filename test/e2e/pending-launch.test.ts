/**
 * A launch still waiting for an app that is slow to open its window (the tasks app with
 * SAMPLE_APP_HOLD_WINDOW=1 never opens one) ends every process it started at once — long before the
 * launch's own timeout — when the call is cancelled, when the client leaves (the stdio server's stdin
 * closes), and when the server exits.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { sampleAppPath } from "../../src/samples.js"
import { CLI } from "../support/cli.js"
import { electronChoice, freshUserData } from "../support/mcp.js"
import { descendants, isAlive, waitAllGone } from "../support/processes.js"

/** The launch's own bound (the server is started with a cap above it): every process must be gone long before it. */
const LAUNCH_TIMEOUT_MS = 90_000
/** What "at once" allows on a loaded machine: a group kill and the exits it causes. */
const AT_ONCE_MS = 10_000

/**
 * The two ways an app is slow: its main script blocks before anything (playwright-core's launch itself is
 * pending), or it starts and never opens its window (the launch waits for the first window).
 */
const PHASES = {
  "slow to start": { SAMPLE_APP_HOLD_START_MS: String(LAUNCH_TIMEOUT_MS) },
  "slow to open its window": { SAMPLE_APP_HOLD_WINDOW: "1" }
} as const

const holdingApp = (phase: keyof typeof PHASES) => {
  const ready = join(mkdtempSync(join(tmpdir(), "sw-pending-")), "ready")
  return { ready, env: { SAMPLE_APP_USER_DATA: freshUserData(), SAMPLE_APP_READY_FILE: ready, ...PHASES[phase] } }
}

/** Waits for the app to be up (it writes its pid when ready) and returns it with every process below it. */
const appProcesses = async (ready: string): Promise<ReadonlyArray<number>> => {
  const deadline = Date.now() + 60_000
  while (!existsSync(ready) || readFileSync(ready, "utf8") === "") {
    if (Date.now() > deadline) throw new Error("the app never became ready")
    await new Promise((r) => setTimeout(r, 50))
  }
  const pid = Number(readFileSync(ready, "utf8"))
  expect(isAlive(pid)).toBe(true)
  return [pid, ...descendants(pid)]
}

/** The built server over stdio, initialized, driven with raw JSON-RPC lines (a client that can leave mid-call). */
const startServer = () => {
  const server = spawn(process.execPath, [CLI, "--operation-timeout-ms", String(LAUNCH_TIMEOUT_MS + 30_000)], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...electronChoice() }
  })
  let stderr = ""
  server.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)))
  const received: Array<{ id?: number }> = []
  createInterface({ input: server.stdout! }).on("line", (line) => received.push(JSON.parse(line) as { id?: number }))
  const answers = async (id: number) => {
    while (!received.some((m) => m.id === id)) await new Promise((r) => setTimeout(r, 50))
    return received.find((m) => m.id === id)
  }
  const send = (message: object) => server.stdin.write(JSON.stringify(message) + "\n")
  send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pending-launch", version: "1" } }
  })
  send({ jsonrpc: "2.0", method: "notifications/initialized" })
  return { server, exited, send, answers, stderr: () => stderr }
}

describe.each(Object.keys(PHASES) as Array<keyof typeof PHASES>)("a pending launch of an app %s", { timeout: 120_000 }, (phase) => {
  it("cancelled (notifications/cancelled): the app and its children end at once; the server keeps serving", async () => {
    const { ready, env } = holdingApp(phase)
    const { send, answers, server, exited } = startServer()
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env, timeoutMs: LAUNCH_TIMEOUT_MS } }
    })
    const pids = await appProcesses(ready)
    const cancelledAt = Date.now()
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "the user changed their mind" } })
    expect(await waitAllGone(pids, AT_ONCE_MS)).toEqual([])
    expect(Date.now() - cancelledAt).toBeLessThan(AT_ONCE_MS)
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "electron_status", arguments: {} } })
    expect(await answers(3)).toMatchObject({ id: 3, result: { content: expect.any(Array) } })
    server.stdin.end()
    expect(await exited).toBe(0)
  })

  it("its client leaves (stdin closes): the server exits and so do the app and its children", async () => {
    const { ready, env } = holdingApp(phase)
    const { send, server, exited, stderr } = startServer()
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env, timeoutMs: LAUNCH_TIMEOUT_MS } }
    })
    const pids = await appProcesses(ready)
    const leftAt = Date.now()
    server.stdin.end()
    expect(await exited, stderr()).toBe(0)
    expect(await waitAllGone(pids, AT_ONCE_MS)).toEqual([])
    expect(Date.now() - leftAt).toBeLessThan(AT_ONCE_MS)
  })

  it("the server is stopped (SIGTERM): the app and its children end with it", async () => {
    const { ready, env } = holdingApp(phase)
    const { send, server, exited } = startServer()
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env, timeoutMs: LAUNCH_TIMEOUT_MS } }
    })
    const pids = await appProcesses(ready)
    server.kill("SIGTERM")
    await exited
    expect(await waitAllGone(pids, AT_ONCE_MS)).toEqual([])
  })
})
