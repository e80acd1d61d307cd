// Paired A/B of the read path: playwright-core directly, a bare MCP SDK server, and Stagewright built from two
// trees, called in turn on the tasks app (each server on its own app, over the in-memory transport), the same
// four reads as the overhead benchmark. Prints each runner's median latency, its ratio to direct, and the mean
// CPU of this process per call (process.cpuUsage() around it: the calls run one at a time).
//
//   node scripts/overhead-ab.mjs <dist-a> <dist-b> [rounds]     e.g. a copy of dist/ built at an older commit, and dist
//
// Runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { _electron } from "playwright-core"

const [distA, distB, roundsArg] = process.argv.slice(2)
if (distA === undefined || distB === undefined) {
  console.error("usage: node scripts/overhead-ab.mjs <dist-a> <dist-b> [rounds]")
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
    args: { target: "[data-testid=board-name]" },
    direct: (p) => p.locator("[data-testid=board-name]").innerText({ timeout: 5000 })
  },
  {
    tool: "electron_get_attribute",
    args: { target: "[data-testid=task-title-input]", name: "placeholder" },
    direct: (p) => p.locator("[data-testid=task-title-input]").getAttribute("placeholder", { timeout: 5000 })
  },
  { tool: "electron_expect_visible", args: { target: "[data-testid=notice]" }, direct: (p) => p.locator("[data-testid=notice]").isVisible() },
  {
    tool: "electron_expect_text",
    args: { target: "[data-testid=board-name]", text: "My board" },
    direct: (p) => p.locator("[data-testid=board-name]").innerText({ timeout: 5000 })
  }
]

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
const bare = new Server({ name: "bare", version: "1" }, { capabilities: { tools: {} } })
bare.setRequestHandler(CallToolRequestSchema, async (request) => {
  const read = READS.find((r) => r.tool === request.params.name)
  return { content: [{ type: "text", text: String(await read.direct(page)) }] }
})
const bareClient = await connect(bare)

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
  await call("electron_snapshot", {})
  return { call, close: () => call("electron_close", {}).then(() => server.close()) }
}
const a = await stagewright(distA)
const b = await stagewright(distB)

const runners = {
  direct: (read) => read.direct(page),
  "bare SDK": (read) => bareClient.callTool({ name: read.tool, arguments: read.args }),
  [`A ${distA}`]: (read) => a.call(read.tool, read.args),
  [`B ${distB}`]: (read) => b.call(read.tool, read.args)
}
const names = Object.keys(runners)
const times = Object.fromEntries(names.map((n) => [n, []]))
const cpu = Object.fromEntries(names.map((n) => [n, []]))
for (let round = 0; round < rounds; round++) {
  for (const read of READS) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length]
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await runners[name](read)
      const ms = performance.now() - t0
      const c = process.cpuUsage(c0)
      if (round >= 10) {
        times[name].push(ms)
        cpu[name].push((c.user + c.system) / 1000)
      }
    }
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1]
const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length
const direct = median(times.direct)
console.log(`${rounds} rounds of ${READS.length} reads; median ms, ratio to direct, mean CPU ms a call`)
for (const name of names)
  console.log(`${name.padEnd(30)} ${median(times[name]).toFixed(2)}  ${(median(times[name]) / direct).toFixed(2)}×  ${mean(cpu[name]).toFixed(3)}`)
await a.close()
await b.close()
await app.close()
process.exit(0)
