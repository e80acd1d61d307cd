/**
 * The default profile is essential (ADR 0001 amendment A5): the bare `serve` over stdio and createServer() with
 * no profile list essential's tools and say so in the instructions; a tool outside it answers with the profile
 * that holds it. (The other tests name the full profile through test/support/mcp.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { createServer } from "../../src/index.js"
import { DEFAULT_PROFILE, PROFILES } from "../../src/profile/profiles.js"
import { CLI } from "../support/cli.js"

const essential = [...PROFILES.essential].sort()

describe("the default profile", () => {
  it("is essential", () => {
    expect(DEFAULT_PROFILE).toBe("essential")
  })

  it("the bare serve lists essential's tools, says so in its instructions, and points outside it to full", async () => {
    const client = new Client({ name: "default-profile-test", version: "1.0.0" })
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "serve"], stderr: "pipe", env: getDefaultEnvironment() }))
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name).sort()
      expect(listed).toEqual(essential)
      expect(client.getInstructions()).toContain("profile essential")
      const outside = await client.callTool({ name: "electron_console", arguments: {} })
      expect(outside.isError).toBe(true)
      expect(JSON.stringify(outside.content)).toMatch(/--tool-profile (testing|debug|full)/)
    } finally {
      await client.close()
    }
  })

  it("createServer() with no profile lists essential's tools", async () => {
    const server = await createServer({})
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.connect(serverSide)
    const client = new Client({ name: "default-profile-test", version: "1.0.0" })
    await client.connect(clientSide)
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(essential)
    } finally {
      await client.close()
      await server.close()
    }
  })
})
