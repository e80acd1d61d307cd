/**
 * `--auth-token-file`: the HTTP bearer token comes from a file, so it never sits in the server's
 * environment (which /proc/<pid>/environ keeps even after a variable is deleted, and which apps inherit).
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { CLI } from "../support/cli.js"

const TOKEN = "file-token-0123456789abcdef"

const start = (args: ReadonlyArray<string>) =>
  new Promise<{ kill: () => void; port: string; pid: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", ...args], { stdio: ["ignore", "ignore", "pipe"] })
    const lines: Array<string> = []
    createInterface({ input: child.stderr! }).on("line", (line) => {
      lines.push(line)
      const found = /stagewright listening on (\S+)/.exec(line)?.[1]
      if (found) resolve({ kill: () => child.kill("SIGKILL"), port: new URL(found).port, pid: child.pid! })
    })
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${lines.join("\n")}`)))
  })

const initialize = (port: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    })
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { host: `127.0.0.1:${port}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      }
    )
    req.on("error", reject)
    req.end(body)
  })

describe("--auth-token-file", () => {
  it("requires the file's token, which is nowhere in the server's environment", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "sw-token-")), "token")
    writeFileSync(file, `${TOKEN}\n`)
    const server = await start(["--port", "0", "--auth-token-file", file])
    try {
      expect(await initialize(server.port, {})).toBe(401)
      expect(await initialize(server.port, { authorization: "Bearer wrong" })).toBe(401)
      expect(await initialize(server.port, { authorization: `Bearer ${TOKEN}` })).toBe(200)
      expect(readFileSync(`/proc/${server.pid}/environ`, "latin1")).not.toContain(TOKEN)
    } finally {
      server.kill()
    }
  })

  it("refuses a file that is not a regular file, or a token too short to guess", async () => {
    await expect(start(["--port", "0", "--auth-token-file", "/dev/zero"])).rejects.toThrow(/not a regular file/)
    const short = join(mkdtempSync(join(tmpdir(), "sw-token-")), "token")
    writeFileSync(short, "abc\n")
    await expect(start(["--port", "0", "--auth-token-file", short])).rejects.toThrow(/at least 16 characters/)
  })
})
