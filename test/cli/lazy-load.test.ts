/**
 * What `stagewright serve` loads before any app runs. A host starts the server at every session: until
 * the agent launches or attaches to an app, neither playwright-core (the driver loads it at the first
 * launch / attach) nor the Streamable HTTP transport (only with --port) may be loaded. The built bin runs
 * under test/support/module-recorder.mjs, which lists every module the process loaded; both tests also
 * check that the recorder does see each of them once it is really used, so a pass cannot come from a
 * recorder that sees nothing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { sampleAppPath } from "../../src/samples.js"
import { CLI } from "../support/cli.js"
import { electronChoice, freshUserData, waitForExit } from "../support/mcp.js"

const RECORDER = join(packageRoot(), "test", "support", "module-recorder.mjs")

/** playwright-core, however it is reached (its ESM entry, its CommonJS files). */
const PLAYWRIGHT = /\/node_modules\/playwright-core\//
/**
 * The HTTP transport: the SDK's Streamable HTTP server and its Hono adapter, our HttpServer layer (as
 * files, when they are loaded from node_modules or a tsc build), and the Node builtins they require when
 * initialized (the bin bundles them into one file, where they are initialized at the first import only).
 */
const HTTP_TRANSPORT =
  /\/@modelcontextprotocol\/sdk\/dist\/(esm|cjs)\/server\/streamableHttp\.js|\/node_modules\/@hono\/node-server\/|\/server\/HttpServer\.js|^node:(http|http2|tls)$/

const logFile = () => join(mkdtempSync(join(tmpdir(), "stagewright-modules-")), "modules.log")
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [])

/** The modules listed up to (and including) snapshot `n`, once it is written. */
const untilSnapshot = async (file: string, n: number, timeoutMs = 10_000): Promise<ReadonlyArray<string>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const all = lines(file)
    const end = all.indexOf(`#snapshot ${n}`)
    if (end >= 0) return all.slice(0, end)
    if (Date.now() > deadline) throw new Error(`no snapshot ${n} in ${file} after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("serve loads nothing it does not need yet", { timeout: 180_000 }, () => {
  it("the bundle leaves out what is imported at its first use only (re2js, ws): imported from node_modules then", () => {
    const bundle = readFileSync(join(packageRoot(), "dist", "bin", "stagewright.cjs"), "utf8")
    expect(bundle).toContain('("re2js")')
    expect(bundle).toContain('("ws")')
    expect(bundle).not.toContain("RE2JSCompileException")
  })

  it("a start to tools/list peaks under 90 MiB resident (issue 37's goal; 96 MiB before the lean start)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve"],
      env: { ...getDefaultEnvironment(), ...electronChoice() },
      stderr: "pipe"
    })
    const client = new Client({ name: "peak-rss-test", version: "1" })
    await client.connect(transport)
    const pid = transport.pid!
    try {
      const { tools } = await client.listTools()
      expect(tools.length).toBeGreaterThan(0)
      // VmHWM: the process's peak resident set so far (Linux).
      const peakKiB = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1])
      expect(peakKiB / 1024).toBeGreaterThan(40)
      expect(peakKiB / 1024).toBeLessThan(90)
    } finally {
      await client.close()
      await waitForExit(pid)
    }
  })

  it("neither playwright-core nor the HTTP transport before a launch; playwright-core once an app is launched", async () => {
    expect(existsSync(CLI), `${CLI} is missing: npm run build`).toBe(true)
    const log = logFile()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", RECORDER, CLI, "serve"],
      env: { ...getDefaultEnvironment(), ...electronChoice(), STAGEWRIGHT_MODULE_LOG: log },
      stderr: "pipe"
    })
    const client = new Client({ name: "lazy-load-test", version: "1" })
    await client.connect(transport)
    const pid = transport.pid!
    try {
      const { tools } = await client.listTools()
      expect(tools.length).toBeGreaterThan(0)
      process.kill(pid, "SIGUSR2")
      const beforeLaunch = await untilSnapshot(log, 1)
      // The recorder works: the bin itself and the SDK's stdio server are in the list.
      expect(beforeLaunch.some((m) => m.endsWith("/dist/cli.js"))).toBe(true)
      expect(beforeLaunch.length).toBeGreaterThan(20)

      expect(
        beforeLaunch.filter((m) => HTTP_TRANSPORT.test(m)),
        "the HTTP transport was loaded by serve over stdio"
      ).toEqual([])
      expect(
        beforeLaunch.filter((m) => PLAYWRIGHT.test(m)),
        "playwright-core was loaded before any launch or attach"
      ).toEqual([])

      const launched = await client.callTool(
        { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } } },
        undefined,
        { timeout: 120_000 }
      )
      expect(launched.isError, JSON.stringify(launched.content)).not.toBe(true)
      const closed = await client.callTool({ name: "electron_close", arguments: {} }, undefined, { timeout: 60_000 })
      expect(closed.isError, JSON.stringify(closed.content)).not.toBe(true)
      process.kill(pid, "SIGUSR2")
      const afterLaunch = await untilSnapshot(log, 2)
      expect(
        afterLaunch.some((m) => PLAYWRIGHT.test(m)),
        "the recorder did not see playwright-core even after a launch"
      ).toBe(true)
    } finally {
      await client.close()
      await waitForExit(pid)
    }
  })

  it("the HTTP transport only with --port", async () => {
    const log = logFile()
    const child = spawn(process.execPath, ["--import", RECORDER, CLI, "serve", "--port", "0"], {
      env: { ...process.env, STAGEWRIGHT_MODULE_LOG: log },
      stdio: ["ignore", "ignore", "pipe"]
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no 'stagewright listening on' line within 30 s")), 30_000)
        createInterface({ input: child.stderr! }).on("line", (line) => {
          const found = /stagewright listening on (\S+)/.exec(line)?.[1]
          if (found) {
            clearTimeout(timer)
            resolve(found)
          }
        })
        child.once("exit", (code) => reject(new Error(`serve --port exited with ${code}`)))
      })
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
      child.kill("SIGUSR2")
      const listening = await untilSnapshot(log, 1)
      expect(
        listening.some((m) => HTTP_TRANSPORT.test(m)),
        "the recorder did not see the HTTP transport of serve --port"
      ).toBe(true)
    } finally {
      child.kill("SIGTERM")
      if (child.pid !== undefined) await waitForExit(child.pid)
    }
  })
})
