/**
 * Fuzzing with the `tasks` sample app running: valid-shaped calls to the read, assert and interact
 * tools (and the read-only debug, author and native ones) over the in-memory MCP client, then a
 * deliberate set of eval, navigation and file-name calls. Same invariants as without an app, and the
 * app must still answer electron_status with state "running" at the end.
 *
 * Bounded on purpose: every timeoutMs is capped at 300 ms, the server's operation timeout is 10 s,
 * typing delays, window sizes and find limits are capped, and a web dialog an action opens is
 * dismissed at once (a pending dialog would stall every later call in that window). Left out: tools
 * that end or replace the app or its window (close, window_close, navigate, reload, history), tracing
 * and test export (they write files), menu clicks (the menu has Quit), dialog stubs and the clipboard.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { checkResult, fieldsOf, FuzzTally, fuzzSeed, planCalls, runCalls, type Chooser, type FuzzCall } from "../../src/bench/fuzz/index.js"
import { type Tool } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { coreTools } from "../../src/server/tools.js"
import { manifestEntry } from "../../src/tools/pipeline/manifest.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import { descendants, waitAllGone } from "../support/processes.js"
import { DISRUPTIVE_TOOLS, fuzzableTools, guardProcess, printTable, type ProcessGuard } from "./support.js"

const SEED = fuzzSeed(20_261_129) + 13
const MAX_TIMEOUT_MS = 300

const EXCLUDED = DISRUPTIVE_TOOLS

const appTools = fuzzableTools(EXCLUDED)

/** Targets that exist in the tasks app (and a few that do not), so many calls reach real elements. */
const TARGETS = [
  "testid=ping-button",
  "testid=ping-input",
  "testid=ping-result",
  "testid=task-title-input",
  "testid=task-notes-input",
  "testid=task-priority-select",
  "testid=task-urgent-checkbox",
  "testid=category-work",
  "testid=category-home",
  "testid=task-due-input",
  "testid=add-task-button",
  "testid=search-input",
  "testid=filter-select",
  "testid=task-list",
  "testid=task-count",
  "testid=notice",
  "testid=board-name",
  "testid=theme-indicator",
  "testid=toggle-theme-button",
  "testid=about-board",
  "testid=rename-board",
  "testid=load-quote",
  "testid=crash-button",
  "testid=versions",
  "testid=no-such-element",
  "role=heading[level=1]",
  'role=button[name="Ping"]',
  "role=listitem",
  "role=checkbox",
  "role=button",
  "text=Task Board",
  "label=Title",
  "placeholder=What needs doing?",
  "css=#task-title",
  "h1",
  "body",
  ...Array.from({ length: 12 }, (_, i) => `e${i * 5 + 1}`)
]
const KEYS = ["Enter", "Tab", "Shift+Tab", "Escape", "ArrowDown", "ArrowUp", "a", "Backspace", "Control+A", "Space"]

/** Keeps a valid-shaped call bounded and often aimed at real elements (used only while it still decodes). */
const tune = (tool: Tool, args: Record<string, unknown>, choose: Chooser): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...args }
  if (fieldsOf(tool).some((f) => f.name === "timeoutMs")) out.timeoutMs = choose.int(MAX_TIMEOUT_MS + 1)
  for (const key of ["target", "source"]) if (typeof out[key] === "string" && choose.chance(0.7)) out[key] = choose.pick(TARGETS)
  if (Array.isArray(out.fields)) {
    out.fields = (out.fields as Array<Record<string, unknown>>).slice(0, 4).map((f) => (choose.chance(0.7) ? { ...f, target: choose.pick(TARGETS) } : f))
  }
  if (typeof out.delayMs === "number") out.delayMs = out.delayMs % 21
  if (tool.name === "electron_type" && typeof out.text === "string") out.text = out.text.slice(0, 200)
  if (tool.name === "electron_press_key" && choose.chance(0.6)) out.key = choose.pick(KEYS)
  if (typeof out.limit === "number") out.limit = Math.min(out.limit, 20)
  for (const key of ["width", "height"]) if (typeof out[key] === "number") out[key] = ((out[key] as number) % 1_600) + 200
  for (const key of ["x", "y"]) if (typeof out[key] === "number") out[key] = (out[key] as number) % 1_000
  return out
}

