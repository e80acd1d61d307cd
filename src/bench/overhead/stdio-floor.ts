/**
 * The stdio floor of the overhead benchmark: a bare MCP SDK server over stdio whose one handler makes the
 * direct playwright-core call of the named call type on an app of its own. Run by `stdioFloorRunner`
 * (runners.ts) as `node --import tsx src/bench/overhead/stdio-floor.ts`; stdout carries JSON-RPC only.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { directRunner } from "./runners.js"
import { CALL_TYPES } from "./sequence.js"

const direct = directRunner()
await direct.setup()
const server = new Server({ name: "overhead-stdio-floor", version: "1" }, { capabilities: { tools: {} } })
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const type = CALL_TYPES.find((t) => t.name === request.params.name)
  if (type === undefined) return { content: [{ type: "text", text: `no call type ${request.params.name}` }], isError: true }
  await type.direct(direct.page!(), Number(request.params.arguments?.["i"] ?? 0))
  return { content: [{ type: "text", text: "done" }] }
})
await server.connect(new StdioServerTransport())
process.stdin.once("end", () => {
  void direct.teardown().finally(() => process.exit(0))
})
