// Paired A/B of the call path: playwright-core directly, a bare MCP SDK server, and Stagewright built from two
// trees, called in turn on the tasks app (each server on its own app, over the in-memory transport). `reads`
// (the default) are the overhead benchmark's four reads; `actions` its four actions, without a snapshot first;
// `snapped` the same actions after a snapshot (their answers carry the change summary).
// Prints each runner's median latency (for actions, per action and their sum), its ratio to direct, and the
// mean CPU of this process per call (process.cpuUsage() around it: the calls run one at a time).
//
//   node scripts/overhead-ab.mjs <dist-a> <dist-b> [rounds] [reads|actions|snapped]
//     e.g. a copy of dist/ built at an older commit, and dist
//
// Actions favour the second server's app (launched last): run both orders, or the same dist twice to see
// the bias (on 2026-12-06, ~3 ms over the four actions' medians, with the same build in both places; on
// 2026-12-08, with each turn's order drawn, 3 and 6.5 ms: the app launched last, not the runner before it).
// Runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Chunk, Effect, Random } from "effect"
import { _electron } from "playwright-core"

const [distA, distB, roundsArg, mode = "reads"] = process.argv.slice(2)
if (distA === undefined || distB === undefined || !["reads", "actions", "snapped"].includes(mode)) {
  console.error("usage: node scripts/overhead-ab.mjs <dist-a> <dist-b> [rounds] [reads|actions|snapped]")
  process.exit(2)
}
process.env.STAGEWRIGHT_ELECTRON ||= "standin"
const rounds = Number(roundsArg ?? 600)
const load = (dist) => import(pathToFileURL(join(resolve(dist), "index.js")).href)
const { resolveElectronRuntime } = await load(distB)
const { sampleAppPath } = await import(pathToFileURL(join(resolve(distB), "samples.js")).href)
const temp = (prefix) => mkdtempSync(join(tmpdir(), prefix))

const READS = [
  {
    tool: "electron_get_text",
    args: () => ({ target: "[data-testid=board-name]" }),
    direct: (p) => p.locator("[data-testid=board-name]").innerText({ timeout: 5000 })
  },
  {
    tool: "electron_get_attribute",
    args: () => ({ target: "[data-testid=task-title-input]", name: "placeholder" }),
    direct: (p) => p.locator("[data-testid=task-title-input]").getAttribute("placeholder", { timeout: 5000 })
  },
  { tool: "electron_expect_visible", args: () => ({ target: "[data-testid=notice]" }), direct: (p) => p.locator("[data-testid=notice]").isVisible() },
  {
    tool: "electron_expect_text",
    args: () => ({ target: "[data-testid=board-name]", text: "My board" }),
    direct: (p) => p.locator("[data-testid=board-name]").innerText({ timeout: 5000 })
  }
]
const PRIORITIES = ["low", "medium", "high"]
const ACTIONS = [
  {
    tool: "electron_fill",
    args: (i) => ({ target: "[data-testid=task-title-input]", value: `Task ${i}` }),
    direct: (p, i) => p.locator("[data-testid=task-title-input]").fill(`Task ${i}`, { timeout: 5000 })
  },
  {
    tool: "electron_click",
    args: () => ({ target: "[data-testid=toggle-theme-button]" }),
    direct: (p) => p.locator("[data-testid=toggle-theme-button]").click({ timeout: 5000 })
  },
  {
    tool: "electron_check",
    args: (i) => ({ target: "[data-testid=task-urgent-checkbox]", checked: i % 2 === 0 }),
    direct: (p, i) => p.locator("[data-testid=task-urgent-checkbox]").setChecked(i % 2 === 0, { timeout: 5000 })
  },
  {
    tool: "electron_select_option",
    args: (i) => ({ target: "[data-testid=task-priority-select]", values: [PRIORITIES[i % 3]] }),
    direct: (p, i) => p.locator("[data-testid=task-priority-select]").selectOption([PRIORITIES[i % 3]], { timeout: 5000 })
  }
]
const CALLS = mode === "reads" ? READS : ACTIONS

