// The floor of the cold-start benchmark (src/bench/coldstart.ts): a bare MCP SDK stdio server that lists
// the tools of a JSON file (the exact tools/list payload Stagewright returned for the same profile) and
// answers nothing else. Plain JavaScript on the unbundled SDK, as a minimal SDK server ships.
//
//   node src/bench/coldstart-floor.mjs tools.json
import { readFileSync } from "node:fs"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"))
const server = new Server({ name: "floor", version: "0.0.0" }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: `${request.params.name}: not implemented` }],
  isError: true
}))
await server.connect(new StdioServerTransport())
process.stdin.once("end", () => void server.close())
