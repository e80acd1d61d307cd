/**
 * Key sequences over MCP (issue 27 item 3): electron_press_key takes presses separated by spaces
 * ("Control+K Control+S"), with delayMs between them; the workbench app's chord handler sees both presses
 * (a save reaches the main process). A key name Playwright does not know fails the whole call before any
 * key is pressed, naming it and the name it may have meant.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { callUntil, type TestClient } from "../support/mcp.js"
import { launchWorkbench } from "./workbench.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await launchWorkbench()
})

afterAll(async () => {
  await mcp?.close()
})

const textOf = async (testid: string) => (await mcp.call("electron_get_text", { target: `testid=${testid}` })).text

describe("key sequences and chords", () => {
  it("Control+K Control+S presses the chord sequence, which saves through the main process", async () => {
    const pressed = await mcp.call("electron_press_key", { key: "Control+K Control+S" })
    expect(pressed.isError, pressed.text).toBe(false)
    expect(pressed.text).toMatch(/^Pressed Control\+K Control\+S\./)
    expect(pressed.structured.keys).toEqual(["Control+K", "Control+S"])
    expect(await textOf("shortcut-result")).toBe("Saved all")
    // The save went through IPC: the main process logged it (its console reaches electron_console).
    const logged = await Effect.runPromise(
      callUntil(mcp, "electron_console", { source: "main", text: "saved script.js" }, (r) => r.text.includes("saved script.js"))
    )
    expect(logged.text).toContain("[workbench] main: saved script.js")
  })

  it("a sequence with delays on a target: each press lands, in order", async () => {
    const cleared = await mcp.call("electron_press_key", { key: "Control+K Control+C" })
    expect(cleared.isError, cleared.text).toBe(false)
    expect(await textOf("shortcut-result")).toBe("Key log cleared")
    const pressed = await mcp.call("electron_press_key", { key: "x y Shift+Z Enter", target: "testid=heartbeat-button", delayMs: 30 })
    expect(pressed.isError, pressed.text).toBe(false)
    expect(pressed.text).toMatch(/^Pressed x y Shift\+Z Enter on /)
    expect(await textOf("key-log")).toBe("X Y Z Enter")
  })

  it("an unknown key name fails before anything is pressed, with the name it may have meant", async () => {
    const before = await textOf("key-log")
    const typo = await mcp.call("electron_press_key", { key: "a Control+K Contrl+S" })
    expect(typo.code).toBe("INVALID_ARGUMENT")
    expect(typo.text).toContain('unknown key "Contrl" in "Contrl+S"; nothing was pressed')
    expect(typo.text).toContain('Did you mean "Control"?')
    const alias = await mcp.call("electron_press_key", { key: "Ctrl+S" })
    expect(alias.text).toContain('Did you mean "Control"?')
    const accelerator = await mcp.call("electron_press_key", { key: "CmdOrCtrl+S" })
    expect(accelerator.text).toContain('Did you mean "ControlOrMeta"?')
    expect(await textOf("key-log")).toBe(before)
  })

  it("a single key still presses as before", async () => {
    const pressed = await mcp.call("electron_press_key", { key: "Escape" })
    expect(pressed.isError, pressed.text).toBe(false)
    expect(await textOf("key-log")).toMatch(/ Escape$/)
  })
})