/** Calls aimed at known weak spots: eval source that does not parse or never settles, javascript: URLs, file names. */
const DELIBERATE: ReadonlyArray<FuzzCall> = [
  ...[
    "() => document.title",
    "async () => { await new Promise((r) => setTimeout(r, 50)); return 1 }",
    "() => { throw new Error('boom') }",
    "() => window",
    "() => { const a = {}; a.self = a; return a }",
    "() => undefined",
    "() => 1n",
    "() => {",
    "x => )"
  ].flatMap((source) => [
    { kind: "valid" as const, tool: "electron_eval_renderer", args: { function: source } },
    { kind: "valid" as const, tool: "electron_eval_main", args: { function: source.replace("document.title", "process.pid").replace("window", "globalThis") } }
  ]),
  { kind: "valid", tool: "electron_eval_renderer", args: { function: "(arg) => arg", arg: { a: [1, "x", null, { b: true }] } } },
  // Never settles: answered TIMEOUT at the server's operation timeout (10 s), and the window stays usable.
  { kind: "valid", tool: "electron_eval_renderer", args: { function: "() => new Promise(() => {})" } },
  { kind: "valid", tool: "electron_get_text", args: { target: "role=heading[level=1]", timeoutMs: 1_000 } },
  { kind: "valid", tool: "electron_navigate", args: { url: "javascript:document.title" } },
  { kind: "valid", tool: "electron_navigate", args: { url: "javascript:%" } },
  { kind: "valid", tool: "electron_navigate", args: { url: "javascript:%E0%A4%A" } },
  { kind: "valid", tool: "electron_screenshot", args: { name: "../escape" } },
  { kind: "valid", tool: "electron_screenshot", args: { name: "sub/dir/shot" } },
  { kind: "valid", tool: "electron_screenshot", args: { name: "x/\u0000/y" } },
  { kind: "valid", tool: "electron_screenshot", args: { name: "a\u0000b" } },
  { kind: "valid", tool: "electron_expect_text", args: { target: "testid=notice", pattern: "(a+)+$", timeoutMs: 100 } },
  { kind: "valid", tool: "electron_expect_text", args: { target: "testid=notice", pattern: "(", timeoutMs: 100 } }
]

let mcp: TestClient
let guard: ProcessGuard
let screenshotDir: string
let appPid: number | undefined
const userDataDirs: Array<string> = []
const userData = () => {
  const dir = freshUserData()
  userDataDirs.push(dir)
  return dir
}

beforeAll(async () => {
  guard = guardProcess()
  screenshotDir = mkdtempSync(join(tmpdir(), "stagewright-fuzz-shots-"))
  mcp = await inMemoryClient({ allowEval: ["renderer", "main"], operationTimeoutMs: 10_000, screenshotDir })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData() } })
  expect(launched.isError, launched.text).toBe(false)
  appPid = launched.structured?.pid as number | undefined
  const ready = await mcp.call("electron_wait_for", { text: "Task Board" })
  expect(ready.isError, ready.text).toBe(false)
  const snapshot = await mcp.call("electron_snapshot")
  expect(snapshot.isError, snapshot.text).toBe(false)
}, 60_000)

afterAll(async () => {
  const tree = appPid !== undefined ? [appPid, ...descendants(appPid)] : []
  await mcp?.close()
  guard?.stop()
  expect(await waitAllGone(tree)).toEqual([])
  for (const dir of [screenshotDir, ...userDataDirs]) rmSync(dir, { recursive: true, force: true })
}, 60_000)

