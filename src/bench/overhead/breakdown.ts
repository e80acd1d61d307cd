/**
 * Where a read's time goes, for issue 42: each of the overhead benchmark's four reads made directly through
 * playwright-core, through a bare MCP SDK handler (both on one app), directly on the Stagewright server's own page
 * (./same-page.ts) and through the server (in-memory, no snapshot), in turn. Each call is cut in three at
 * playwright-core's client channel (every message it sends to its server, which here is in this process): before
 * the first message ("pre": the MCP hop, the server's pipeline and playwright-core's own client work), from the
 * first message to the last reply ("pw": the call on the app) and after it ("post": the answer's way back).
 *
 *   node --import tsx src/bench/overhead/breakdown.ts [rounds]
 *
 * Prints the median of each part per runner and call. Runs on the project's Electron stand-in unless
 * STAGEWRIGHT_ELECTRON names a real Electron (the same-page runner needs the stand-in).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { createServer } from "../../index.js"
import { samePageRunner } from "./same-page.js"
import { directRunner, floorServer, launchThroughTools, median, toolCaller } from "./runners.js"
import { CALL_TYPES } from "./sequence.js"

process.env.STAGEWRIGHT_ELECTRON ||= "standin"
const rounds = Number(process.argv[2] ?? 300)

const direct = directRunner()
await direct.setup()
const page = direct.page!()

// playwright-core's client channel (one Connection class for every app in this process): each message's start and reply.
let first = 0
let last = 0
const connection = Object.getPrototypeOf((page as unknown as { _connection: object })._connection) as {
  sendMessageToServer: (...args: Array<unknown>) => Promise<unknown>
}
const send = connection.sendMessageToServer
connection.sendMessageToServer = async function (this: unknown, ...args: Array<unknown>) {
  if (first === 0) first = performance.now()
  try {
    return await send.apply(this, args)
  } finally {
    last = performance.now()
  }
}

const connect = async (server: { connect: (transport: InMemoryTransport) => Promise<void> }) => {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "overhead-breakdown", version: "1" })
  await client.connect(clientTransport)
  return client
}

const server = await createServer({ toolProfile: "full" })
const ours = await connect(server)
await launchThroughTools(toolCaller(ours), false)
const floor = await connect(floorServer(() => page))
const same = samePageRunner({ name: "the server", client: () => ours })
await same.setup()

type Parts = { pre: Array<number>; pw: Array<number>; post: Array<number>; total: Array<number> }
const parts = new Map<string, Parts>()
const timed = async (key: string, call: () => Promise<unknown>) => {
  first = 0
  const t0 = performance.now()
  await call()
  const t3 = performance.now()
  const entry = parts.get(key) ?? { pre: [], pw: [], post: [], total: [] }
  entry.pre.push(first - t0)
  entry.pw.push(last - first)
  entry.post.push(t3 - last)
  entry.total.push(t3 - t0)
  parts.set(key, entry)
}

try {
  for (let i = 0; i < rounds; i++) {
    for (const type of CALL_TYPES.filter((t) => t.kind === "read")) {
      await timed(`direct ${type.name}`, () => type.direct(page, i))
      await timed(`bare SDK handler ${type.name}`, () => floor.callTool({ name: type.name, arguments: { i } }))
      await timed(`direct on the server's page ${type.name}`, () => same.call(type, i))
      const { name, arguments: args } = type.tool(i)
      await timed(`Stagewright ${type.name}`, () => ours.callTool({ name, arguments: args }))
    }
  }
  const ms = (values: Array<number>) => median(values).toFixed(3)
  for (const [key, p] of parts) process.stdout.write(`${key.padEnd(44)} pre ${ms(p.pre)}  pw ${ms(p.pw)}  post ${ms(p.post)}  total ${ms(p.total)} ms\n`)
} finally {
  await same.teardown()
  await toolCaller(ours)("electron_close", {}).catch(() => undefined)
  await server.close()
  await direct.teardown()
}
process.exit(0)
