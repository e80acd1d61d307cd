import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { PROFILE_NAMES, PROFILES } from "../../src/profile/profiles.js"
import { CLI, runCli } from "../support/cli.js"

// Each test starts the built CLI several times (about 3 s each on a loaded 2-core machine): roomier than the default 60 s.
describe("stagewright CLI", { timeout: 180_000 }, () => {
  it("prints the documentation manifest sorted, with type, eval target, profiles and error codes", async () => {
    const { status, stdout } = await runCli(["tools", "--json"])
    expect(status).toBe(0)
    const manifest = JSON.parse(stdout) as { tools: Array<{ name: string; type: string; evalTarget: string | null; profiles: string[]; errors: string[] }> }
    const names = manifest.tools.map((t) => t.name)
    expect(names).toEqual([...names].sort())
    const evalMain = manifest.tools.find((t) => t.name === "electron_eval_main")
    expect(evalMain).toMatchObject({ type: "eval", evalTarget: "main" })
    const click = manifest.tools.find((t) => t.name === "electron_click")
    expect(click?.profiles).toEqual(["essential", "testing", "debug", "full"])
    expect(click?.errors).toContain("ELEMENT_NOT_FOUND")
    const text = (await runCli(["tools"])).stdout
    expect(text).toMatch(/electron_click\s+interact\s+essential,testing,debug,full/)
  })

  it("has --help on every command", async () => {
    for (const args of [["--help"], ["serve", "--help"], ["tools", "--help"], ["doctor", "--help"]]) {
      const { status, stdout } = await runCli(args)
      expect(status).toBe(0)
      expect(stdout).toMatch(/USAGE/)
    }
    const serveHelp = (await runCli(["serve", "--help"])).stdout
    expect(serveHelp).toContain("--allow-eval")
    // --tool-profile states each named list's size, as the lists in src/profile/ make it.
    expect(serveHelp).toContain(`: ${PROFILE_NAMES.map((name) => `${name} ${PROFILES[name].size}`).join(", ")} tools`)
  })

  it("doctor reports its checks as JSON and fails when a required one fails", async () => {
    const ok = await runCli(["doctor", "--json"])
    const report = JSON.parse(ok.stdout) as { ok: boolean; checks: Array<{ name: string; ok: boolean }> }
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(["node", "playwright-core", "electron", "chromium", "display", "output dir", "policy"])
    )
    expect(ok.status).toBe(report.ok ? 0 : 1)
    const broken = await runCli(["doctor", "--json"], { ...process.env, STAGEWRIGHT_ELECTRON: "/nonexistent/electron" })
    expect(broken.status).toBe(1)
    const brokenReport = JSON.parse(broken.stdout) as { ok: boolean; checks: Array<{ name: string; ok: boolean }> }
    expect(brokenReport.ok).toBe(false)
    expect(brokenReport.checks.find((c) => c.name === "electron")?.ok).toBe(false)
  })

  it("refuses an unknown --allow-eval target", async () => {
    const { status, stderr, stdout } = await runCli(["doctor", "--allow-eval", "kernel"])
    expect(status).not.toBe(0)
    expect(stderr + stdout).toContain("--allow-eval kernel")
  })

  it("writes nothing but JSON-RPC to stdout when serving, and exits when stdin closes", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--allow-eval", "renderer"], { stdio: ["pipe", "pipe", "pipe"] })
    const chunks: Array<Buffer> = []
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk))
    const send = (message: object) => child.stdin.write(JSON.stringify(message) + "\n")
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }
    })
    send({ jsonrpc: "2.0", method: "notifications/initialized" })
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" })
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "electron_status", arguments: {} } })
    send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "electron_click", arguments: { target: "e1" } } })
    const deadline = Date.now() + 20_000
    while (Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean).length < 4 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
    }
    child.stdin.end()
    const exitCode = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const raw = Buffer.concat(chunks).toString("utf8")
    const lines = raw.split("\n")
    expect(lines.pop()).toBe("")
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id?: number })
    expect(messages.every((m) => m.jsonrpc === "2.0")).toBe(true)
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4])
    expect(raw).toContain("electron_eval_renderer")
    expect(exitCode).toBe(0)
  })
})
