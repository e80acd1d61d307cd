/**
 * What a page sets, at sizes no real page needs, against the answers that name it:
 * - a title and a URL of 100,000 characters (`<title>`, `history.replaceState`): every window header, listing and
 *   snapshot names them, so answers show them cut (src/layers/driver/clip.ts), saying how long they were;
 * - console messages and an error of a megabyte without a space (a run of `/`, of letters): the answer that tells
 *   new errors looks for source positions in them, which took minutes a message with a pattern that tried every
 *   start (src/tools/debug/source-maps.ts, src/tools/pipeline/new-errors.ts) while the server answered nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const TITLE = `Huge ${"t".repeat(100_000)}`
const QUERY = "q".repeat(100_000)
let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("a page with a title and a URL of 100,000 characters", () => {
  it("is named in headers and listings cut to a bound, with its length", async () => {
    const page = join(mkdtempSync(join(tmpdir(), "sw-headers-")), "huge.html")
    writeFileSync(page, `<title>${TITLE}</title><h1>Huge</h1><script>history.replaceState(null, "", "?${QUERY}")</script>`)
    const navigated = await mcp.call("electron_navigate", { url: pathToFileURL(page).href })
    expect(navigated.isError, navigated.text).toBe(false)
    expect(navigated.text.length).toBeLessThan(1_000)
    await mcp.call("electron_wait_for", { url: "?qqq" })
    const titleShown = `"Huge ${"t".repeat(194)}… (${TITLE.length} chars)"`
    for (const [tool, args] of [
      ["electron_snapshot", {}],
      ["electron_windows", {}],
      ["electron_status", {}],
      ["electron_select_window", { title: "Huge ttt" }]
    ] as const) {
      const answer = await mcp.call(tool, args)
      expect(answer.isError, answer.text).toBe(false)
      expect(answer.text, tool).toContain(titleShown)
      // The URL: its first characters and its length, never the whole.
      expect(answer.text, tool).toMatch(/huge\.html\?q+… \(\d+ chars\)/)
      expect(answer.text.length, tool).toBeLessThan(2_000)
      expect(JSON.stringify(answer.structured).length, tool).toBeLessThan(4_000)
    }
    const snapshot = await mcp.call("electron_snapshot", {})
    expect(snapshot.text).toContain('heading "Huge"')
  })
})

describe("console messages and an error of a megabyte without a space", () => {
  it("are told cut in the next answer, and the server keeps answering", { timeout: 60_000 }, async () => {
    const page = join(mkdtempSync(join(tmpdir(), "sw-messages-")), "loud.html")
    const script = [
      'console.error("E".repeat(1000000))',
      'console.error("/".repeat(1000000))',
      'setTimeout(() => { throw new Error("/a".repeat(500000)) }, 0)'
    ].join(";")
    writeFileSync(page, `<title>Loud</title><h1>Loud</h1><script>${script}</script>`)
    const navigated = await mcp.call("electron_navigate", { url: pathToFileURL(page).href })
    expect(navigated.isError, navigated.text).toBe(false)
    const told: Array<string> = []
    // The error is thrown after the load: the answers until one tells it (usually the navigation's own).
    for (let i = 0; i < 20 && ![navigated.text, ...told].join("\n").includes("Page error (w1): /a/a"); i++) {
      const answer = await mcp.call("electron_expect_text", { target: "css=h1", text: "Loud" })
      expect(answer.isError, answer.text).toBe(false)
      expect(answer.text.length).toBeLessThan(2_000)
      told.push(answer.text)
    }
    const all = [navigated.text, ...told].join("\n")
    expect(all).toMatch(/Console error \(w1\): E{100,}…/)
    expect(all).toMatch(/Console error \(w1\): \/{100,}…/)
    expect(all).toMatch(/Page error \(w1\): (\/a){50,}/)
    expect((await mcp.call("electron_status")).isError).toBe(false)
  })
})
