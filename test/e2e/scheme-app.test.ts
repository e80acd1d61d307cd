/**
 * The `scheme` sample app end to end through the MCP server (in-memory pair): its UI comes from
 * protocol.handle on the privileged app:// scheme, a webRequest hook adds a header and blocks a URL, and the
 * Download button's file is saved by its will-download handler into SAMPLE_APP_DOWNLOADS.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const schemeApp = join(dirname(sampleAppPath("tasks")), "scheme")
const downloads = mkdtempSync(join(tmpdir(), "stagewright-scheme-downloads-"))

/** What the app's /export.csv handler serves (the saved file must be exactly this). */
const expectedCsv = (): string => {
  const rows = ["id,name,done"]
  for (let i = 1; i <= 40; i++) rows.push(`${i},Task ${i},${i % 3 === 0}`)
  return rows.join("\n") + "\n"
}

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full" })
})

afterAll(async () => {
  await mcp?.call("electron_close")
  await mcp?.close()
  rmSync(downloads, { recursive: true, force: true })
})

describe("the scheme sample app (app:// UI, webRequest, downloads)", () => {
  it("electron_launch opens the window served by protocol.handle; the snapshot shows its UI", async () => {
    const launched = await mcp.call("electron_launch", { app: schemeApp, env: { SAMPLE_APP_DOWNLOADS: downloads, SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.structured).toMatchObject({ name: "Scheme Demo", version: "1.0.0" })
    const ready = await Effect.runPromise(callUntil(mcp, "electron_snapshot", {}, (r) => r.text.includes("Served by protocol.handle")))
    expect(ready.text).toMatch(/heading "Scheme Demo" \[level=1\]/)
    expect(ready.text).toContain("Served by protocol.handle: app://scheme-demo/index.html")
    expect(ready.text).toContain("X-Scheme-Demo header: 1")
    // The agent sees the app's URL, never the stand-in's internal address for the scheme.
    const windows = await mcp.call("electron_windows")
    expect(windows.structured.windows.find((w: { active: boolean }) => w.active)?.url).toBe("app://scheme-demo/index.html")
    expect(JSON.stringify([windows.structured, ready.text])).not.toContain("standin.invalid")
  })

  it("clicking Download saves the file through will-download: the page says so, the bytes are on disk", async () => {
    const clicked = await mcp.call("electron_click", { target: "testid=download-button" })
    expect(clicked.isError, clicked.text).toBe(false)
    const csv = expectedCsv()
    // The page says what a browser's download bar would; the file itself is the effect.
    const saved = await mcp.call("electron_expect_text", { target: "testid=download-result", text: "Saved export.csv" })
    expect(saved.isError, saved.text).toBe(false)
    const file = join(downloads, "export.csv")
    expect(existsSync(file)).toBe(true)
    expect(readFileSync(file, "utf8")).toBe(csv)
    // Where it went and its size are the main process's to log.
    const line = `[scheme] main: download completed: export.csv (${Buffer.byteLength(csv)} bytes) to ${file}`
    const logged = await Effect.runPromise(callUntil(mcp, "electron_console", { source: "main", text: "download " }, (r) => r.text.includes(line)))
    expect(logged.text).toContain(line)
    expect((await mcp.call("electron_get_text", { target: "testid=download-result" })).text).toBe("Saved export.csv")
  })

  it("a URL the webRequest hook cancels fails in the page, visibly", async () => {
    expect((await mcp.call("electron_click", { target: "testid=blocked-button" })).isError).toBe(false)
    const blocked = await mcp.call("electron_expect_text", { target: "testid=blocked-result", text: "Blocked: /blocked/data.json" })
    expect(blocked.isError, blocked.text).toBe(false)
  })
})
