/**
 * Issue 42: a plain input or textarea is told without the editor probe's page function (eleven CDP commands).
 * electron_fill and electron_type tell it in their action's own element lookup, through the driver's selector engine
 * (src/layers/driver/plain-field.ts: ifPlainField), with no round trip of their own; plugins by one selector count
 * (src/tools/interact/editor.ts: isPlainField). Checked here on Chromium against the probe itself: whatever the count calls plain,
 * the probe reads as a `field`, and the engine passes exactly what the count calls plain (failing at once, before any
 * input, on anything else there); inputs inside Monaco, CodeMirror 6 and 5 containers, contenteditable hosts, a
 * textarea holding text and a missing target are left to the probe; a target in two places is not plain. Over MCP on
 * the tasks app: a plain input is filled and typed into as before (no count), and a target that matches a plain input
 * and a button fails AMBIGUOUS_LOCATOR as the probe always made it fail. A password field is never plain, and the
 * recorded step's password check (one count too) counts a gone or ambiguous target as a password.
 */
import { Effect } from "effect"
import * as playwrightCore from "playwright-core"
import { chromium, type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { NOT_PLAIN, plainFieldOf, registerPlainFieldEngine } from "../../src/layers/driver/plain-field.js"
import { sampleAppPath } from "../../src/samples.js"
import { isPlainField, probeEditor } from "../../src/tools/interact/editor.js"
import { isPasswordField } from "../../src/tools/policy/call-secrets.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let browser: Browser
let page: Page

beforeAll(async () => {
  await registerPlainFieldEngine(playwrightCore)
  browser = await chromium.launch({ executablePath: "/usr/lib/chromium/chromium", args: ["--no-sandbox"] })
  page = await browser.newPage()
  await page.setContent(`
    <input id="plain" aria-label="Title">
    <textarea id="notes"></textarea>
    <textarea id="prefilled">hello</textarea>
    <div class="monaco-editor"><textarea id="monaco"></textarea></div>
    <div class="cm-editor"><div class="cm-content" contenteditable="true"><input id="in-cm"></div></div>
    <div class="CodeMirror"><div><textarea id="cm5"></textarea></div></div>
    <div contenteditable="true"><input id="in-editable"></div>
    <input id="editable-input" contenteditable="true">
    <div id="editable" contenteditable="true">text</div>
    <button id="button">Go</button>
    <input class="twice"><input class="twice">
    <input id="pw" type="password"><input id="pw-caps" type="PassWord">
    <div class="monaco-editor"><div><div id="deep-host"></div></div></div>
    <div id="host"></div>
  `)
  // Inputs in shadow trees (one of them under an editor's container): XPath cannot look past a shadow root.
  await page.evaluate(() => {
    for (const id of ["host", "deep-host"]) {
      const root = document.getElementById(id)!.attachShadow({ mode: "open" })
      root.innerHTML = `<input id="${id}-input">`
    }
  })
})

afterAll(async () => {
  await browser?.close()
})

const plain = (selector: string) => isPlainField(page.locator(selector))

describe("a plain field told by one selector count", () => {
  it("an input or empty textarea outside any editor is plain, and the probe reads it as a field", async () => {
    for (const selector of ["#plain", "#notes"]) {
      expect(await plain(selector), selector).toBe(true)
      expect((await probeEditor(page.locator(selector), 1_000)).kind, selector).toBe("field")
    }
  })

  it("editors, editable hosts, a textarea holding text, a button and a missing target are left to the probe", async () => {
    for (const selector of [
      "#prefilled",
      "#monaco",
      "#in-cm",
      "#cm5",
      "#in-editable",
      "#editable-input",
      "#editable",
      "#button",
      "#missing",
      "#deep-host-input"
    ]) {
      expect(await plain(selector), selector).toBe(false)
    }
  })

  it("an input in a shadow tree is left to the probe (which reads it as a field)", async () => {
    expect(await plain("#host-input")).toBe(false)
    expect((await probeEditor(page.locator("#host-input"), 1_000)).kind).toBe("field")
  })

  it("a target matching two fields is not one plain field", async () => {
    expect(await plain(".twice")).toBe(false)
  })

  it("a password field is never plain: what is typed into it goes through the password check", async () => {
    for (const selector of ["#pw", "#pw-caps"]) expect(await plain(selector), selector).toBe(false)
  })
})

describe("a plain field told by the fill's own lookup (the driver's selector engine)", () => {
  const present = ["#plain", "#notes", "#prefilled", "#monaco", "#in-cm", "#cm5", "#in-editable", "#editable-input", "#editable", "#button"]
  const shadowed = ["#host-input", "#deep-host-input", "#pw", "#pw-caps"]

  it("passes exactly what the count calls plain, and fails at once, before any input, on anything else", async () => {
    for (const selector of [...present, ...shadowed]) {
      const before = await page.locator(selector).evaluate((e) => ("value" in e ? (e as HTMLInputElement).value : e.textContent))
      const filled = await plainFieldOf(page.locator(selector))
        .fill("typed", { timeout: 3_000 })
        .then(
          () => "filled",
          (error: Error) => (error.message.includes(NOT_PLAIN) ? "not plain" : error.message)
        )
      expect(filled, selector).toBe((await plain(selector)) ? "filled" : "not plain")
      const after = await page.locator(selector).evaluate((e) => ("value" in e ? (e as HTMLInputElement).value : e.textContent))
      expect(after, selector).toBe(filled === "filled" ? "typed" : before)
    }
  })

  it("waits for a missing target as a fill does, and finds a target in two places ambiguous", async () => {
    await expect(plainFieldOf(page.locator("#missing")).fill("x", { timeout: 300 })).rejects.toThrow(/Timeout 300ms exceeded/)
    await expect(plainFieldOf(page.locator(".twice")).fill("x", { timeout: 3_000 })).rejects.toThrow(/strict mode violation/)
  })
})

describe("the password check of a recorded step: one selector count", () => {
  const secret = (selector: string) => Effect.runPromise(isPasswordField(page.locator(selector)))
  it("a password field (its type in any case) is one; a text field or textarea is not", async () => {
    expect(await secret("#pw")).toBe(true)
    expect(await secret("#pw-caps")).toBe(true)
    expect(await secret("#plain")).toBe(false)
    expect(await secret("#notes")).toBe(false)
  })

  it("a target that is gone or ambiguous counts as one: a record never holds a password because the check could not tell", async () => {
    expect(await secret("#missing")).toBe(true)
    expect(await secret(".twice")).toBe(true)
  })
})

describe("electron_fill and electron_type on plain fields (tasks app)", () => {
  let mcp: TestClient
  beforeAll(async () => {
    mcp = await inMemoryClient({})
    const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    // The board starts up (its sync notice can take the focus): the fields are used once it has.
    expect((await mcp.call("electron_wait_for", { target: "[data-testid=board-name]" })).isError).toBe(false)
    expect((await mcp.call("electron_snapshot", {})).isError).toBe(false)
  })
  afterAll(async () => {
    await mcp?.close()
  })

  it("fills and types into a plain input, counting nothing first", async () => {
    const count = vi.spyOn(Object.getPrototypeOf(page.locator("body")) as { count: () => Promise<number> }, "count")
    const filled = await mcp.call("electron_fill", { target: "testid=task-title-input", value: "Plain" })
    expect(count).not.toHaveBeenCalled()
    expect(filled.isError, filled.text).toBe(false)
    expect(filled.text).toContain('Fill testid=task-title-input done (getByTestId("task-title-input"))')
    const value = await mcp.call("electron_get_attribute", { target: "testid=task-title-input", name: "value" })
    expect(value.structured).toMatchObject({ value: "Plain" })
    const typed = await mcp.call("electron_type", { target: "testid=task-title-input", text: " field" })
    expect(typed.isError, typed.text).toBe(false)
    expect(count).not.toHaveBeenCalled()
    // The spy sees the server's calls: electron_find counts its matches.
    expect((await mcp.call("electron_find", { target: "testid=task-title-input" })).isError).toBe(false)
    expect(count).toHaveBeenCalled()
    count.mockRestore()
    // The keys' last input events can land after the answer (Playwright's pressSequentially on Chromium): the value is waited for.
    const held = await mcp.call("electron_expect_value", { target: "testid=task-title-input", value: "Plain field" })
    expect(held.isError, held.text).toBe(false)
  })

  it("a target matching a plain input and a button fails AMBIGUOUS_LOCATOR from the probe, as before", async () => {
    const target = "css=[data-testid=task-title-input], [data-testid=toggle-theme-button]"
    const filled = await mcp.call("electron_fill", { target, value: "x" })
    expect(filled.isError).toBe(true)
    expect(filled.structured.error.code).toBe("AMBIGUOUS_LOCATOR")
    expect(filled.text).toContain(`find ${target}: the target matches 2 elements`)
  })
})
