/**
 * The network plugin's capture and delayed routes end to end over MCP on the `network` sample app: its page
 * (served by the app's own HTTP server, so its cookies are first-party) signs in with an Authorization
 * header, loads a large report and reads/writes notes; its main process sends requests of its own with
 * Node's fetch, node:http and Electron's net.fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import { textUntil } from "./support.js"

const APP = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "apps", "network")

let mcp: TestClient

beforeAll(async () => {
  // eval main only to look into the main-process recorder once the capture stopped.
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["network"], pluginConfig: { network: { redactHeaders: ["X-Api-Key"] } }, allowEval: ["main"] })
  const launched = await mcp.call("electron_launch", { app: APP, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
  expect(ready.isError, ready.text).toBe(false)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

const click = async (testid: string) => {
  const clicked = await mcp.call("electron_click", { target: `testid=${testid}` })
  expect(clicked.isError, clicked.text).toBe(false)
}

const capture = (args: Record<string, unknown>) => mcp.call("electron_network_capture", args)

/** The entry of the capture's listing for a path (exactly one). */
const entryFor = async (path: string, args: Record<string, unknown> = {}) => {
  const listed = await capture({ action: "read", ...args })
  expect(listed.isError, listed.text).toBe(false)
  const found = listed.structured.entries.filter((e: any) => new URL(e.url).pathname === path)
  expect(found, listed.text).toHaveLength(1)
  const details = await capture({ action: "read", entry: found[0].n })
  expect(details.isError, details.text).toBe(false)
  return details
}

/** The page's log of finished requests ("METHOD path status"), in the order the answers arrived. */
const requestLog = async () => (await mcp.call("electron_get_text", { target: "testid=request-log" })).text.split("\n").filter((line) => line.length > 0)

