// node:fs for the MCP conformance suite on Node 20: it imports fs.globSync (Node 22), which its server scenarios never call.
export * from "node:fs"
import fs from "node:fs"
export default fs
export const globSync = () => {
  throw new Error("fs.globSync is not available on Node 20")
}
