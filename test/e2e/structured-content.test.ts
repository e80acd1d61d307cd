/**
 * structuredContent carries every fact of the text (some hosts forward only it): on the tasks app, a
 * snapshot, a click with a change summary, a screenshot with its image, electron_status and an
 * assertion error are each recoverable from structuredContent alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

let mcp: TestClient
let launched: ToolCallOutcome
let loaded: ToolCallOutcome

const PAGE = `<!doctype html><html><head><title>facts</title></head><body>
  <h1>Facts</h1><button id="go" onclick="document.getElementById('out').textContent = 'clicked'; document.body.append(Object.assign(document.createElement('p'), { textContent: 'Added line' }))">Go</button>
  <p id="out">idle</p>
</body></html>`

const WORD = /[\p{L}\p{N}]+/gu

/** Every word (lower case) of the keys and scalar values of structuredContent. */
const wordsOf = (value: unknown, into = new Set<string>()): Set<string> => {
  if (value === null || typeof value !== "object") for (const w of String(value).match(WORD) ?? []) into.add(w.toLowerCase())
  else
    for (const [key, v] of Object.entries(value)) {
      if (!Array.isArray(value)) for (const w of key.match(WORD) ?? []) into.add(w.toLowerCase())
      wordsOf(v, into)
    }
  return into
}

/** Each word of each line of the text appears in structuredContent, found without looking at content. */
const expectRecoverable = (result: ToolCallOutcome) => {
  const sc = result.raw.structuredContent
  expect(sc, result.text).toBeDefined()
  const words = wordsOf(sc)
  for (const line of result.text.split("\n")) for (const w of line.match(WORD) ?? []) expect(words.has(w.toLowerCase()), `"${w}" of "${line}"`).toBe(true)
}

/** The text itself is in structuredContent. */
const expectTextCopy = (result: ToolCallOutcome) => {
  expect(result.structured.text ?? result.structured.resultText).toBe(result.text)
  expectRecoverable(result)
}

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["renderer"] })
  launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  loaded = await mcp.call("electron_navigate", { url: `data:text/html,${encodeURIComponent(PAGE)}` })
  expect(loaded.isError, loaded.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("structuredContent carries the facts of the text", () => {
  it("a snapshot: the tree is in structuredContent beside the existing fields", async () => {
    const snapshot = await mcp.call("electron_snapshot")
    expect(snapshot.isError, snapshot.text).toBe(false)
    expect(snapshot.text).toMatch(/button "Go" \[ref=\w+\]/)
    expect(snapshot.structured).toMatchObject({ window: "w1", incremental: false })
    expectTextCopy(snapshot)
    // _meta.size counts each fact once; structuredChars is what a host forwarding only structuredContent gets.
    const size = snapshot.raw._meta.size
    expect(size.chars).toBe(snapshot.text.length + JSON.stringify({ window: "w1", incremental: false, refs: snapshot.structured.refs }).length)
    expect(size.structuredChars).toBe(JSON.stringify(snapshot.structured).length)
  })

  it("a click with a change summary: the Changes lines are in structuredContent", async () => {
    const clicked = await mcp.call("electron_click", { target: "#go" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect(clicked.text).toContain("\nChanges (")
    expect(clicked.text).toContain("Added line")
    expect(clicked.structured).toMatchObject({ window: "w1" })
    expectTextCopy(clicked)
  })

  it("a screenshot: the image is noted (type and bytes) and the text is there", async () => {
    const shot = await mcp.call("electron_screenshot", { target: "#go" })
    expect(shot.images).toBe(1)
    const image = shot.raw.content.find((c: any) => c.type === "image")
    expect(shot.structured.images).toEqual([{ mimeType: "image/png", bytes: Buffer.from(image.data, "base64").length }])
    expect(shot.structured.bytes).toBe(Buffer.from(image.data, "base64").length)
    expectTextCopy(shot)
    expect(shot.raw._meta.size.images).toBe(1)
  })

  it("electron_status: every line is recoverable", async () => {
    const status = await mcp.call("electron_status")
    expect(status.isError, status.text).toBe(false)
    expect(status.structured.app).toMatchObject({ state: "running" })
    expectRecoverable(status)
  })

  it("an error: code, message, expected, actual and hint are structured fields", async () => {
    const failed = await mcp.call("electron_expect_text", { target: "#out", text: "never shown", timeoutMs: 300 })
    expect(failed.isError).toBe(true)
    expect(failed.code).toBe("ASSERTION_FAILED")
    const error = failed.structured.error
    const lines = failed.text.split("\n")
    expect(lines[0]).toBe(`${error.code}: ${error.message}`)
    expect(lines).toContain(`Hint: ${error.hint}`)
    expect(lines).toContain(`Expected: ${JSON.stringify(error.expected)}`)
    expect(lines).toContain(`Actual: ${JSON.stringify(error.actual)}`)
    expectRecoverable(failed)
  })

  it("any other result of a session is recoverable too", async () => {
    expectRecoverable(launched)
    expectRecoverable(loaded)
    for (const [tool, args] of [
      ["electron_windows", {}],
      ["electron_find", { query: "Go" }],
      ["electron_get_text", { target: "#out" }],
      ["electron_fill_form", { fields: [] }],
      ["electron_eval_renderer", { function: "() => ({ a: 1, b: 'two' })" }]
    ] as const) {
      const result = await mcp.call(tool, args)
      if (result.raw.structuredContent !== undefined) expectRecoverable(result)
    }
  })
})
