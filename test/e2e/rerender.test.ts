/**
 * An action whose element the app replaces while it runs (the tasks app re-renders its list on every change):
 * the answer says the action was performed and could not be confirmed, never that the ref was stale, and the
 * action did take effect.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({})
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: "testid=late-panel" })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("an element re-rendered during an action", () => {
  it("electron_check on a ref of a row the app re-renders: performed-but-unconfirmed, and the box is checked", async () => {
    const found = await mcp.call("electron_find", { target: 'role=checkbox[name="Done: Book dentist appointment"]' })
    const ref = /\[ref=(e\d+)\]/.exec(found.text)?.[1]
    expect(ref, found.text).toBeDefined()
    const checked = await mcp.call("electron_check", { target: ref, checked: true, timeoutMs: 2_000 })
    expect(checked.code, checked.text).toBe("OPERATION_FAILED")
    expect(checked.text).toContain("the action was performed, then the element was replaced")
    expect(checked.structured.error.performed).toBe(true)
    const state = await mcp.call("electron_expect_state", { target: 'role=checkbox[name="Done: Book dentist appointment"]', state: { checked: true } })
    expect(state.isError, state.text).toBe(false)
    // It happened, so the exported test replays it.
    const exported = await mcp.call("electron_export_test", { name: "rerender", inline: true })
    expect(exported.isError, exported.text).toBe(false)
    expect(exported.text).toContain(".setChecked(true)")
  })
})
