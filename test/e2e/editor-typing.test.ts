/**
 * Code editors over MCP (issue 27 item 1), on the workbench app's own editor: a contenteditable element
 * whose text comes only from its keydown handling. electron_fill replaces its text through the editor's
 * select-all and keys (Playwright's fill would insert text the editor refuses, and answer success); the
 * virtualised editor, which renders ten of its 300 lines, is replaced whole; typing into the read-only
 * editor fails NOT_INTERACTABLE instead of answering success.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { TestClient } from "../support/mcp.js"
import { launchWorkbench } from "./workbench.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await launchWorkbench()
})

afterAll(async () => {
  await mcp?.close()
})

const content = (editor: string) => `css=[data-testid="${editor}"] .content`
const text = async (editor: string) => (await mcp.call("electron_get_text", { target: content(editor) })).text

describe("typing into code editors", () => {
  it("electron_fill replaces a contenteditable editor's text with its own keys and reads it back", async () => {
    const value = "const answer = 42\nconsole.log(answer)"
    const filled = await mcp.call("electron_fill", { target: "testid=editor-plain", value })
    expect(filled.isError, filled.text).toBe(false)
    expect(filled.text).toContain("contenteditable editor")
    expect(filled.text).toContain(", matching the value")
    expect(filled.structured.editor).toMatchObject({ kind: "contenteditable", source: "dom", matches: true, characters: value.length })
    expect(await text("editor-plain")).toBe(value)
    expect((await mcp.call("electron_get_text", { target: "testid=editor-plain-status" })).text).toMatch(/^Lines: 2 /)
    // Filling it again with the same text changes nothing and says so.
    const again = await mcp.call("electron_fill", { target: "testid=editor-plain", value })
    expect(again.text).toContain("already holds the value")
  })

  it("electron_type types at the editor's caret and reports what it holds", async () => {
    const typed = await mcp.call("electron_type", { target: content("editor-plain"), text: "\n// done" })
    expect(typed.isError, typed.text).toBe(false)
    expect(typed.text).toMatch(/^Typed 8 characters into the contenteditable editor/)
    expect(await text("editor-plain")).toBe("const answer = 42\nconsole.log(answer)\n// done")
  })

  it("electron_fill replaces all 300 lines of a virtualised editor, not only the ten it renders", async () => {
    expect((await mcp.call("electron_get_text", { target: "testid=editor-virtual-status" })).text).toMatch(/^Lines: 300 /)
    const filled = await mcp.call("electron_fill", { target: "testid=editor-virtual", value: "first\nsecond" })
    expect(filled.isError, filled.text).toBe(false)
    expect(filled.text).toContain("read from its visible lines")
    expect((await mcp.call("electron_get_text", { target: "testid=editor-virtual-status" })).text).toMatch(/^Lines: 2 /)
    expect(await text("editor-virtual")).toBe("first\nsecond")
  })

  it("typing into the read-only editor fails NOT_INTERACTABLE, and its text stays", async () => {
    const before = await text("editor-readonly")
    const typed = await mcp.call("electron_type", { target: "testid=editor-readonly", text: "hello" })
    expect(typed.isError).toBe(true)
    expect(typed.code).toBe("NOT_INTERACTABLE")
    expect(typed.text).toContain("had no effect")
    expect(typed.text).toContain("marked read-only")
    expect(typed.text).toContain("Hint: ")
    expect(typed.structured.error.retryable).toBe(false)
    const filled = await mcp.call("electron_fill", { target: "testid=editor-readonly", value: "replaced" })
    expect(filled.code).toBe("NOT_INTERACTABLE")
    expect(await text("editor-readonly")).toBe(before)
  })

  it("a value too long to type key by key is refused before any key", async () => {
    const long = await mcp.call("electron_fill", { target: "testid=editor-plain", value: "x".repeat(10_001) })
    expect(long.code).toBe("INVALID_ARGUMENT")
    expect(long.text).toContain("key by key")
    expect(await text("editor-plain")).toBe("const answer = 42\nconsole.log(answer)\n// done")
  })
})
