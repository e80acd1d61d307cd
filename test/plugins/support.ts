/**
 * Helpers of the plugin tests: launch the `tasks` sample app over MCP and wait until its board is loaded;
 * read a status line until it shows what the app should have done.
 */
import { expect } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, type TestClient } from "../support/mcp.js"

export const launchApp = async (client: TestClient, app: "tasks" | "framework" = "tasks", extra: Record<string, unknown> = {}) => {
  const launched = await client.call("electron_launch", { app: sampleAppPath(app), env: { SAMPLE_APP_USER_DATA: freshUserData() }, ...extra })
  expect(launched.isError, launched.text).toBe(false)
  if (app === "tasks") {
    const loaded = await client.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
    expect(loaded.isError, loaded.text).toBe(false)
  }
  return launched
}

/** The text of a `data-testid` element, read again until `done` holds (effects that land after IPC), 15 s at most. */
export const textUntil = async (client: TestClient, testid: string, done: (text: string) => boolean) => {
  let text = ""
  for (let i = 0; i < 150; i++) {
    const read = await client.call("electron_get_text", { target: `testid=${testid}` })
    // The element's text is the structured value; the answer's text may go on with notices (new console errors).
    text = typeof read.structured?.text === "string" ? read.structured.text : read.text
    if (done(text)) return text
    await new Promise((r) => setTimeout(r, 100))
  }
  return text
}
