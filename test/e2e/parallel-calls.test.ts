/**
 * A host may send an agent's calls in parallel. Calls that change the app run one at a time, in the order they
 * came (src/server/turns.ts), so each answer tells what that call did: a fill, a click on "Add task" and a key
 * sent together each answer with their own change. Reads are not held (one answers while an action waits for its
 * element), and an action that times out waiting for its turn says so, naming the call it waited for.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient()
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const snapshot = await mcp.call("electron_snapshot")
  expect(snapshot.isError, snapshot.text).toBe(false)
}, 60_000)

afterAll(async () => {
  await mcp?.close()
})

describe("calls sent in parallel", () => {
  it("actions run one at a time in the order they came, each answer telling its own change", async () => {
    const [fill, click, key] = await Promise.all([
      mcp.call("electron_fill", { target: "testid=task-title-input", value: "Sent together" }),
      mcp.call("electron_click", { target: 'role=button[name="Add task"]' }),
      mcp.call("electron_press_key", { key: "Enter" })
    ])
    expect(fill.isError, fill.text).toBe(false)
    // The title field's new value (the app may also show its recommendations panel, which loads on its own).
    expect(fill.text).toContain("Sent together")
    expect(fill.text).not.toContain("Added")
    expect(fill.text).not.toContain('checkbox "Done: Sent together"')
    expect(click.isError, click.text).toBe(false)
    expect(click.text).toContain('Added "Sent together"')
    expect(click.text).toContain('checkbox "Done: Sent together"')
    // Enter in the emptied title field: the form says a title is needed, which neither call before it did.
    expect(key.isError, key.text).toBe(false)
    expect(key.text).toContain("Title is required")
    expect(click.text).not.toContain("Title is required")
  })

  it("a read answers while an action waits; an action that times out in line names the call it waited for", async () => {
    const theme = (await mcp.call("electron_get_text", { target: "testid=theme-indicator" })).text
    expect(theme).toMatch(/^Theme: (light|dark)$/)
    const order: Array<string> = []
    const note =
      <T>(name: string) =>
      (value: T) => {
        order.push(name)
        return value
      }
    const [waiting, read, queued] = await Promise.all([
      mcp.call("electron_click", { target: "testid=no-such-button", timeoutMs: 3_000 }).then(note("waiting")),
      mcp.call("electron_get_text", { target: "testid=board-name" }).then(note("read")),
      mcp.call("electron_click", { target: "testid=toggle-theme-button", timeoutMs: 500 }).then(note("queued"))
    ])
    expect(read.isError, read.text).toBe(false)
    expect(read.text).toBe("My board")
    expect(waiting.code, waiting.text).toBe("ELEMENT_NOT_FOUND")
    expect(queued.code, queued.text).toBe("TIMEOUT")
    expect(queued.text).toMatch(
      /^TIMEOUT: electron_click did not start within 500 ms: it waited for electron_click \(running for \d+(\.\d)? s\) and the calls before it\./
    )
    expect(order).toEqual(["read", "queued", "waiting"])
    // The theme toggle never ran: the page still shows the theme it had.
    expect((await mcp.call("electron_get_text", { target: "testid=theme-indicator" })).text).toBe(theme)
  })
})
