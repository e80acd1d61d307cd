/**
 * An app that starts with a splash window and replaces it with its main window (the splash sample app): the
 * launch answers with the splash active, and a wait the agent starts right away for the main window's content
 * is handed over to the window that is active once the splash closes, with the time left, instead of failing
 * because its window closed. The answer names both; later calls go to the main window. A wait started while the
 * app has no window at all waits for the next one; a hidden background window is never the default. The splash shows for seconds (SPLASH_MS), longer than a launch
 * takes on a loaded machine, so each wait starts in the state it is about.
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

const launch = async (env: Record<string, string>) => {
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData(), ...env } })
  expect(launched.isError, launched.text).toBe(false)
  return launched
}

describe.each(["show-first", "close-first"] as const)("a splash window replaced by the main window (%s)", (handoff) => {
  it("a wait for the main window's text started on the splash ends in the main window", { timeout: 60_000 }, async () => {
    const launched = await launch({ SPLASH_HANDOFF: handoff, SPLASH_MS: "5000" })
    expect(launched.text).toMatch(/^\* w1 "Loading" \S+splash\.html$/m)
    const waited = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 20_000 })
    expect(waited.isError, waited.text).toBe(false)
    expect(waited.text).toMatch(/^w1 closed during the wait; in w2: "Main ready" appeared after \d+ ms\.$/)
    expect(waited.structured).toMatchObject({ window: "w2", closed: ["w1"] })
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.isError, snapshot.text).toBe(false)
    expect(snapshot.text).toMatch(/^w2 "Splash Demo" \S+index\.html/)
    expect(snapshot.text).toContain('heading "Main ready"')
    // Later waits are the main window's: the splash's text is gone there, and what it never shows times out.
    const gone = await mcp.call("electron_wait_for", { textGone: "Loading…", timeoutMs: 5_000 })
    expect(gone.text).toMatch(/^"Loading…" is gone after \d+ ms\.$/)
    const never = await mcp.call("electron_wait_for", { text: "Never shown", timeoutMs: 1_000 })
    expect(never.isError).toBe(true)
    expect(never.text).toMatch(/^TIMEOUT: text "Never shown" did not happen within 1000 ms/)
  })
})

describe("a splash window that closes before the launch has answered (SPLASH_MS=0)", () => {
  it("a wait for the main window's text ends there, whichever window the launch saw first", async () => {
    await launch({ SPLASH_HANDOFF: "close-first", SPLASH_MS: "0" })
    const waited = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 15_000 })
    expect(waited.isError, waited.text).toBe(false)
    // The splash, the main window or no window at all may be active when the wait starts (a race the app makes).
    expect(waited.text).toMatch(/^(No window was open; in w\d: |w1 closed during the wait; in w2: )?"Main ready" appeared after \d+ ms\.$/)
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.text).toContain('heading "Main ready"')
  })
})

describe("a wait started while the app has no window (SPLASH_GAP_MS)", () => {
  it("fails with the reason when no window comes in its time, and otherwise waits in the next window", { timeout: 60_000 }, async () => {
    await launch({ SPLASH_HANDOFF: "close-first", SPLASH_MS: "3000", SPLASH_GAP_MS: "5000" })
    // The state the waits start in: the splash closed, the main window not made yet (for 5 s).
    const deadline = Date.now() + 30_000
    let listed = await mcp.call("electron_windows")
    while (!listed.text.startsWith("No open windows") && Date.now() < deadline) listed = await mcp.call("electron_windows")
    expect(listed.text).toMatch(/^No open windows/)
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.text).toMatch(/^WINDOW_NOT_FOUND: No active window \(open surfaces: none\)\nHint: The app has no open window now; electron_wait_for/)
    const early = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 500 })
    expect(early.isError).toBe(true)
    expect(early.text).toMatch(/^TIMEOUT: No window was open, and no other window opened within 500 ms/)
    const waited = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 20_000 })
    expect(waited.isError, waited.text).toBe(false)
    expect(waited.text).toMatch(/^No window was open; in w2: "Main ready" appeared after \d+ ms\.$/)
    expect(waited.structured).toMatchObject({ window: "w2", noWindowAtStart: true })
  })
})

describe("a hidden background window made before the splash (SPLASH_WORKER=1)", () => {
  it("is never the default active window: the launch answers with the splash, the wait ends in the main window", { timeout: 60_000 }, async () => {
    const launched = await launch({ SPLASH_WORKER: "1", SPLASH_MS: "5000" })
    expect(launched.text).toMatch(/^\* w\d "Loading" \S+splash\.html$/m)
    const waited = await mcp.call("electron_wait_for", { text: "Main ready", timeoutMs: 20_000 })
    expect(waited.isError, waited.text).toBe(false)
    // The hidden worker may be registered after the launch answered: then this answer tells it opened, once.
    expect(waited.text).toMatch(/^w\d closed during the wait; in w\d: "Main ready" appeared after \d+ ms\.(\nWindows: opened w\d "Worker"\.)?$/)
    const listed = await mcp.call("electron_windows")
    expect(listed.text).toMatch(/^\* w\d "Splash Demo" \S+index\.html/m)
    expect(listed.text).toMatch(/^ {2}w\d "Worker" \S+worker\.html .*\[hidden\]/m)
  })
})

describe("an app that starts with no window shown (SPLASH_SHOW=0)", () => {
  it("the launch waits a while for a window to show, then says the active one is hidden", { timeout: 60_000 }, async () => {
    const launched = await launch({ SPLASH_SHOW: "0", SPLASH_MS: "20000" })
    expect(launched.text).toMatch(/^\* w1 "Loading" \S+splash\.html\nThe active window w1 is hidden: the app had shown no window when the launch ended\.$/m)
    expect(launched.structured).toMatchObject({ activeHidden: true })
  })

  it("a launch whose window shows says nothing of the kind", async () => {
    const launched = await launch({ SPLASH_MS: "20000" })
    expect(launched.text).not.toContain("is hidden")
    expect(launched.structured.activeHidden).toBeUndefined()
  })
})
