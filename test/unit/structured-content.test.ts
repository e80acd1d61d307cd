/**
 * The result encoding's rule for structuredContent: the handler's fields unchanged, plus the text unless
 * those fields already cover it, a note of each image, and the full result's URI when the text was cut.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { capResult, coversText, successResult } from "../../src/server/results.js"

const out = () => mkdtempSync(join(tmpdir(), "stagewright-sc-"))

describe("structuredContent carries the text's facts", () => {
  it("adds the text when the fields do not cover it, keeping every field", () => {
    const text = 'Clicked done (getByRole("button")).\nChanges (+1 -0 ~1):\n+ paragraph: Added line'
    const result = successResult({ text, structured: { window: "w1", locator: 'getByRole("button")' } })
    expect(result.structuredContent).toEqual({ window: "w1", locator: 'getByRole("button")', text })
    const size = result._meta!.size as { chars: number; structuredChars: number }
    // Each fact once: the text content and the handler's fields, not the copy.
    expect(size.chars).toBe(text.length + JSON.stringify({ window: "w1", locator: 'getByRole("button")' }).length)
    expect(size.structuredChars).toBe(JSON.stringify(result.structuredContent).length)
  })

  it("adds nothing when the fields already say it all", () => {
    const structured = { name: "tasks", version: "1.0.0", isPackaged: false }
    expect(coversText(structured, "tasks 1.0.0 (isPackaged: false)")).toBe(true)
    expect(successResult({ text: "tasks 1.0.0 (isPackaged: false)", structured }).structuredContent).toEqual(structured)
    expect(coversText(structured, "tasks 1.0.0 (isPackaged: true)")).toBe(false)
  })

  it("never overwrites a field named text: the result text goes to resultText", () => {
    const result = successResult({ text: "Clipboard set (5 chars).", structured: { text: "hello" } })
    expect(result.structuredContent).toEqual({ text: "hello", resultText: "Clipboard set (5 chars)." })
    expect(successResult({ text: "hello", structured: { text: "hello" } }).structuredContent).toEqual({ text: "hello" })
  })

  it("notes each image by type and size", () => {
    const data = Buffer.from("0123456789").toString("base64")
    const result = successResult({ text: "Screenshot of w1 (10 bytes).", structured: { window: "w1", bytes: 10 }, images: [{ data, mimeType: "image/png" }] })
    expect(result.structuredContent).toMatchObject({
      window: "w1",
      bytes: 10,
      images: [{ mimeType: "image/png", bytes: 10 }],
      text: "Screenshot of w1 (10 bytes)."
    })
    expect(result.content.filter((c) => c.type === "image")).toHaveLength(1)
  })

  it("the over-long cut: structuredContent holds the cut's facts as fields, not a second copy of the text", () => {
    const dir = out()
    const text = "x ".repeat(3000)
    const capped = capResult("electron_snapshot", { text, structured: { window: "w1", refs: 3 } }, 1000, dir)
    const result = successResult(capped)
    const link = result.content.find((c) => c.type === "resource_link") as { uri: string }
    const sc = result.structuredContent as Record<string, unknown>
    const shown = (result.content[0] as { text: string }).text
    expect(shown).toContain("… cut at 1000 of 6000 characters; the full result is in ")
    expect(sc).toEqual({
      window: "w1",
      refs: 3,
      textCut: { at: 1000, of: 6000 },
      fullResult: expect.any(String),
      fullResultUri: link.uri,
      textChars: shown.length
    })
    expect(JSON.stringify(sc).length).toBeLessThan(400)
    expect(existsSync(String(sc.fullResult)) && readFileSync(String(sc.fullResult), "utf8").startsWith(text)).toBe(true)
  })

  it("the over-long cut of structured fields keeps its marker, with the cut text beside it", () => {
    const capped = capResult("electron_console", { text: "short", structured: { rows: "y".repeat(3000) } }, 1000, out())
    const sc = successResult(capped).structuredContent as Record<string, unknown>
    expect(sc).toMatchObject({ truncated: true, fullResultUri: expect.stringContaining("responses/") })
    expect(sc.text).toBe("short")
  })

  it("a result without structured fields has no structuredContent", () => {
    expect(successResult({ text: "plain" }).structuredContent).toBeUndefined()
  })
})
