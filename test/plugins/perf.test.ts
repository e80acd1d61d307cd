/**
 * The perf plugin end to end over MCP on the `a11y` sample app (its "Run slow task" button blocks the
 * renderer for about 250 ms): startup timeline, CPU profiles, heap, memory watch, long tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const app = join(packageRoot(), "test", "fixtures", "apps", "a11y")
const outputDir = mkdtempSync(join(tmpdir(), "stagewright-perf-"))
let mcp: TestClient

const validProfile = (file: string) => {
  const profile = JSON.parse(readFileSync(file, "utf8"))
  expect(Array.isArray(profile.nodes) && profile.nodes.length > 0).toBe(true)
  expect(profile.nodes[0]).toMatchObject({ id: expect.any(Number), callFrame: { functionName: expect.any(String), url: expect.any(String) } })
  expect(Array.isArray(profile.samples) && profile.samples.length > 0).toBe(true)
  expect(profile.timeDeltas).toHaveLength(profile.samples.length)
  expect(profile.endTime).toBeGreaterThan(profile.startTime)
  const ids = new Set(profile.nodes.map((n: any) => n.id))
  expect(profile.samples.every((id: number) => ids.has(id))).toBe(true)
  return profile
}

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["perf"], outputDir })
  const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  expect((await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })).isError).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("perf plugin", () => {
  it("electron_perf_startup gives a labelled timeline from process start to first paint and load", async () => {
    const startup = await mcp.call("electron_perf_startup")
    expect(startup.isError, startup.text).toBe(false)
    const whats = startup.structured.events.map((e: any) => e.what)
    expect(whats[0]).toMatch(/^process start/)
    expect(whats.some((w: string) => w.startsWith("process start (main process"))).toBe(true)
    for (const label of [
      "Stagewright connected",
      "w1 window first seen",
      "w1 page navigation start",
      "w1 page first contentful paint",
      "w1 page DOMContentLoaded",
      "w1 page load"
    ]) {
      expect(
        whats.some((w: string) => w.startsWith(label)),
        label
      ).toBe(true)
    }
    const ms = startup.structured.events.map((e: any) => e.ms)
    expect(ms).toEqual([...ms].sort((a, b) => a - b))
    expect(ms[ms.length - 1]).toBeLessThan(60_000)
    const bad = await mcp.call("electron_perf_startup", { window: "w1" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_perf_cpu_profile of the renderer writes a valid .cpuprofile and names the busy handler", async () => {
    const result = await mcp.call("electron_perf_cpu_profile", { durationMs: 1_000, click: "testid=slow-task" })
    expect(result.isError, result.text).toBe(false)
    expect(result.structured.file).toMatch(/cpu-w1-.*\.cpuprofile$/)
    validProfile(result.structured.file)
    // The click handler busy-loops for 250 ms: it (or performance.now it calls) leads the self-time list.
    const top = result.structured.top
      .slice(0, 3)
      .map((t: any) => t.function)
      .join(" | ")
    expect(top).toMatch(/renderer\.js:\d+|now/)
    expect(result.text).toContain("Top functions by self time:")
  })

  it("electron_perf_cpu_profile of the main process", async () => {
    const result = await mcp.call("electron_perf_cpu_profile", { target: "main", durationMs: 300 })
    expect(result.isError, result.text).toBe(false)
    expect(result.structured.file).toMatch(/cpu-main-.*\.cpuprofile$/)
    validProfile(result.structured.file)
    const clickInMain = await mcp.call("electron_perf_cpu_profile", { target: "main", click: "testid=slow-task" })
    expect(clickInMain.code).toBe("INVALID_ARGUMENT")
    const bad = await mcp.call("electron_perf_cpu_profile", { target: "gpu" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    const missing = await mcp.call("electron_perf_cpu_profile", { target: "w9", durationMs: 100 })
    expect(missing.code).toBe("WINDOW_NOT_FOUND")
  })

  it("electron_perf_heap reports main and renderer heaps and writes heap snapshots on request", async () => {
    const heap = await mcp.call("electron_perf_heap")
    expect(heap.isError, heap.text).toBe(false)
    expect(heap.structured.main.heapUsed).toBeGreaterThan(1_000_000)
    expect(heap.structured.windows[0]).toMatchObject({ window: "w1", used: expect.any(Number) })
    expect(heap.text).toMatch(/^main: rss [\d,]+ KB, heap [\d,]+ KB used/)
    const renderer = await mcp.call("electron_perf_heap", { snapshot: "w1" })
    expect(renderer.isError, renderer.text).toBe(false)
    expect(JSON.parse(readFileSync(renderer.structured.snapshotFile, "utf8")).snapshot.meta.node_fields).toContain("self_size")
    const main = await mcp.call("electron_perf_heap", { snapshot: "main" })
    expect(main.isError, main.text).toBe(false)
    expect(statSync(main.structured.snapshotFile).size).toBeGreaterThan(100_000)
    expect((await mcp.call("electron_perf_heap", { snapshot: "main process" })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_perf_memory_watch samples on a schedule and writes a chart", async () => {
    const watch = await mcp.call("electron_perf_memory_watch", { intervalMs: 100, samples: 5 })
    expect(watch.isError, watch.text).toBe(false)
    expect(watch.structured.samples).toHaveLength(5)
    const times = watch.structured.samples.map((s: any) => s.t)
    expect(times[4] - times[0]).toBeGreaterThanOrEqual(390)
    expect(typeof watch.structured.slopeKBPerSecond).toBe("number")
    expect(readFileSync(watch.structured.chart, "utf8")).toMatch(/^<svg[\s\S]*<polyline/)
    expect(watch.text).toMatch(/slope -?\d+\.\d KB\/s/)
    const main = await mcp.call("electron_perf_memory_watch", { target: "main", intervalMs: 50, samples: 3 })
    expect(main.structured.samples).toHaveLength(3)
    const tooLong = await mcp.call("electron_perf_memory_watch", { intervalMs: 60_000, samples: 600 })
    expect(tooLong.code).toBe("INVALID_ARGUMENT")
    expect(existsSync(outputDir)).toBe(true)
  })

  it("electron_perf_long_tasks sees the slow task and drains what it read", async () => {
    const first = await mcp.call("electron_perf_long_tasks")
    expect(first.isError, first.text).toBe(false)
    const slow = await mcp.call("electron_perf_long_tasks", { click: "testid=slow-task" })
    expect(slow.isError, slow.text).toBe(false)
    expect(slow.structured.tasks.length).toBeGreaterThanOrEqual(1)
    expect(slow.structured.longestMs).toBeGreaterThanOrEqual(240)
    expect(slow.structured.totalBlockingMs).toBeGreaterThanOrEqual(190)
    const again = await mcp.call("electron_perf_long_tasks")
    expect(again.structured.tasks).toEqual([])
    const bad = await mcp.call("electron_perf_long_tasks", { window: "main" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })
})
