/**
 * The BUILT bin (dist/cli.js, which runs the esbuild bundle dist/bin/stagewright.cjs) with every
 * first-party plugin loaded: each plugin tool is called once on the `tasks` sample app and none may
 * answer INTERNAL_ERROR or take the server down. A tool may answer a domain error (NEEDS_MAIN_PROCESS,
 * INVALID_ARGUMENT, a missing build...): bundling defects (a CommonJS/ESM default-import mix-up, a
 * dependency the bundle cannot load) show up as INTERNAL_ERROR, which the tests on sources never see.
 *
 * The plugins come from the registry and their tools from `stagewright tools --json`, so a new plugin
 * or tool is covered without editing this file: a tool whose input schema has no required property is
 * called with {} (or its entry in ARGUMENTS); a tool with a required property must have an entry in
 * ARGUMENTS, else this test fails. Tools that can disrupt the session (destructive or lifecycle) run last.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { CLI, runNode } from "../support/cli.js"
import { freshUserData, stdioClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

type Args = Record<string, unknown>

const emptyBuildFolder = mkdtempSync(join(tmpdir(), "stagewright-smoke-build-"))
const route = "**/stagewright-smoke-never-requested"

/**
 * Minimal valid arguments, one list of calls per tool (in order). Required for every tool whose schema
 * has a required property; optional otherwise (to keep a call short or well-formed).
 */
const ARGUMENTS: Readonly<Record<string, ReadonlyArray<Args>>> = {
  electron_clock_control: [{ action: "install" }, { action: "advance", by: "1m" }, { action: "status" }, { action: "uninstall" }],
  electron_ipc_invoke: [{ channel: "app:ping", args: ["smoke"] }],
  electron_ipc_mock: [{ channel: "smoke:mocked", result: "ok" }],
  electron_ipc_send: [{ channel: "smoke:unheard" }],
  electron_native_app_event: [{ event: "activate" }],
  electron_native_power: [{ event: "resume" }],
  electron_native_updater: [{ event: "update-not-available" }],
  electron_network_capture: [{ action: "start", url: route }, { action: "read" }, { action: "stop" }],
  electron_network_har_record: [
    { action: "start", url: route },
    { action: "stop", name: "smoke.har" }
  ],
  electron_network_har_replay: [{ file: "smoke.har", url: route }, { stop: true }],
  electron_network_offline: [{ offline: false }],
  electron_network_route: [{ url: route, status: 204 }],
  electron_network_unroute: [{ url: route }],
  electron_perf_cpu_profile: [{ durationMs: 100, top: 3 }],
  electron_perf_memory_watch: [{ intervalMs: 50, samples: 2 }],
  electron_production_asar: [{ build: emptyBuildFolder }],
  electron_production_find_build: [{ folder: emptyBuildFolder }],
  electron_production_fuses: [{ build: emptyBuildFolder }],
  electron_production_launch: [{ build: emptyBuildFolder, timeoutMs: 10_000 }],
  electron_video_control: [{ action: "start" }, { action: "status" }, { action: "stop" }],
  electron_visual_update_baseline: [{ name: "smoke", target: "css=h1" }],
  electron_visual_compare: [{ name: "smoke", target: "css=h1" }]
}

/** Run before the rest, in this order: compare needs the baseline. */
const FIRST = ["electron_visual_update_baseline", "electron_visual_compare"]

interface ManifestTool {
  readonly name: string
  readonly type: string
  readonly plugin?: string | null
  readonly inputSchema: { readonly required?: ReadonlyArray<string> }
}

const pluginNames = Object.keys(firstPartyPlugins).sort()
let manifest: ReadonlyArray<ManifestTool>
let listed: Map<string, { readonly annotations?: { readonly destructiveHint?: boolean } }>
let mcp: TestClient
const outcomes = new Map<string, Array<ToolCallOutcome>>()