describe("fuzz with the tasks app running (in-memory MCP client)", () => {
  it("valid-shaped read, assert and interact calls keep the contract, and the app keeps running", async () => {
    const calls = planCalls(appTools, {
      seed: SEED,
      validPerTool: Math.ceil(220 / appTools.length),
      malformedPerTool: 0,
      badNames: 0,
      valid: { interesting: 0.2, tune }
    })
    expect(calls.length).toBeGreaterThanOrEqual(200)
    const tally = new FuzzTally()
    const started = Date.now()
    let sinceDismiss = 0
    const invoke = async (call: FuzzCall) => {
      const result = await mcp.client.callTool({ name: call.tool, arguments: call.args as Record<string, unknown> }, undefined, { timeout: 30_000 })
      const structured = (result as { structuredContent?: { dialog?: unknown } }).structuredContent
      // A web dialog stalls the window until answered: answer it now (also checked), or every 25 calls in case one opened late.
      if (structured?.dialog !== undefined || ++sinceDismiss >= 25) {
        sinceDismiss = 0
        const dismiss: FuzzCall = { kind: "valid", tool: "electron_web_dialog", args: { action: "dismiss" } }
        tally.record(dismiss, checkResult(await mcp.client.callTool({ name: dismiss.tool, arguments: dismiss.args as Record<string, unknown> })), 0)
      }
      return result
    }
    await runCalls(calls, invoke, tally)
    await runCalls(DELIBERATE, invoke, tally)
    // Rejections that have already happened are reported by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    printTable(tally, `with the tasks app, ${appTools.length} tools, ${Date.now() - started} ms`, SEED)

    const status = await mcp.call("electron_status")
    expect(status.isError, status.text).toBe(false)
    expect(status.structured.app.state).toBe("running")
    expect(tally.violations.length, tally.report(SEED, 40)).toBe(0)
    // Every error code a tool answered is one it declares (agents and docs/TOOLS.md read the declared list).
    const declared = new Map<string, ReadonlySet<string>>(coreTools.map((tool) => [tool.name, new Set(manifestEntry(tool).errors)]))
    const undeclared = [...tally.byTool].flatMap(([tool, codes]) =>
      [...codes.keys()].filter((code) => code !== "OK" && declared.has(tool) && !declared.get(tool)!.has(code)).map((code) => `${tool}: ${code}`)
    )
    expect(undeclared, "codes answered but not declared in the tool's errors").toEqual([])
    expect(guard.events()).toEqual([])
  }, 180_000)
})

describe("a launch cut short by the operation timeout", () => {
  it("leaves no app running out of reach: its processes end, or electron_status reports it and electron_close ends it", async () => {
    const before = new Set(descendants(process.pid))
    const server = await inMemoryClient({ operationTimeoutMs: 300 })
    try {
      // The app never opens its window (SAMPLE_APP_HOLD_WINDOW), so the launch is cut short whatever the machine's speed.
      const launched = await server.call("electron_launch", {
        app: sampleAppPath("tasks"),
        env: { SAMPLE_APP_USER_DATA: userData(), SAMPLE_APP_HOLD_WINDOW: "1" }
      })
      expect(launched.code).toBe("TIMEOUT")
      const status = await server.call("electron_status")
      if (status.structured.app.state === "running") {
        const closed = await server.call("electron_close")
        expect(closed.isError, closed.text).toBe(false)
      }
      // Whatever the launch started must be gone while the server still runs.
      // (Processes of the app the fuzz run drives are not this launch's, even when they started meanwhile.)
      const fuzzedApp = new Set(appPid !== undefined ? [appPid, ...descendants(appPid)] : [])
      const started = descendants(process.pid).filter((pid) => !before.has(pid) && !fuzzedApp.has(pid))
      const left = await waitAllGone(started, 10_000)
      expect(left, `processes of the timed-out launch still alive while electron_status says app state "${status.structured.app.state}"`).toEqual([])
    } finally {
      await server.close()
    }
  }, 60_000)
})
