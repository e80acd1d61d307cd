/**
 * What the app writes, kept and read at a bound: console and error texts are kept cut (a megabyte message must
 * not be held a thousand times), a stack keeps its frames, and the patterns that find positions and script URLs
 * in those texts still find them after a long run without spaces (each run is scanned once).
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { keptStack, keptText, MAX_ENTRY_CHARS } from "../../src/layers/driver/buffers.js"
import { clipText } from "../../src/layers/driver/clip.js"
import { scriptOfStack } from "../../src/layers/driver/event-surface.js"
import { makeMapper } from "../../src/tools/debug/source-maps.js"

describe("kept texts", () => {
  it("cut a text over the bound and say how long it was; a short one is kept as it is", () => {
    expect(clipText("short", 10)).toBe("short")
    expect(clipText("x".repeat(11), 10)).toBe(`${"x".repeat(9)}… (11 chars)`)
    const kept = keptText("E".repeat(1_000_000))
    expect(kept.length).toBeLessThan(MAX_ENTRY_CHARS + 30)
    expect(kept).toMatch(/^E+… \(1000000 chars\)$/)
  })

  it("keep a long stack's message start and its frames", () => {
    const frame = "    at boom (file:///app/dist/main.js:3:14)"
    const stack = `Error: ${"/a".repeat(500_000)}\n${frame}`
    const kept = keptStack(stack)
    expect(kept.length).toBeLessThan(MAX_ENTRY_CHARS + 60)
    expect(kept.startsWith("Error: /a/a")).toBe(true)
    expect(kept.endsWith(frame)).toBe(true)
    expect(kept).toContain(`chars cut) …`)
    expect(keptStack(`Error: boom\n${frame}`)).toBe(`Error: boom\n${frame}`)
  })

  it("find a stack's script URL past a long run of URL-like text, and none in text without a position", () => {
    expect(scriptOfStack("Error: boom\n    at boom (file:///app/dist/main.js:3:14)")).toBe("file:///app/dist/main.js")
    expect(scriptOfStack(`Error: ${"file://".repeat(200_000)}\n    at https://example.test/app.js:1:2`)).toBe("https://example.test/app.js")
    expect(scriptOfStack(`Error: ${"https://".repeat(200_000)}`)).toBeUndefined()
    expect(scriptOfStack(undefined)).toBeUndefined()
  })

  it("map a megabyte of slashes unchanged (no position in it), and a position after it", async () => {
    const mapper = await makeMapper(mkdtempSync(join(tmpdir(), "sw-kept-")))
    const slashes = "/".repeat(1_000_000)
    expect(await mapper.map(slashes)).toBe(slashes)
    // No map for this bundle: the text is unchanged, its position found and left as it was.
    const text = `${"/a".repeat(300_000)} at (/nowhere/x.js:1:2)`
    expect(await mapper.map(text)).toBe(text)
  })
})
