/**
 * What a host receives works with every model API: each listed input schema, in every variant (each
 * profile, with and without eval, every first-party plugin), is a plain object schema (no top-level
 * combinator, no $ref) using only the portable keywords, and declares additionalProperties: false where the
 * dispatcher refuses unknown keys — checked by sending one.
 */
import { describe, expect, it } from "@effect/vitest"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "../../src/index.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { PROFILE_NAMES } from "../../src/profile/profiles.js"
import { PORTABLE_KEYWORDS } from "../../src/tools/pipeline/json-schema.js"
import { inMemoryClient } from "../support/mcp.js"

/** Every problem of one schema position, with its path. */
const problems = (schema: unknown, path: string): Array<string> => {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return [`${path}: not a schema object`]
  const s = schema as Record<string, unknown>
  const out: Array<string> = []
  for (const key of Object.keys(s)) if (!PORTABLE_KEYWORDS.has(key)) out.push(`${path}: keyword ${key}`)
  if (s.type === "object" && s.additionalProperties === undefined) out.push(`${path}: object without additionalProperties`)
  for (const [name, child] of Object.entries((s.properties as Record<string, unknown>) ?? {})) out.push(...problems(child, `${path}.${name}`))
  if (s.items !== undefined) out.push(...problems(s.items, `${path}[]`))
  if (typeof s.additionalProperties === "object") out.push(...problems(s.additionalProperties, `${path}{}`))
  for (const [i, branch] of ((s.anyOf as Array<unknown>) ?? []).entries()) out.push(...problems(branch, `${path}|${i}`))
  return out
}

const variants = [
  ...PROFILE_NAMES.flatMap((profile) => [false, true].map((evalOn) => ({ toolProfile: profile, plugins: [] as Array<string>, evalOn }))),
  ...[false, true].map((evalOn) => ({ toolProfile: "full" as const, plugins: Object.keys(firstPartyPlugins), evalOn }))
]

describe("listed input schemas", () => {
  it("titles read as people write them; idempotentHint is declared where a repeat changes nothing", async () => {
    const server = await createServer({ plugins: Object.keys(firstPartyPlugins), outputDir: mkdtempSync(join(tmpdir(), "sw-schema-")) })
    try {
      const byName = new Map((await server.listTools()).map((t) => [t.name, t]))
      expect(byName.get("electron_network_har_record")?.title).toBe("Network HAR record")
      expect(byName.get("electron_launch")?.title).toBe("Launch")
      expect(byName.get("electron_fill")?.annotations.idempotentHint).toBe(true)
      expect(byName.get("electron_click")?.annotations.idempotentHint).toBeUndefined()
      expect(new Set([...byName.values()].map((t) => t.title)).size).toBe(byName.size)
    } finally {
      await server.close()
    }
  })

  it.each(variants)("%o: plain object schemas in the portable subset", async ({ toolProfile, plugins, evalOn }) => {
    const server = await createServer({
      toolProfile,
      plugins,
      allowEval: evalOn ? ["renderer", "main"] : [],
      outputDir: mkdtempSync(join(tmpdir(), "sw-schema-"))
    })
    try {
      const tools = await server.listTools()
      expect(tools.length).toBeGreaterThan(0)
      for (const tool of tools) {
        const schema = tool.inputSchema as Record<string, unknown>
        expect(schema.type, tool.name).toBe("object")
        expect(typeof schema.properties, tool.name).toBe("object")
        for (const combinator of ["anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "enum"])
          expect(schema[combinator], `${tool.name} ${combinator}`).toBeUndefined()
        expect(problems(schema, tool.name)).toEqual([])
        expect(tool.title, tool.name).toMatch(/^[A-Z][\w ]{2,59}$/)
        if (tool.annotations.readOnlyHint === true) expect(tool.annotations.idempotentHint, tool.name).toBeUndefined()
        expect(JSON.stringify(schema)).not.toContain("$ref")
      }
    } finally {
      await server.close()
    }
  })

  it("additionalProperties: false is what the dispatcher enforces: an unknown key is INVALID_ARGUMENT for every tool", async () => {
    const server = await createServer({
      plugins: Object.keys(firstPartyPlugins),
      allowEval: ["renderer", "main"],
      outputDir: mkdtempSync(join(tmpdir(), "sw-schema-"))
    })
    try {
      for (const tool of await server.listTools()) {
        expect((tool.inputSchema as Record<string, unknown>).additionalProperties, tool.name).toBe(false)
        const result = (await server.callTool(tool.name, { stagewrightUnknownKey: 1 })) as {
          structuredContent?: { error?: { code?: string; message?: string } }
        }
        expect(result.structuredContent?.error?.code, tool.name).toBe("INVALID_ARGUMENT")
        expect(result.structuredContent?.error?.message, tool.name).toContain("stagewrightUnknownKey")
      }
    } finally {
      await server.close()
    }
  })
})

describe("server instructions", () => {
  it("say how to start and which profile, plugins and eval targets are active", async () => {
    const plain = await inMemoryClient({ toolProfile: "essential" })
    const loaded = await inMemoryClient({ plugins: ["network", "visual"], allowEval: ["main"] })
    try {
      const a = plain.client.getInstructions() ?? ""
      expect(a).toContain("electron_launch")
      expect(a).toContain("electron_snapshot")
      expect(a).toContain("Active: profile essential; plugins none; eval off.")
      // A deferring host shows the names and these lines first: they name the words to search for.
      expect(a).toContain("Deferred schemas? Search: launch, snapshot, click, fill, wait, window, dialog, menu, screenshot.")
      expect(loaded.client.getInstructions()).toContain("Active: profile full; plugins network, visual; eval main.")
      expect(a.length).toBeLessThan(800)
    } finally {
      await plain.close()
      await loaded.close()
    }
  })
})
