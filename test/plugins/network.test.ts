/**
 * The network plugin end to end over MCP on the `tasks` app: its quote loader fetches the app's local
 * HTTP API, so a mocked route, offline mode, throttling and a replayed HAR show in the window.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp, textUntil } from "./support.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["network"], allowEval: ["renderer", "main"] })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

const loadQuote = async (done: (text: string) => boolean) => {
  const clicked = await mcp.call("electron_click", { target: "testid=load-quote" })
  expect(clicked.isError, clicked.text).toBe(false)
  return textUntil(mcp, "quote-result", (t) => t !== "Loading…" && done(t))
}

describe("network plugin", () => {
  it("an unloaded plugin's tool answers PLUGIN_NOT_LOADED naming the flag", async () => {
    const bare = await inMemoryClient({})
    try {
      const result = await bare.call("electron_network_offline", { offline: true })
      expect(result.code).toBe("PLUGIN_NOT_LOADED")
      expect(result.text).toContain("--plugin network")
    } finally {
      await bare.close()
    }
  })

  it("electron_network_route mocks the app's own request (the window shows it); unroute restores the real API", async () => {
    const real = await loadQuote((t) => t.startsWith("“"))
    expect(real).not.toContain("Mocked")
    const routed = await mcp.call("electron_network_route", {
      url: "**/api/quote*",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: 9, text: "Mocked wisdom", author: "Stagewright" })
    })
    expect(routed.isError, routed.text).toBe(false)
    expect(routed.text).toContain("**/api/quote* -> 200")
    expect(await loadQuote((t) => t.includes("Mocked"))).toBe("“Mocked wisdom” — Stagewright")
    const listed = await mcp.call("electron_network_route")
    expect(listed.structured.routes).toEqual([{ pattern: "**/api/quote*", response: expect.stringContaining("200"), hits: 1, blocked: 0 }])

    const failing = await mcp.call("electron_network_route", { url: "/\\/api\\/quote/", status: 503, body: JSON.stringify({ error: "down for maintenance" }) })
    expect(failing.isError, failing.text).toBe(false)
    expect(await loadQuote((t) => t.startsWith("Quote failed"))).toBe("Quote failed: HTTP 503: down for maintenance")

    const aborted = await mcp.call("electron_network_route", { url: "**/api/health", abort: "connectionrefused" })
    expect(aborted.isError, aborted.text).toBe(false)
    const health = await mcp.call("electron_eval_renderer", {
      function:
        "async () => { const port = await window.api.getServerPort(); try { await fetch(`http://127.0.0.1:${port}/api/health`); return 'ok' } catch (e) { return String(e.message) } }"
    })
    expect(health.structured.value).toBe("Failed to fetch")

    const removed = await mcp.call("electron_network_unroute", { url: "/\\/api\\/quote/" })
    expect(removed.isError, removed.text).toBe(false)
    expect(await loadQuote((t) => t.includes("Mocked"))).toBe("“Mocked wisdom” — Stagewright")
    const all = await mcp.call("electron_network_unroute")
    expect(all.structured.removed).toHaveLength(2)
    expect(all.text).toContain("No mocked routes.")
    expect(await loadQuote((t) => t.startsWith("“"))).not.toContain("Mocked")
  })

  it("electron_network_route answers from a file, once with times (then the route is gone)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "stagewright-mock-")), "quote.json")
    writeFileSync(file, JSON.stringify({ id: 1, text: "From a file", author: "Fixture" }))
    const routed = await mcp.call("electron_network_route", { url: "**/api/quote*", file, times: 1 })
    expect(routed.isError, routed.text).toBe(false)
    expect(await loadQuote((t) => t.includes("From a file"))).toBe("“From a file” — Fixture")
    expect(await loadQuote((t) => t.startsWith("“") && !t.includes("From a file"))).toMatch(/^“.+” — .+/)
    expect((await mcp.call("electron_network_route")).structured.routes).toEqual([])
    const missing = await mcp.call("electron_network_route", { url: "**/x", file: "/no/such/file.json" })
    expect(missing.code).toBe("INVALID_ARGUMENT")
  })

  it("route and unroute refuse bad input with INVALID_ARGUMENT naming the field", async () => {
    const nested = await mcp.call("electron_network_route", { url: "/(a)\\1/", body: "x" })
    expect(nested.code).toBe("INVALID_ARGUMENT")
    expect(nested.text).toContain("url")
    const both = await mcp.call("electron_network_route", { url: "**/x", abort: "failed", body: "x" })
    expect(both.code).toBe("INVALID_ARGUMENT")
    const reason = await mcp.call("electron_network_route", { url: "**/x", abort: "nope" })
    expect(reason.code).toBe("INVALID_ARGUMENT")
    const noUrl = await mcp.call("electron_network_route", { body: "x" })
    expect(noUrl.code).toBe("INVALID_ARGUMENT")
    const unknown = await mcp.call("electron_network_unroute", { url: "**/never-added" })
    expect(unknown.code).toBe("INVALID_ARGUMENT")
    const status = await mcp.call("electron_network_route", { url: "**/x", status: 42 })
    expect(status.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_network_offline shows the app's error state; back online the quote loads", async () => {
    const off = await mcp.call("electron_network_offline", { offline: true })
    expect(off.isError, off.text).toBe(false)
    expect(off.structured.windows[0]).toMatchObject({ window: "w1", onLine: false })
    expect(await loadQuote((t) => t.startsWith("Quote failed"))).toBe("Quote failed: Failed to fetch")
    const on = await mcp.call("electron_network_offline", { offline: false })
    expect(on.structured.windows[0]).toMatchObject({ onLine: true })
    expect(await loadQuote((t) => t.startsWith("“"))).toMatch(/^“.+” — .+/)
    const bad = await mcp.call("electron_network_offline", {})
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_network_throttle adds latency the page sees (navigator.connection, request time); all 0 turns it off", async () => {
    const slow = await mcp.call("electron_network_throttle", { latencyMs: 1_200, downloadKbps: 500 })
    expect(slow.isError, slow.text).toBe(false)
    expect(slow.structured.windows[0].rttMs).toBeGreaterThanOrEqual(1_000)
    const timed = async () =>
      (
        await mcp.call("electron_eval_renderer", {
          function:
            "async () => { const port = await window.api.getServerPort(); const t = performance.now(); await fetch(`http://127.0.0.1:${port}/api/health`); return Math.round(performance.now() - t) }"
        })
      ).structured.value as number
    expect(await timed()).toBeGreaterThanOrEqual(1_100)
    // A window opened afterwards is throttled too.
    const port = (await mcp.call("electron_eval_renderer", { function: "() => window.api.getServerPort()" })).structured.value
    const page = join(mkdtempSync(join(tmpdir(), "stagewright-probe-")), "probe.html")
    writeFileSync(page, "<!doctype html><title>Probe</title><p>probe</p>")
    const opened = await mcp.call("electron_eval_main", {
      function: "async ({ BrowserWindow }, file) => { const w = new BrowserWindow({ width: 400, height: 300 }); await w.loadFile(file); return w.id }",
      arg: page
    })
    expect(opened.isError, opened.text).toBe(false)
    const probe = await mcp.call("electron_wait_for_window", { title: "Probe" })
    expect(probe.isError, probe.text).toBe(false)
    const inProbe = await mcp.call("electron_eval_renderer", {
      function: "async (port) => { const t = performance.now(); await fetch(`http://127.0.0.1:${port}/api/health`); return Math.round(performance.now() - t) }",
      arg: port
    })
    expect(inProbe.isError, inProbe.text).toBe(false)
    expect(inProbe.structured.value).toBeGreaterThanOrEqual(1_100)
    expect((await mcp.call("electron_window_close", { window: probe.structured.window.id })).isError).toBe(false)
    expect((await mcp.call("electron_select_window", { window: "w1" })).isError).toBe(false)
    const off = await mcp.call("electron_network_throttle", {})
    expect(off.text).toContain("no throttling")
    expect(await timed()).toBeLessThan(1_000)
    const bad = await mcp.call("electron_network_throttle", { latencyMs: -5 })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("a recorded HAR replays with the app's server stopped", async () => {
    const notRunning = await mcp.call("electron_network_har_record", { action: "stop" })
    expect(notRunning.code).toBe("INVALID_ARGUMENT")
    const started = await mcp.call("electron_network_har_record", { action: "start", url: "**/api/**" })
    expect(started.isError, started.text).toBe(false)
    const recorded = await loadQuote((t) => t.startsWith("“"))
    const stopped = await mcp.call("electron_network_har_record", { action: "stop", name: "quotes.har" })
    expect(stopped.isError, stopped.text).toBe(false)
    const path: string = stopped.structured.path
    expect(existsSync(path)).toBe(true)
    const har = JSON.parse(readFileSync(path, "utf8"))
    expect(har.log.entries.map((e: any) => new URL(e.request.url).pathname)).toEqual(["/api/quote"])

    const stop = await mcp.call("electron_eval_renderer", { function: "() => window.api.stopServer()" })
    expect(stop.structured.value).toEqual({ stopped: true })
    expect(await loadQuote((t) => t.startsWith("Quote failed"))).toBe("Quote failed: Failed to fetch")

    const replay = await mcp.call("electron_network_har_replay", { file: "quotes.har" })
    expect(replay.isError, replay.text).toBe(false)
    expect(await loadQuote((t) => t.startsWith("“"))).toBe(recorded)
    // Only /api/quote was recorded: with notFound fallback other requests still reach the (stopped) network.
    const fallback = await mcp.call("electron_network_har_replay", { file: path, url: "**/api/**", notFound: "fallback" })
    expect(fallback.isError, fallback.text).toBe(false)
    expect(await loadQuote((t) => t.startsWith("“"))).toBe(recorded)
    const end = await mcp.call("electron_network_har_replay", { stop: true })
    expect(end.isError, end.text).toBe(false)
    expect(await loadQuote((t) => t.startsWith("Quote failed"))).toBe("Quote failed: Failed to fetch")

    const missing = await mcp.call("electron_network_har_replay", { file: "/no/such.har" })
    expect(missing.code).toBe("INVALID_ARGUMENT")
    const outside = await mcp.call("electron_network_har_record", { action: "start" })
    expect(outside.isError).toBe(false)
    const escape = await mcp.call("electron_network_har_record", { action: "stop", name: "../escape.har" })
    expect(escape.code).toBe("PATH_NOT_ALLOWED")
  })
})
