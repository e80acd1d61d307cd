/**
 * An app that starts with a splash window and replaces it with its main window (the splash sample app): the
 * launch answers with the splash active, and a wait the agent starts right away for the main window's content
 * is handed over to the window that is active once the splash closes, with the time left, instead of failing
 * because its window closed. The answer names both; later calls go to the main window.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const app = join(import.meta.dirname, "..", "fixtures", "apps", "splash")
let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient()
})

afterAll(async () => {
  await mcp?.close()
})

const launch = async (handoff: "show-first" | "close-first") => {
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData(), SPLASH_HANDOFF: handoff } })
  expect(launched.isError, launched.text).toBe(false)
  expect(launched.text).toMatch(/^\* w1 "Loading" \S+splash\.html$/m)
}

describe.each(["show-first", "close-first"] as const)("a splash window replaced by the main window (%s)", (handoff) => {
  it("a wait for the main window's text started on the splash ends in the main window", async () => {
    await launch(handoff)
    const waited = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 15_000 })
    expect(waited.isError, waited.text).toBe(false)
    expect(waited.text).toMatch(/^w1 closed during the wait; in w2: "Main ready" appeared after \d+ ms\.$/)
    expect(waited.structured).toMatchObject({ window: "w2", closed: ["w1"] })
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.isError, snapshot.text).toBe(false)
    expect(snapshot.text).toMatch(/^w2 "Splash Demo" \S+index\.html/)
    expect(snapshot.text).toContain('heading "Main ready"')
  })

  it("text that goes with the splash is gone once it closed; a condition the main window never meets still times out", async () => {
    await launch(handoff)
    const gone = await mcp.call("electron_wait_for", { textGone: "Loading…", timeoutMs: 15_000 })
    expect(gone.isError, gone.text).toBe(false)
    // The splash may close before or after the text check began: either way the answer is about the main window once it closed.
    expect(gone.text).toMatch(/^(w1 closed during the wait; in w2: )?"Loading…" is gone after \d+ ms\.$/)
    const never = await mcp.call("electron_wait_for", { text: "Never shown", timeoutMs: 1_000 })
    expect(never.isError).toBe(true)
    expect(never.text).toMatch(/^TIMEOUT: text "Never shown" did not happen within 1000 ms/)
  })
})