const app = await _electron.launch({
  executablePath: resolveElectronRuntime().executablePath,
  args: [sampleAppPath("tasks")],
  env: { ...process.env, SAMPLE_APP_USER_DATA: temp("ab-ud-") }
})
const page = await app.firstWindow()
await page.locator("[data-testid=board-name]").waitFor({ timeout: 30_000 })

const connect = async (server) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "overhead-ab", version: "1" })
  await client.connect(clientSide)
  return client
}
// A bare SDK server whose handler makes the direct call: reads only (it drives the direct runner's page, where an
// action would undo or repeat the direct call's change).
const bareClient = mode === "reads" ? await connect(bareServer()) : undefined
function bareServer() {
  const bare = new Server({ name: "bare", version: "1" }, { capabilities: { tools: {} } })
  bare.setRequestHandler(CallToolRequestSchema, async (request) => {
    const one = CALLS.find((c) => c.tool === request.params.name)
    return { content: [{ type: "text", text: String(await one.direct(page)) }] }
  })
  return bare
}

const stagewright = async (dist) => {
  const { createServer } = await load(dist)
  const server = await createServer({ toolProfile: "full", outputDir: temp("ab-out-") })
  const client = await connect(server)
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args })
    if (result.isError) throw new Error(`${dist}: ${name}: ${JSON.stringify(result.content)}`)
  }
  await call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: temp("ab-ud-") } })
  await call("electron_wait_for", { target: "[data-testid=board-name]" })
  // Reads after a snapshot, as the overhead benchmark's in-memory runner; actions without one (no change summary), or
  // with one (`snapped`).
  if (mode !== "actions") await call("electron_snapshot", {})
  return { call, close: () => call("electron_close", {}).then(() => server.close()) }
}
const a = await stagewright(distA)
const b = await stagewright(distB)

const runners = {
  direct: (one, i) => one.direct(page, i),
  ...(bareClient === undefined ? {} : { "bare SDK": (one) => bareClient.callTool({ name: one.tool, arguments: one.args() }) }),
  [`A ${distA}`]: (one, i) => a.call(one.tool, one.args(i)),
  [`B ${distB}`]: (one, i) => b.call(one.tool, one.args(i))
}
const names = Object.keys(runners)
const times = Object.fromEntries(names.map((n) => [n, Object.fromEntries(CALLS.map((c) => [c.tool, []]))]))
const cpu = Object.fromEntries(names.map((n) => [n, []]))
// Each turn's order is drawn, seeded by round and call (as the overhead benchmark's turnOrder): in a rotation each
// runner came right after the same one every time, and paid for what that one's call left running in its app.
const orderOf = (round, call) => Chunk.toReadonlyArray(Effect.runSync(Random.make(`overhead-ab:${round}:${call}`).shuffle(names)))
for (let round = 0; round < rounds; round++) {
  for (const [call, one] of CALLS.entries()) {
    for (const name of orderOf(round, call)) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await runners[name](one, round)
      const ms = performance.now() - t0
      const c = process.cpuUsage(c0)
      if (round >= 10) {
        times[name][one.tool].push(ms)
        cpu[name].push((c.user + c.system) / 1000)
      }
    }
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1]
const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length
const all = (name) => Object.values(times[name]).flat()
const sum = (name) => CALLS.reduce((total, c) => total + median(times[name][c.tool]), 0)
if (mode === "reads") {
  const direct = median(all("direct"))
  console.log(`${rounds} rounds of ${CALLS.length} reads; median ms, ratio to direct, mean CPU ms a call`)
  for (const name of names)
    console.log(`${name.padEnd(30)} ${median(all(name)).toFixed(2)}  ${(median(all(name)) / direct).toFixed(2)}×  ${mean(cpu[name]).toFixed(3)}`)
} else {
  console.log(`${rounds} rounds of ${CALLS.length} actions; median ms of each, their sum, its ratio to direct, mean CPU ms a call`)
  for (const name of names) {
    const each = CALLS.map((c) => `${c.tool.replace("electron_", "")} ${median(times[name][c.tool]).toFixed(2)}`).join("  ")
    console.log(`${name.padEnd(30)} ${each}  sum ${sum(name).toFixed(2)}  ${(sum(name) / sum("direct")).toFixed(2)}×  ${mean(cpu[name]).toFixed(3)}`)
  }
}
await a.close()
await b.close()
await app.close()
process.exit(0)
