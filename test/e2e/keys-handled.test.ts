/**
 * What an agent reads after keys: electron_type and electron_press_key answer with what their keys did (the
 * characters typed, the form Enter submitted), on a page busy drawing (each frame 14 ms of work, as an app animating
 * a chart would be), where a key's effects come late if anything does. Electron answers a key once the page handled
 * it; the stand-in does too (its relay holds a key stopped for 'before-input-event', which the tasks app listens to,
 * until it is replayed: lib/devtools-relay.js). Before that, these answers told the text without its last characters.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer"] })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_snapshot")).isError).toBe(false)
  const animating = await mcp.call("electron_eval_renderer", {
    function:
      "() => { const frame = () => { const end = performance.now() + 14; while (performance.now() < end); requestAnimationFrame(frame) }; requestAnimationFrame(frame); return true }"
  })
  expect(animating.text).toBe("true")
}, 60_000)

afterAll(async () => {
  await mcp?.close()
})

describe("keys and the answers that tell them", () => {
  it("electron_type and electron_press_key answer with what their keys did, on a page busy drawing", async () => {
    for (let i = 0; i < 3; i++) {
      const typed = await mcp.call("electron_type", { target: "testid=task-title-input", text: `Typed${i}z` })
      expect(typed.isError, typed.text).toBe(false)
      // Its last character too.
      expect(typed.text).toContain(`Typed${i}z`)
      expect((await mcp.call("electron_fill", { target: "testid=task-title-input", value: "" })).isError).toBe(false)
      // Enter on the form's button submits it: the empty title is refused.
      const pressed = await mcp.call("electron_press_key", { key: "Enter", target: 'role=button[name="Add task"]' })
      expect(pressed.isError, pressed.text).toBe(false)
      expect(pressed.text).toContain("Title is required")
      // The refusal focused the title field: keys without a target go there.
      const free = await mcp.call("electron_type", { text: `Free${i}z` })
      expect(free.isError, free.text).toBe(false)
      expect(free.text).toContain(`Free${i}z`)
      expect((await mcp.call("electron_fill", { target: "testid=task-title-input", value: "" })).isError).toBe(false)
    }
  })
})
