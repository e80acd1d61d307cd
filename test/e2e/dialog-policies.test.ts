/**
 * Web dialog policies end to end over MCP on the `tasks` app (confirm on Delete, alert on About board; Rename board's
 * prompt() throws as on Electron and opens none): a one-shot answer used by the next dialog of its type only, standing answers per type (one type
 * left to ask over an answer for every type), clearing them, and the bounded history of the dialogs seen with how
 * each was answered; the exported test registers the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp } from "../plugins/support.js"

let mcp: TestClient

type Called = Awaited<ReturnType<TestClient["call"]>>
const ok = (result: Called) => {
  expect(result.isError, result.text).toBe(false)
  return result
}
const notice = async (text: string) => ok(await mcp.call("electron_expect_text", { target: "testid=notice", text, exact: true }))
const deleteTask = (title: string) => mcp.call("electron_click", { target: `role=button[name="Delete ${title}"]` })

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("web dialog policies", () => {
  it("a one-shot answer is used by the next dialog of its type only", async () => {
    const prepared = ok(await mcp.call("electron_web_dialog", { action: "accept", once: true, type: "confirm" }))
    expect(prepared.text).toBe("The next confirm dialog will be accepted. Prepared answers: next confirm: accept.")
    // An alert does not use the confirm's answer: it waits for the agent.
    const about = ok(await mcp.call("electron_click", { target: "testid=about-board" }))
    expect(about.structured.dialog).toMatchObject({ type: "alert" })
    ok(await mcp.call("electron_web_dialog", { action: "accept" }))
    const first = ok(await deleteTask("Renew passport"))
    expect(first.structured?.dialog).toBeUndefined()
    await notice('Deleted "Renew passport"')
    const second = ok(await deleteTask("Prepare Q3 budget review"))
    expect(second.structured.dialog).toMatchObject({ type: "confirm", message: 'Delete "Prepare Q3 budget review"?' })
    ok(await mcp.call("electron_web_dialog", { action: "dismiss" }))
    await notice('Kept "Prepare Q3 budget review"')

    ok(await mcp.call("electron_web_dialog", { action: "accept", once: true, type: "alert" }))
    const once = ok(await mcp.call("electron_click", { target: "testid=about-board" }))
    expect(once.structured?.dialog).toBeUndefined()
    await notice("About board shown")
  })

  it("standing answers per type: one type can be left to ask over an answer for every type", async () => {
    const every = ok(await mcp.call("electron_web_dialog", { action: "accept", always: true }))
    expect(every.text).toBe("Every web dialog will be accepted. Prepared answers: any dialog: accept.")
    const confirms = ok(await mcp.call("electron_web_dialog", { action: "dismiss", always: true, type: "confirm" }))
    expect(confirms.text).toBe("confirm dialogs will be dismissed. Prepared answers: any dialog: accept; confirm: dismiss.")
    ok(await deleteTask("Book dentist appointment"))
    await notice('Kept "Book dentist appointment"')
    ok(await mcp.call("electron_click", { target: "testid=about-board" }))
    await notice("About board shown")
    const asking = ok(await mcp.call("electron_web_dialog", { action: "accept", always: false, type: "alert" }))
    expect(asking.text).toBe("alert dialogs will wait for electron_web_dialog again. Prepared answers: any dialog: accept; confirm: dismiss; alert: ask.")
    const alert = ok(await mcp.call("electron_click", { target: "testid=about-board" }))
    expect(alert.structured.dialog).toMatchObject({ type: "alert" })
    ok(await mcp.call("electron_web_dialog", { action: "accept" }))
    const cleared = ok(await mcp.call("electron_web_dialog", { action: "accept", always: false }))
    expect(cleared.text).toBe("Web dialogs will wait for electron_web_dialog again. Prepared answers: none (dialogs wait for electron_web_dialog).")
    const waits = ok(await deleteTask("Book dentist appointment"))
    expect(waits.structured.dialog).toMatchObject({ type: "confirm" })
    ok(await mcp.call("electron_web_dialog", { action: "accept" }))
    await notice('Deleted "Book dentist appointment"')
  })

  it("list gives the dialogs seen with how each was answered; bad combinations are refused", async () => {
    const list = ok(await mcp.call("electron_web_dialog", { action: "list" }))
    const lines = list.text.split("\n")
    expect(lines[0]).toBe("8 web dialog(s) seen, newest first:")
    const expected = [
      /^w1 confirm "Delete "Book dentist appointment"\?": accepted \(agent\)$/,
      /^w1 alert "Board "My board": 41 tasks, \d+ done, \d+ open\.": accepted \(agent\)$/,
      /^w1 alert "Board "My board": 41 tasks, .*": accepted \(standing answer\)$/,
      /^w1 confirm "Delete "Book dentist appointment"\?": dismissed \(standing answer\)$/,
      /^w1 alert "Board "My board": 41 tasks, .*": accepted \(one-shot answer\)$/,
      /^w1 confirm "Delete "Prepare Q3 budget review"\?": dismissed \(agent\)$/,
      /^w1 confirm "Delete "Renew passport"\?": accepted \(one-shot answer\)$/,
      /^w1 alert "Board "My board": 42 tasks, .*": accepted \(agent\)$/
    ]
    const entries = lines.slice(1, 9).map((l) => l.replace(/^ {2}\d\d:\d\d:\d\d\.\d{3} /, ""))
    entries.forEach((line, i) => expect(line).toMatch(expected[i]!))
    expect(lines.at(-2)).toBe("Prepared answers: none (dialogs wait for electron_web_dialog).")
    expect(lines.at(-1)).toBe("Open now: 0.")
    expect(list.structured.total).toBe(8)
    const both = await mcp.call("electron_web_dialog", { action: "accept", always: true, once: true })
    expect(both.code).toBe("INVALID_ARGUMENT")
    const typeAlone = await mcp.call("electron_web_dialog", { action: "accept", type: "alert" })
    expect(typeAlone.code).toBe("INVALID_ARGUMENT")
    const none = await mcp.call("electron_web_dialog", { action: "dismiss" })
    expect(none.code).toBe("INVALID_ARGUMENT")
  })

  it("the history keeps the last 50 dialogs", async () => {
    ok(await mcp.call("electron_web_dialog", { action: "accept", always: true, type: "alert" }))
    for (let i = 0; i < 45; i++) ok(await mcp.call("electron_click", { target: "testid=about-board" }))
    const list = ok(await mcp.call("electron_web_dialog", { action: "list" }))
    expect(list.structured.total).toBe(50)
    expect(list.text.split("\n")[0]).toBe("50 web dialog(s) seen, newest 20 first:")
    expect(list.text).toContain("… 30 more (the session keeps the last 50)")
    expect(list.structured.history).toHaveLength(20)
  })

  it("the exported test registers the prepared answers", async () => {
    const exported = ok(await mcp.call("electron_export_test", { name: "dialog-policies", inline: true }))
    expect(exported.text).toContain('window.once("dialog", (dialog) => { if (dialog.type() === "confirm") void dialog.accept() })')
    expect(exported.text).toContain('window.on("dialog", (dialog) => { if (dialog.type() === "confirm") void dialog.dismiss() })')
    expect(exported.text).toContain('window.removeAllListeners("dialog")')
  })
})
