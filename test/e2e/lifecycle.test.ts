/**
 * The built server over stdio (the SDK Client to dist/cli.js): a session on the tasks app, no
 * process left behind after SIGTERM or a killed client (checked by pid), and a crashed app reported
 * as APP_CRASHED with the last_error breadcrumb.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { sampleAppPath } from "../../src/samples.js"
import { CLI } from "../support/cli.js"
import { electronChoice, freshUserData, inMemoryClient, stdioClient } from "../support/mcp.js"
import { commandOf, descendants, waitAllGone } from "../support/processes.js"

describe("stdio server lifecycle", () => {
  it("drives the app over stdio and leaves no process and no Playwright temp folder behind after SIGTERM", async () => {
    // Its own temp folder, so the launch's artifacts folder (src/layers/driver/launch.ts) is the server's alone.
    const temp = mkdtempSync(join(tmpdir(), "sw-lifecycle-tmp-"))
    const mcp = await stdioClient(["--tool-profile", "essential"], { TMPDIR: temp })
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    const heading = await mcp.call("electron_wait_for", { target: "role=heading[level=1]" })
    expect(heading.isError, heading.text).toBe(false)
    const found = await mcp.call("electron_find", { target: "role=heading[level=1]" })
    expect(found.text).toContain("Task Board")
    const excluded = await mcp.call("electron_hover", { target: "e1" })
    expect(excluded.code).toBe("TOOL_NOT_IN_PROFILE")
    const tree = descendants(mcp.pid!)
    expect(tree.length).toBeGreaterThanOrEqual(2) // the app's main process and its browser at least
    expect(readdirSync(temp).filter((name) => name.startsWith("stagewright-artifacts-"))).toHaveLength(1)
    process.kill(mcp.pid!, "SIGTERM")
    expect(await waitAllGone([mcp.pid!, ...tree])).toEqual([])
    expect(readdirSync(temp).filter((name) => /^(playwright|stagewright)-artifacts-/.test(name))).toEqual([])
    await mcp.close().catch(() => undefined)
    rmSync(temp, { recursive: true, force: true })
  })

  it("leaves no process behind when its client is killed mid-call", async () => {
    // A client process that starts the server, launches the app, reports the pids, then waits to be killed.
    const script = join(freshUserData(), "client.mjs")
    const sdk = (path: string) => JSON.stringify(new URL(`../../node_modules/@modelcontextprotocol/sdk/dist/esm/${path}`, import.meta.url).href)
    writeFileSync(
      script,
      `import { Client } from ${sdk("client/index.js")}
import { StdioClientTransport } from ${sdk("client/stdio.js")}
const transport = new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(CLI)}, "serve"], stderr: "ignore", env: { ...process.env, ...${JSON.stringify(electronChoice())} } })
const client = new Client({ name: "doomed", version: "1" })
await client.connect(transport)
const r = await client.callTool({ name: "electron_launch", arguments: { app: ${JSON.stringify(sampleAppPath("tasks"))}, env: { SAMPLE_APP_USER_DATA: ${JSON.stringify(freshUserData())} } } })
// Leave a long call running: the client dies mid-call.
client.callTool({ name: "electron_wait_for", arguments: { text: "never appears", timeoutMs: 60000 } }, undefined, { timeout: 300000 }).catch(() => {})
// The server reads requests in order: once a later call has answered, the long one is in flight.
await client.callTool({ name: "electron_status", arguments: {} })
console.log(JSON.stringify({ server: transport.pid, ok: !r.isError }))
setInterval(() => {}, 1000)
`
    )
    const client = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] })
    const first = await new Promise<string>((resolve) => createInterface({ input: client.stdout! }).once("line", resolve))
    const { server, ok } = JSON.parse(first) as { server: number; ok: boolean }
    expect(ok).toBe(true)
    const tree = [server, ...descendants(server)]
    expect(tree.length).toBeGreaterThanOrEqual(3)
    client.kill("SIGKILL")
    expect(await waitAllGone(tree)).toEqual([])
  })
  it("leaves no app behind when the server itself is SIGKILLed (its reaper ends the app's process group)", async () => {
    // The stand-in quits by itself when its launcher is gone; a real Electron does not. Its watch is turned
    // off here (STAGEWRIGHT_STANDIN_WATCH_PARENT=0), so what ends the app is the server's reaper alone.
    const mcp = await stdioClient(["--tool-profile", "essential"], { STAGEWRIGHT_STANDIN_WATCH_PARENT: "0" })
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    const tree = descendants(mcp.pid!)
    const reaper = tree.filter((pid) => commandOf(pid).startsWith("stagewright-reaper"))
    expect(reaper).toHaveLength(1)
    const app = tree.filter((pid) => !reaper.includes(pid))
    expect(app.length).toBeGreaterThanOrEqual(2) // the app's main process and its browser at least
    process.kill(mcp.pid!, "SIGKILL")
    expect(await waitAllGone([mcp.pid!, ...tree])).toEqual([])
    await mcp.close().catch(() => undefined)
  })
})

describe("faults", () => {
  it("reports an app that dies mid-session as APP_CRASHED, shows it in electron_status, and launches again", async () => {
    const mcp = await inMemoryClient({ allowEval: ["main"] })
    try {
      await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      const pid = (await mcp.call("electron_status")).structured.app.pid as number
      const crash = await mcp.call("electron_eval_main", { function: "() => { setTimeout(() => process.kill(process.pid, 'SIGKILL'), 50); return 'bye' }" })
      expect(crash.isError, crash.text).toBe(false)
      expect(await waitAllGone([pid])).toEqual([])
      // The process is gone; Playwright learns of its exit a moment later (a zombie counts as gone).
      await expect.poll(async () => (await mcp.call("electron_status")).structured.app.state, { timeout: 10_000 }).toBe("crashed")
      const after = await mcp.call("electron_click", { target: "testid=ping-button" })
      expect(after.code).toBe("APP_CRASHED")
      const status = await mcp.call("electron_status")
      expect(status.structured.app.state).toBe("crashed")
      expect(status.structured.server.lastError).toMatchObject({ tool: "electron_click", code: "APP_CRASHED" })
      const relaunch = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(relaunch.isError, relaunch.text).toBe(false)
    } finally {
      await mcp.close()
    }
  })
})
