// `node --import` this file to run the MCP conformance suite on Node 20 (see hooks.mjs).
import { register } from "node:module"
register("./hooks.mjs", import.meta.url)