describe("network capture", () => {
  it("refuses to read or stop before a capture starts, and bad filters", async () => {
    const read = await capture({ action: "read" })
    expect(read.code).toBe("INVALID_ARGUMENT")
    expect(read.text).toContain("start")
    expect((await capture({ action: "stop" })).code).toBe("INVALID_ARGUMENT")
    expect((await capture({ action: "start", types: ["nope"] })).code).toBe("INVALID_ARGUMENT")
    expect((await capture({ action: "start", methods: ["G3T"] })).code).toBe("INVALID_ARGUMENT")
    expect((await capture({ action: "start", url: "/(a)\\1/" })).code).toBe("INVALID_ARGUMENT")
  })

  it("a login's Authorization header and cookies are captured as <redacted>, its bodies as they are", async () => {
    const started = await capture({ action: "start", url: "**/api/**" })
    expect(started.isError, started.text).toBe(false)
    expect(started.structured.redacted).toEqual(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"])
    expect(started.structured.mainProcess).toBe("seen")
    expect((await capture({ action: "start" })).code).toBe("INVALID_ARGUMENT")

    expect((await mcp.call("electron_fill", { target: "testid=login-user", value: "alice" })).isError).toBe(false)
    expect((await mcp.call("electron_fill", { target: "testid=login-password", value: "wonderland" })).isError).toBe(false)
    await click("login-submit")
    expect(await textUntil(mcp, "login-result", (t) => t.startsWith("Signed in"))).toBe("Signed in as alice")

    const login = await entryFor("/api/login")
    const entry = login.structured.entry
    expect(entry).toMatchObject({ source: "window", window: "w1", method: "POST", type: "fetch", status: 200 })
    expect(entry.requestHeaders.authorization).toBe("<redacted>")
    expect(entry.requestHeaders.cookie).toBe("<redacted>") // the csrf cookie set with the page
    expect(entry.responseHeaders["set-cookie"]).toBe("<redacted>")
    expect(entry.requestHeaders["content-type"]).toBe("application/json")
    expect(entry.requestBody).toMatchObject({ size: 17, text: '{"remember":true}' })
    expect(JSON.parse(entry.responseBody.text)).toEqual({ ok: true, user: "alice" })
    // Neither the credentials (base64 of alice:wonderland) nor the session id reach the answer.
    expect(login.text).not.toContain(btoa("alice:wonderland"))
    expect(login.text).not.toMatch(/session=/)
    expect(login.text).toContain("authorization: <redacted>")

    const profile = (await entryFor("/api/profile")).structured.entry
    expect(profile.requestHeaders.cookie).toBe("<redacted>")
    // The server saw both cookies: they were sent, and only the capture hides them.
    expect(JSON.parse(profile.responseBody.text)).toEqual({ user: "alice", csrf: true })
  })

  it("a body over the bound is written to a file the answer links; a configured header is redacted", async () => {
    await click("load-report")
    expect(await textUntil(mcp, "data-result", (t) => t.startsWith("Report"))).toBe("Report: 2000 rows")
    const report = await entryFor("/api/report", { url: "**/api/report" })
    const body = report.structured.entry.responseBody
    expect(body.size).toBeGreaterThan(8 * 1024)
    expect(body.text).toBeUndefined()
    expect(report.text).toContain(`written to ${body.file}`)
    expect(existsSync(body.file)).toBe(true)
    expect(JSON.parse(readFileSync(body.file, "utf8")).rows).toHaveLength(2000)
    expect(readFileSync(body.file).length).toBe(body.size)
    expect(report.structured.entry.requestHeaders["x-api-key"]).toBe("<redacted>")
    expect(report.text).not.toContain("report-key-123")
  })

  it("the main process's own requests (fetch, node:http, net.fetch) are captured, redacted the same way", async () => {
    await click("check-updates")
    expect(await textUntil(mcp, "main-result", (t) => t.startsWith("Update"))).toBe("Update check: 200, version 2.0.0 (stable)")
    await click("send-telemetry")
    expect(await textUntil(mcp, "main-result", (t) => t.startsWith("Usage"))).toBe("Usage report: 204")
    await click("load-news")
    expect(await textUntil(mcp, "main-result", (t) => t.startsWith("News"))).toBe("News: 3 items")

    const main = await capture({ action: "read", types: ["main"] })
    expect(main.structured.entries.map((e: any) => [e.via, e.method, new URL(e.url).pathname, e.status])).toEqual([
      ["fetch", "GET", "/api/version", 200],
      ["http", "POST", "/api/telemetry", 204],
      ["net.fetch", "GET", "/api/news", 200]
    ])
    const version = (await entryFor("/api/version", { types: ["main"] })).structured.entry
    expect(version.requestHeaders.authorization).toBe("<redacted>")
    expect(JSON.parse(version.responseBody.text)).toEqual({ version: "2.0.0", channel: "stable" })
    const telemetry = await entryFor("/api/telemetry", { types: ["main"] })
    expect(telemetry.structured.entry.requestHeaders.cookie).toBe("<redacted>")
    expect(JSON.parse(telemetry.structured.entry.requestBody.text)).toEqual({ event: "app-opened", password: "<redacted>" })
    expect(telemetry.text).not.toContain("not-a-real-secret")
    expect(telemetry.text).not.toContain("main-device-id")
    const news = (await entryFor("/api/news", { types: ["main"] })).structured.entry
    expect(JSON.parse(news.responseBody.text).items).toHaveLength(3)

    const stopped = await capture({ action: "stop" })
    expect(stopped.isError, stopped.text).toBe(false)
    expect(stopped.text).toContain("6 request(s) captured (3 from the main process)")
    expect((await capture({ action: "stop" })).code).toBe("INVALID_ARGUMENT")
    // Stopped: later requests are not captured, the capture stays readable.
    await click("check-updates")
    expect(await textUntil(mcp, "main-result", (t) => t.startsWith("Update"))).toBe("Update check: 200, version 2.0.0 (stable)")
    expect((await capture({ action: "read" })).structured.total).toBe(6)
    const recorded = await mcp.call("electron_eval_main", { function: "() => globalThis.__stagewright_net.take(true).entries.length" })
    expect(recorded.isError, recorded.text).toBe(false)
    expect(recorded.structured.value).toBe(0)
    expect((await capture({ action: "read", entry: 999 })).code).toBe("INVALID_ARGUMENT")
  })
})

describe("delayed routes", () => {
  const notesLines = async () => (await requestLog()).filter((line) => line.includes("/api/notes"))

  it("a route with a delay for POST holds the POST; a GET sent after it finishes first", async () => {
    const routed = await mcp.call("electron_network_route", { url: "**/api/notes", method: "post", delayMs: 2_000 })
    expect(routed.isError, routed.text).toBe(false)
    expect(routed.text).toContain("POST only, delay 2000 ms, then the network")
    expect((await mcp.call("electron_fill", { target: "testid=note-input", value: "first" })).isError).toBe(false)
    const before = (await notesLines()).length
    await click("save-note")
    await click("load-notes")
    let lines: Array<string> = []
    for (let i = 0; i < 150 && lines.length < before + 2; i++) {
      lines = await notesLines()
      if (lines.length < before + 2) await new Promise((r) => setTimeout(r, 100))
    }
    // The POST was sent first; its answer (from the real server, after the delay) came last.
    expect(lines.slice(before)).toEqual(["GET /api/notes 200", "POST /api/notes 201"])
    const listed = await mcp.call("electron_network_route")
    expect(listed.structured.routes).toEqual([
      { pattern: "**/api/notes", method: "POST", delayMs: 2_000, response: "POST only, delay 2000 ms, then the network", hits: 1, blocked: 0 }
    ])
    expect((await mcp.call("electron_network_unroute", { url: "**/api/notes" })).isError).toBe(false)
  })

  it("removing a route lets a request waiting out its delay go on at once", async () => {
    const routed = await mcp.call("electron_network_route", { url: "**/api/notes", method: "POST", delayMs: 120_000, status: 503, body: "{}" })
    expect(routed.isError, routed.text).toBe(false)
    const before = (await notesLines()).length
    await click("save-note")
    let hits = 0
    for (let i = 0; i < 150 && hits === 0; i++) {
      hits = (await mcp.call("electron_network_route")).structured.routes[0].hits
      if (hits === 0) await new Promise((r) => setTimeout(r, 100))
    }
    expect(hits).toBe(1)
    expect((await notesLines()).length).toBe(before)
    expect((await mcp.call("electron_network_unroute")).isError).toBe(false)
    // The request goes on to the network (not the route's 503) within the helper's 15 s, not after 120 s.
    expect(await textUntil(mcp, "data-result", (t) => t === "Saved note 2")).toBe("Saved note 2")
    expect((await notesLines()).slice(before)).toEqual(["POST /api/notes 201"])
  })

  it("refuses a method that is not one", async () => {
    const bad = await mcp.call("electron_network_route", { url: "**/api/notes", method: "P0ST", delayMs: 10 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    expect(bad.text).toContain("method")
    expect((await mcp.call("electron_network_route", { url: "**/api/notes", delayMs: -1 })).code).toBe("INVALID_ARGUMENT")
  })
})
