/**
 * One timeout rule: a call's own timeoutMs governs up to the operator's cap (--operation-timeout-ms). The
 * listed schemas say the cap; a timeoutMs over it is refused before the tool runs; a wait as long as the cap
 * runs its whole time and answers with its own timeout (what it waited for), not the server's bound; so does a
 * wait with no bound of its own (timeoutMs 0), at the cap; its progress carries the call's total. (The 90 s wait under a raised cap: test/e2e/progress.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const CAP_MS = 15_000

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ operationTimeoutMs: CAP_MS })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("the timeout rule", { timeout: 60_000 }, () => {
  it("lists every timeoutMs up to the server's cap", async () => {
    const tools = (await mcp.client.listTools()).tools
    const maxima = tools.flatMap((t) => {
      const property = (t.inputSchema.properties as Record<string, { maximum?: number }> | undefined)?.timeoutMs
      return property === undefined ? [] : [[t.name, property.maximum] as const]
    })
    expect(maxima.length).toBeGreaterThan(10)
    for (const [name, maximum] of maxima) expect(maximum, name).toBe(CAP_MS)
  })

  it("refuses a timeoutMs over the cap, naming it", async () => {
    const over = await mcp.call("electron_wait_for", { target: "testid=never-there", timeoutMs: CAP_MS + 1 })
    expect(over.code).toBe("INVALID_ARGUMENT")
    expect(over.text).toContain(`timeoutMs ${CAP_MS + 1} is over this server's cap of ${CAP_MS} ms (--operation-timeout-ms)`)
  })

  it("a wait as long as the cap runs its whole time and answers with its own timeout; progress carries the total", async () => {
    const started = Date.now()
    const seen: Array<{ progress: number; total?: number }> = []
    const result = await mcp.client.callTool(
      { name: "electron_wait_for", arguments: { target: "testid=never-there", timeoutMs: CAP_MS } },
      CallToolResultSchema,
      {
        onprogress: (p) => seen.push(p)
      }
    )
    const took = Date.now() - started
    const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n")
    expect(result.isError).toBe(true)
    expect(took).toBeGreaterThanOrEqual(CAP_MS)
    // Its own answer (what it waited for), not the server's bound cutting it.
    expect(text).toContain("testid=never-there")
    expect(text).not.toContain("did not finish within")
    expect(seen.length).toBeGreaterThan(0)
    for (const p of seen) expect(p.total).toBe(CAP_MS)
  })
})

describe("a wait with no bound of its own (timeoutMs 0)", { timeout: 60_000 }, () => {
  const SMALL_CAP_MS = 2_000

  it("ends at the cap and answers with what it waited for, in the grace the bound leaves for the answer", async () => {
    const small = await inMemoryClient({ operationTimeoutMs: SMALL_CAP_MS })
    try {
      const launched = await small.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.isError, launched.text).toBe(false)
      for (const [tool, args] of [
        ["electron_click", { target: "#never-there", timeoutMs: 0 }],
        ["electron_fill", { target: "#never-there", value: "x", timeoutMs: 0 }]
      ] as const) {
        const result = await small.call(tool, args)
        expect(result.code, result.text).toBe("ELEMENT_NOT_FOUND")
        const waited = Number(/within (\d+) ms/.exec(result.text)?.[1])
        expect(waited, result.text).toBeLessThanOrEqual(SMALL_CAP_MS)
      }
    } finally {
      await small.close()
    }
  })
})