beforeAll(async () => {
  const pluginFlags = pluginNames.flatMap((name) => ["--plugin", name])
  const printed = await runNode([CLI, "tools", "--json", ...pluginFlags])
  expect(printed.status, printed.stderr).toBe(0)
  manifest = (JSON.parse(printed.stdout) as { tools: ReadonlyArray<ManifestTool> }).tools.filter((t) => typeof t.plugin === "string")
  const outputDir = mkdtempSync(join(tmpdir(), "stagewright-smoke-out-"))
  mcp = await stdioClient([...pluginFlags, "--output-dir", outputDir, "--allow-eval", "all"], { TMPDIR: process.env.TMPDIR ?? tmpdir() })
  listed = new Map((await mcp.client.listTools()).tools.map((t) => [t.name, t]))
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  expect(ready.isError, ready.text).toBe(false)
  // The late panel appears on a timer: wait for it, so the page is still while the baseline is taken.
  expect((await mcp.call("electron_wait_for", { target: "testid=late-panel" })).isError).toBe(false)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

const callsOf = (tool: ManifestTool): ReadonlyArray<Args> => ARGUMENTS[tool.name] ?? [{}]
const disrupts = (tool: ManifestTool) => tool.type === "lifecycle" || listed.get(tool.name)?.annotations?.destructiveHint === true

describe("the built bin with every first-party plugin", () => {
  it("lists every plugin tool of every registry plugin, and knows arguments for those that need some", () => {
    expect(new Set(manifest.map((t) => t.plugin))).toEqual(new Set(pluginNames))
    for (const tool of manifest) expect(listed.has(tool.name), `${tool.name} is not in tools/list`).toBe(true)
    const needing = manifest.filter((t) => (t.inputSchema.required ?? []).length > 0 && ARGUMENTS[t.name] === undefined).map((t) => t.name)
    expect(needing, "plugin tools with required arguments and no entry in ARGUMENTS").toEqual([])
    const unknown = Object.keys(ARGUMENTS).filter((name) => !manifest.some((t) => t.name === name))
    expect(unknown, "ARGUMENTS entries for tools that no plugin has").toEqual([])
  })

  it("calls every plugin tool once; none answers INTERNAL_ERROR, the server keeps serving", async () => {
    const byName = (a: ManifestTool, b: ManifestTool) => (a.name < b.name ? -1 : 1)
    const first = FIRST.map((name) => manifest.find((t) => t.name === name)!)
    const rest = manifest.filter((t) => !FIRST.includes(t.name)).sort(byName)
    const ordered = [...first, ...rest.filter((t) => !disrupts(t)), ...rest.filter(disrupts)]
    expect(ordered.map((t) => t.name).sort()).toEqual(manifest.map((t) => t.name).sort())
    const internal: Array<string> = []
    for (const tool of ordered) {
      for (const args of callsOf(tool)) {
        // A crashed server rejects here (the transport closed): the test fails with it.
        const result = await mcp.call(tool.name, args)
        outcomes.set(tool.name, [...(outcomes.get(tool.name) ?? []), result])
        if (result.code === "INTERNAL_ERROR" || /INTERNAL_ERROR/.test(result.text))
          internal.push(`${tool.name} ${JSON.stringify(args)}: ${result.text.slice(0, 300)}`)
      }
    }
    expect(internal).toEqual([])
    expect([...outcomes.keys()].sort()).toEqual(manifest.map((t) => t.name).sort())
    const status = await mcp.call("electron_status")
    expect(status.isError, status.text).toBe(false)
  }, 300_000)

  it("electron_visual_compare works in the bundle: a baseline just taken matches", () => {
    const [updated] = outcomes.get("electron_visual_update_baseline") ?? []
    expect(updated?.isError, updated?.text).toBe(false)
    const [compared] = outcomes.get("electron_visual_compare") ?? []
    expect(compared?.isError, compared?.text).toBe(false)
    expect(compared?.structured).toMatchObject({ name: "smoke", ratio: 0, mismatched: 0 })
  })
})
