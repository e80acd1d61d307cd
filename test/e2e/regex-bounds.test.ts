/**
 * No regular expression from the agent blocks the server's event loop or hangs the renderer, through
 * the real pipeline: the built server over stdio (its bundle imports the RE2 engine at the first pattern), the tasks sample
 * app showing 5,000 `a` (the ping field's reply). A catastrophic `pattern` is matched on RE2 in the
 * server, so the assertion fails in its own time while another call is answered meanwhile; a catastrophic
 * selector regex is refused before it reaches the page. Each call is bounded by the client (a blocked
 * server would not answer at all), never by a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, stdioClient, type TestClient } from "../support/mcp.js"

const LONG = "a".repeat(5_000)
let mcp: TestClient

/** A tool call the client gives up on after `timeout` ms: a server whose event loop is blocked never answers. */
const bounded = async (name: string, args: Record<string, unknown>, timeout = 20_000) => {
  const raw: any = await mcp.client.callTool({ name, arguments: args }, undefined, { timeout })
  return {
    isError: raw.isError === true,
    code: raw.structuredContent?.error?.code as string | undefined,
    text: String(raw.content?.[0]?.text ?? ""),
    structured: raw.structuredContent
  }
}

beforeAll(async () => {
  mcp = await stdioClient()
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
  expect((await mcp.call("electron_fill", { target: "testid=ping-input", value: LONG })).isError).toBe(false)
  expect((await mcp.call("electron_click", { target: "testid=ping-button" })).isError).toBe(false)
  // The reply arrives over IPC: wait for it with a web-first assertion.
  const shown = await mcp.call("electron_expect_text", { target: "testid=ping-result", text: `pong:${LONG}`, exact: true })
  expect(shown.isError, shown.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("catastrophic regexes from the agent", () => {
  it("electron_expect_text with a*a*a*a*a*a*b fails as an assertion while the server keeps answering", async () => {
    const assertion = bounded("electron_expect_text", { target: "testid=ping-result", pattern: "a*a*a*a*a*a*b", timeoutMs: 2_000 })
    // Asked while the assertion retries: answered at once by a server whose event loop is free.
    const status = await bounded("electron_status", {}, 10_000)
    expect(status.isError, status.text).toBe(false)
    expect(status.structured.app.state).toBe("running")
    const failed = await assertion
    expect(failed.code, failed.text).toBe("ASSERTION_FAILED")
    expect(failed.text).toContain("/a*a*a*a*a*a*b/")
    const after = await bounded("electron_status", {}, 10_000)
    expect(after.isError).toBe(false)
  })

  it("the same pattern family still matches when it should (RE2, not a refusal)", async () => {
    const passed = await bounded("electron_expect_text", { target: "testid=ping-result", pattern: "^pong:(a+)+$", timeoutMs: 2_000 })
    expect(passed.isError, passed.text).toBe(false)
  })

  it("electron_find text=/(a+)+$/ answers INVALID_ARGUMENT before the page runs it; a safe regex still finds the element", async () => {
    const refused = await bounded("electron_find", { target: "text=/(a+)+$/" })
    expect(refused.code, refused.text).toBe("INVALID_ARGUMENT")
    expect(refused.text).toContain("(a+)+$")
    const nested = await bounded("electron_find", { target: 'css=dd >> internal:has="internal:text=/a*a*a*b/"' })
    expect(nested.code, nested.text).toBe("INVALID_ARGUMENT")
    // The renderer was never hung: a bounded regex over the same 5,000 characters answers.
    const found = await bounded("electron_find", { target: "text=/^pong:a+$/" })
    expect(found.isError, found.text).toBe(false)
    expect(found.structured.count).toBe(1)
  })
})
