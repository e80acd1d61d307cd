/**
 * A page's title and URL are the page's to set, and a page can make either megabytes long (`<title>`,
 * `history.replaceState`): every window header, listing and snapshot names them, so answers show them cut
 * (src/layers/driver/clip.ts), saying how long they were, instead of carrying them whole on every call.
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
