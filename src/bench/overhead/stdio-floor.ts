/**
 * The stdio floor of the overhead benchmark: a bare MCP SDK server over stdio whose one handler makes the
 * direct playwright-core call of the named call type on an app of its own. Run by `stdioFloorRunner`
 * (runners.ts) as `node --import tsx src/bench/overhead/stdio-floor.ts`; stdout carries JSON-RPC only.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { directRunner, floorServer } from "./runners.js"

const direct = directRunner()
await direct.setup()
const server = floorServer(direct.page!)
await server.connect(new StdioServerTransport())
process.stdin.once("end", () => {
  void direct.teardown().finally(() => process.exit(0))
})
