/** Every tool answers a malformed call with INVALID_ARGUMENT naming the offending argument, before touching any app. */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "../../src/index.js"
import { CORE_TOOL_NAMES, EVAL_TOOL_NAMES } from "../../src/profile/profiles.js"
import { coreTools } from "../../src/server/tools.js"

describe("bad input for every tool", () => {
  it("an unknown argument is INVALID_ARGUMENT with its name, for every core and eval tool", async () => {
    const server = await createServer({ toolProfile: "full", allowEval: ["renderer", "main"], outputDir: mkdtempSync(join(tmpdir(), "sw-bad-")) })
    try {
      expect(coreTools.map((t) => t.name).sort()).toEqual([...CORE_TOOL_NAMES, ...EVAL_TOOL_NAMES].sort())
      for (const tool of coreTools) {
        const result = await server.callTool(tool.name, { not_a_parameter: 1 })
        expect(result.isError, tool.name).toBe(true)
        expect((result.structuredContent as any).error.code, tool.name).toBe("INVALID_ARGUMENT")
        expect((result.content[0] as { text: string }).text, tool.name).toContain("not_a_parameter")
      }
    } finally {
      await server.close()
    }
  })
})
