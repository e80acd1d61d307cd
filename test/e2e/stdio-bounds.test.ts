/**
 * The built server over stdio against a message over the stdio limit (10 MiB): the message is answered
 * with an Invalid Request error naming the limit, stdout carries JSON-RPC only, and the server keeps
 * serving (today's SDK transport would close itself, and the server with it).
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { vi } from "vitest"
import { STDIO_MAX_MESSAGE_BYTES } from "../../src/server/stdio-limit.js"
import { CLI } from "../support/cli.js"

describe("stdio message limit", () => {
  it("answers a message over the limit with an error and still answers the next tools/list", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--tool-profile", "essential"], { stdio: ["pipe", "pipe", "pipe"] })
    let stderr = ""
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const lines: Array<string> = []
    createInterface({ input: child.stdout! }).on("line", (line) => lines.push(line))
    const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`)
    try {
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
      })
      send({ jsonrpc: "2.0", method: "notifications/initialized" })
      // As the SDK's clients write it: the id last.
      const huge = {
        method: "tools/call",
        params: { name: "electron_status", arguments: { blob: "x".repeat(STDIO_MAX_MESSAGE_BYTES) } },
        jsonrpc: "2.0",
        id: 2
      }
      send(huge)
      send({ jsonrpc: "2.0", id: 3, method: "tools/list" })
      await vi.waitFor(() => expect(lines.some((line) => line.includes('"id":3'))).toBe(true), { timeout: 30_000, interval: 50 })
      const messages = lines.map((line) => JSON.parse(line))
      for (const message of messages) expect(message.jsonrpc).toBe("2.0")
      const refused = messages.find((m) => m.id === 2)
      expect(refused?.error?.code).toBe(-32600)
      expect(refused?.error?.message).toContain(`over the stdio limit of ${STDIO_MAX_MESSAGE_BYTES} bytes`)
      expect(messages.find((m) => m.id === 3)?.result?.tools?.length).toBeGreaterThan(0)
      expect(messages.map((m) => m.id)).toEqual([1, 2, 3])
      expect(stderr).toContain("Message too large")
      expect(child.exitCode).toBe(null)
    } finally {
      child.kill("SIGKILL")
    }
  })
})
