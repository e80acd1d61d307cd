/**
 * Fuzzing through the MCP protocol: the SDK Client over the in-memory linked pair to a server built
 * with createServer(), without an app. The same invariants as the Dispatcher-level run, plus those the
 * protocol adds: the client's own result validation passes, and arguments that are not an object
 * (which tools/call forbids) are answered with a JSON-RPC error while the server keeps serving.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { checkResult, FuzzTally, fuzzSeed, planCalls, runCalls, type FuzzCall } from "../../src/bench/fuzz/index.js"
import { coreTools } from "../../src/server/tools.js"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { descendants, isAlive } from "../support/processes.js"
import { guardProcess, printTable, type ProcessGuard } from "./support.js"

const SEED = fuzzSeed(20_261_129) + 7
let mcp: TestClient
let guard: ProcessGuard

beforeAll(async () => {
  guard = guardProcess()
  mcp = await inMemoryClient({ allowEval: ["renderer", "main"] })
})

afterAll(async () => {
  await mcp?.close()
  guard?.stop()
})

/** What a wire transport would carry: the arguments after a JSON round trip (undefined fields drop out). */
const overTheWire = (args: unknown): Record<string, unknown> => {
  try {
    return JSON.parse(JSON.stringify(args)) as Record<string, unknown>
  } catch {
    // Too deep for JSON.stringify here; the in-memory pair passes the object itself.
    return args as Record<string, unknown>
  }
}

const invoke = (call: FuzzCall) => mcp.client.callTool({ name: call.tool, arguments: overTheWire(call.args) }, undefined, { timeout: 60_000 })

describe("MCP fuzz without an app (in-memory SDK client, full profile, eval allowed)", () => {
  it("every call answers with a tool result that has a known code and no defect, sequentially and concurrently", async () => {
    const calls = planCalls(coreTools, {
      seed: SEED,
      validPerTool: 6,
      malformedPerTool: 1,
      badNames: 40,
      malformed: { objectsOnly: true }
    })
    expect(calls.length).toBeGreaterThanOrEqual(500)
    const tally = new FuzzTally()
    const started = Date.now()
    const before = new Set(descendants(process.pid))
    const half = Math.floor(calls.length / 2)
    await runCalls(calls.slice(0, half), invoke, tally)
    // The second half eight at a time: the SDK serves requests concurrently.
    await runCalls(calls.slice(half), invoke, tally, { concurrency: 8 })
    // Rejections that have already happened are reported by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    printTable(tally, `MCP in-memory, ${Date.now() - started} ms`, SEED)
    expect(tally.calls).toBe(calls.length)
    // No call started a process (a launch or attach that decoded would have).
    expect(descendants(process.pid).filter((pid) => !before.has(pid) && isAlive(pid))).toEqual([])
    expect(tally.violations.length, tally.report(SEED, 40)).toBe(0)
    expect(guard.events()).toEqual([])
  }, 120_000)

  it("answers an over-long argument (one over maxLength, 6M characters once JSON-escaped) with INVALID_ARGUMENT and its code", async () => {
    // Defect found by the Dispatcher-level run: redacting the breadcrumb overflows the stack, the
    // Dispatcher's effect dies, and McpServer answers "TIMEOUT: ... was cancelled" without a code.
    const result = await mcp.client.callTool({ name: "electron_clipboard", arguments: { action: "write", text: "\u0000".repeat(1_000_001) } })
    expect(checkResult(result)).toMatchObject({ code: "INVALID_ARGUMENT", problems: [] })
  })

  it("answers arguments that are not an object with a JSON-RPC error, and keeps serving", async () => {
    const outcomes: Array<string> = []
    for (const name of ["electron_status", "electron_click", "electron_launch", "no_such_tool"]) {
      for (const args of [5, "abc", [1], true, null]) {
        const outcome = await mcp.client
          .callTool({ name, arguments: args as never })
          .then((result) => `result ${checkResult(result).code}`)
          .catch((error: unknown) => (error instanceof McpError ? `McpError ${error.code}` : `other ${String(error)}`))
        outcomes.push(outcome)
      }
    }
    process.stdout.write(`non-object arguments: ${[...new Set(outcomes)].join(", ")}\n`)
    // A protocol error (the SDK answers -32603 where JSON-RPC's -32602 "Invalid params" would fit).
    expect(outcomes.every((o) => o.startsWith("McpError "))).toBe(true)
    const status = checkResult(await mcp.client.callTool({ name: "electron_status", arguments: {} }))
    expect(status).toMatchObject({ code: "OK", problems: [] })
    expect(guard.events()).toEqual([])
  })
})
