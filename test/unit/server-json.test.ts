/**
 * server.json (the MCP registry's metadata for this server) describes the package that is published: its
 * version is package.json's, its npm package is package.json's name, and its name is package.json's
 * `mcpName` (the registry checks that field to verify who owns the npm package).
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"

interface ServerJson {
  readonly $schema: string
  readonly name: string
  readonly description: string
  readonly version: string
  readonly packages: ReadonlyArray<{
    readonly registryType: string
    readonly identifier: string
    readonly version: string
    readonly transport: { readonly type: string }
    readonly environmentVariables?: ReadonlyArray<{ readonly name: string; readonly description?: string }>
  }>
}

const read = <A>(file: string): A => JSON.parse(readFileSync(join(packageRoot(), file), "utf8")) as A
const server = read<ServerJson>("server.json")
const pkg = read<{ name: string; version: string; mcpName?: string }>("package.json")

describe("server.json", () => {
  it("names the published npm package at package.json's version", () => {
    expect(server.version).toBe(pkg.version)
    expect(server.packages).toHaveLength(1)
    const [npm] = server.packages
    expect(npm!.registryType).toBe("npm")
    expect(npm!.identifier).toBe(pkg.name)
    expect(npm!.version).toBe(pkg.version)
    expect(npm!.transport).toEqual({ type: "stdio" })
  })

  it("is named as package.json's mcpName, in the registry's namespace/name form", () => {
    expect(server.name).toBe(pkg.mcpName)
    expect(server.name).toMatch(/^io\.github\.[a-zA-Z0-9-]+\/[a-zA-Z0-9._-]+$/)
  })

  it("keeps to the registry's limits: a dated schema, a description of 100 characters at most", () => {
    expect(server.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/)
    expect(server.description.length).toBeGreaterThan(0)
    expect(server.description.length).toBeLessThanOrEqual(100)
  })

  it("describes STAGEWRIGHT_ELECTRON, the variable the server reads to find an Electron", () => {
    const variables = server.packages[0]!.environmentVariables ?? []
    expect(variables.map((v) => v.name)).toEqual(["STAGEWRIGHT_ELECTRON"])
    expect(variables[0]!.description).toMatch(/Electron binary/)
    const source = readFileSync(join(packageRoot(), "src", "layers", "driver", "electron-runtime.ts"), "utf8")
    expect(source).toContain("env.STAGEWRIGHT_ELECTRON")
  })
})
