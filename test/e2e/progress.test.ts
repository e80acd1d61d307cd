/**
 * A call longer than the client's request timeout completes when the client resets that timeout on
 * progress: a 90 s electron_wait_for through the SDK Client (request timeout 60 s, resetTimeoutOnProgress)
 * succeeds, with progress notifications at most 5 s apart that name the tool and what it waits for.
 * (Without a token, and after a cancel, nothing is sent: test/unit/progress.test.ts.) This one test
 * costs about 90 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

/** The element appears this long after the wait starts: well past the client's 60 s request timeout. */
const APPEARS_AFTER_MS = 85_000

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer"], operationTimeoutMs: 120_000 })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("progress", () => {
  it("a 90 s electron_wait_for outlasts the client's 60 s request timeout through progress notifications", async () => {
    const scheduled = await mcp.call("electron_eval_renderer", {
      function: `(ms) => { setTimeout(() => { const late = document.createElement("div"); late.dataset.testid = "late-progress"; late.textContent = "late"; document.body.append(late) }, ms); return true }`,
      arg: APPEARS_AFTER_MS
    })
    expect(scheduled.isError, scheduled.text).toBe(false)
    const started = Date.now()
    const seen: Array<{ readonly at: number; readonly progress: number; readonly message: string | undefined }> = []
    const result = await mcp.client.callTool(
      { name: "electron_wait_for", arguments: { target: "testid=late-progress", timeoutMs: 100_000 } },
      CallToolResultSchema,
      {
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        onprogress: (p) => seen.push({ at: Date.now(), progress: p.progress, message: p.message })
      }
    )
    const ended = Date.now()
    const took = ended - started
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    expect((result.content as Array<{ text?: string }>)[0]!.text).toContain("testid=late-progress is visible")
    expect(took).toBeGreaterThan(80_000)
    // At most 5 s from the start to the first notification, between consecutive ones, and from the last to the result.
    const times = [started, ...seen.map((s) => s.at), ended]
    const gaps = times.slice(1).map((at, i) => at - times[i]!)
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(took / 5_000))
    expect(Math.max(...gaps), `gaps ${gaps.join(", ")}`).toBeLessThanOrEqual(5_000)
    expect(seen.map((s) => s.progress)).toEqual([...seen.map((s) => s.progress)].sort((a, b) => a - b))
    expect(new Set(seen.map((s) => s.progress)).size).toBe(seen.length)
    expect(seen.at(-1)!.message).toMatch(/^electron_wait_for: waiting for testid=late-progress \(\d+ s of 100 s\)$/)
  }, 150_000)
})
