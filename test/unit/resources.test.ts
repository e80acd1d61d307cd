/**
 * MCP resources without an app: an over-long result read back through its resource_link, list_changed
 * after a call that wrote a file (and none after one that did not), paging newest first with a stable
 * cursor, the two documents, and resources/read confined to the output folders (`..`, encoded forms,
 * absolute paths, symlinks out, other file types, the size bound) without echoing file contents.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { coreTools, createServer, documentationManifest, PluginLoader, PROFILES, type CreateServerOptions } from "../../src/index.js"
import { firstPartyPlugins } from "../../src/plugins/registry.js"
import { parseResourceUri } from "../../src/server/resource-uri.js"
import { listChanges } from "../support/mcp.js"

const samplePlugin = fileURLToPath(new URL("../fixtures/plugins/sample-plugin.mjs", import.meta.url))

/** A server on the in-memory pair, with a counter of list_changed notifications and a wait for the next one. */
const withClient = async (options: CreateServerOptions, f: (c: Client, changes: { count: () => number; next: () => Promise<void> }) => Promise<void>) => {
  const server = await createServer(options)
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "resources-test", version: "1" })
  const changes = listChanges(client)
  await client.connect(clientTransport)
  try {
    await f(client, changes)
  } finally {
    await client.close()
    await server.close()
  }
}

const refusal = (client: Client, uri: string) =>
  client.readResource({ uri }).then(
    () => undefined,
    (error: any) => ({ code: error.code as number, message: String(error.message) })
  )

describe("resources of an over-long result", () => {
  it("advertises resources, links the cut result to a readable URI and announces it with list_changed", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-res-out-"))
    await withClient({ outputDir, plugins: [samplePlugin], maxResponseChars: 4_000 }, async (client, changes) => {
      expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true })
      const small = await client.callTool({ name: "sample_big", arguments: { chars: 3_000 } })
      expect((small.content as Array<any>).map((c) => c.type)).toEqual(["text"])
      // Notifications travel before the response on the same ordered transport: none was sent for it.
      expect(changes.count()).toBe(0)
      const changed = changes.next()
      const big = await client.callTool({ name: "sample_big", arguments: { chars: 50_000 } })
      await changed
      expect(changes.count()).toBe(1)
      const link = (big.content as Array<any>).find((c) => c.type === "resource_link")
      expect(link.uri).toMatch(/^stagewright:\/\/output\/responses\/sample_big-[\w-]+\.txt$/)
      const read = await client.readResource({ uri: link.uri })
      expect(read.contents).toHaveLength(1)
      const [contents] = read.contents as Array<any>
      expect(contents).toMatchObject({ uri: link.uri, mimeType: "text/plain" })
      expect(contents.text).toHaveLength(50_000)
      expect(contents.text.endsWith("-end")).toBe(true)
      const listed = (await client.listResources()).resources.find((r) => r.uri === link.uri)
      expect(listed).toMatchObject({ name: link.name, mimeType: "text/plain", size: 50_000 })
      // A call that wrote nothing announces nothing.
      await client.callTool({ name: "sample_echo", arguments: { text: "hi" } })
      expect(changes.count()).toBe(1)
    })
  })
})

describe("the change check after each call", () => {
  it("sees a folder that was not there (a screenshot root made later) and a file in a new subfolder, and nothing when nothing moved", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-res-roots-"))
    const screenshotDir = join(mkdtempSync(join(tmpdir(), "sw-res-shots-")), "later")
    await withClient({ outputDir, screenshotDir, plugins: [samplePlugin] }, async (client, changes) => {
      await client.callTool({ name: "sample_echo", arguments: { text: "a" } })
      expect(changes.count()).toBe(0)
      mkdirSync(screenshotDir)
      writeFileSync(join(screenshotDir, "shot.png"), "png")
      let next = changes.next()
      await client.callTool({ name: "sample_echo", arguments: { text: "b" } })
      await next
      expect(changes.count()).toBe(1)
      mkdirSync(join(outputDir, "deep", "er"), { recursive: true })
      writeFileSync(join(outputDir, "deep", "er", "report.json"), "{}")
      next = changes.next()
      await client.callTool({ name: "sample_echo", arguments: { text: "c" } })
      await next
      expect(changes.count()).toBe(2)
      // A file added to the new subfolder moves only that folder, which the check now knows.
      writeFileSync(join(outputDir, "deep", "er", "second.json"), "{}")
      next = changes.next()
      await client.callTool({ name: "sample_echo", arguments: { text: "d" } })
      await next
      expect(changes.count()).toBe(3)
      await client.callTool({ name: "sample_echo", arguments: { text: "e" } })
      expect(changes.count()).toBe(3)
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(["stagewright://screenshots/shot.png", "stagewright://output/deep/er/second.json"])
      )
    })
  })
})

describe("resources/list", () => {
  it("pages the files newest first, 50 a page, with the documents first and a cursor stable under new files", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-res-list-"))
    mkdirSync(join(outputDir, "reports"))
    const base = Date.now() / 1000 - 10_000
    for (let i = 0; i < 120; i++) {
      const file = join(outputDir, "reports", `r-${String(i).padStart(3, "0")}.json`)
      writeFileSync(file, `{"i":${i}}`)
      utimesSync(file, base + i, base + i)
    }
    writeFileSync(join(outputDir, "notes.env"), "not an artifact")
    writeFileSync(join(outputDir, ".hidden.txt"), "hidden")
    await withClient({ outputDir }, async (client) => {
      const first = await client.listResources()
      expect(first.resources.slice(0, 2).map((r) => r.uri)).toEqual(["stagewright://docs/tools", "stagewright://docs/profiles"])
      expect(first.resources).toHaveLength(50)
      expect(first.resources[2]).toMatchObject({ uri: "stagewright://output/reports/r-119.json", name: "r-119.json", mimeType: "application/json", size: 9 })
      expect(first.nextCursor).toEqual(expect.any(String))
      // A file written between pages is newer than every listed one: it does not shift the next page.
      writeFileSync(join(outputDir, "reports", "late.json"), "{}")
      const uris = first.resources.slice(2).map((r) => r.uri)
      let cursor = first.nextCursor
      let pages = 1
      while (cursor !== undefined) {
        const page = await client.listResources({ cursor })
        expect(page.resources.length).toBeLessThanOrEqual(50)
        uris.push(...page.resources.map((r) => r.uri))
        cursor = page.nextCursor
        pages++
      }
      expect(pages).toBe(3)
      expect(uris).toEqual(Array.from({ length: 120 }, (_, i) => `stagewright://output/reports/r-${String(119 - i).padStart(3, "0")}.json`))
      expect((await client.listResources()).resources[2]?.uri).toBe("stagewright://output/reports/late.json")
      const bad = await client.listResources({ cursor: "not-a-cursor" }).then(
        () => undefined,
        (error: any) => error.code
      )
      expect(bad).toBe(-32602)
    })
  })

  it("reads the tool reference and the profiles documents", async () => {
    await withClient({ outputDir: mkdtempSync(join(tmpdir(), "sw-res-docs-")), plugins: [samplePlugin], toolProfile: "essential" }, async (client) => {
      const tools = JSON.parse(((await client.readResource({ uri: "stagewright://docs/tools" })).contents[0] as any).text)
      const firstParty = await Effect.runPromise(
        Effect.flatMap(PluginLoader, (loader) => loader.load(Object.keys(firstPartyPlugins))).pipe(Effect.provide(PluginLoader.layer))
      )
      const expected = documentationManifest([...coreTools, ...firstParty.tools])
      const names = tools.tools.map((t: any) => t.name)
      expect(names).toEqual([...expected.map((t) => t.name), "sample_big", "sample_defect", "sample_echo", "sample_eval", "sample_hang", "sample_wait"].sort())
      expect(tools.tools.find((t: any) => t.name === "electron_snapshot")).toEqual(
        JSON.parse(JSON.stringify(expected.find((t) => t.name === "electron_snapshot")))
      )
      const profiles = JSON.parse(((await client.readResource({ uri: "stagewright://docs/profiles" })).contents[0] as any).text)
      expect(profiles.active).toBe("essential")
      expect(profiles.profiles.essential).toEqual({ count: PROFILES.essential.size, tools: [...PROFILES.essential].sort() })
      expect(Object.keys(profiles.profiles)).toEqual(["essential", "testing", "debug", "full"])
    })
  })
})

describe("resources/read confinement", () => {
  it("refuses every way out of the output folders with invalid params, never echoing contents", async () => {
    const base = mkdtempSync(join(tmpdir(), "sw-res-conf-"))
    const outputDir = join(base, "out")
    mkdirSync(join(base, "outside"), { recursive: true })
    mkdirSync(outputDir)
    const SECRET = "TOP-SECRET-CONTENT-4711"
    writeFileSync(join(base, "secret.txt"), SECRET)
    writeFileSync(join(base, "outside", "secret.txt"), SECRET)
    writeFileSync(join(outputDir, "ok.txt"), "fine")
    writeFileSync(join(outputDir, "creds.env"), SECRET)
    symlinkSync(join(base, "secret.txt"), join(outputDir, "leak.txt"))
    symlinkSync(join(base, "outside"), join(outputDir, "linked"))
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex")
    writeFileSync(join(outputDir, "pic.png"), png)
    writeFileSync(join(outputDir, "huge.txt"), "")
    truncateSync(join(outputDir, "huge.txt"), 21 * 1024 * 1024)
    await withClient({ outputDir }, async (client) => {
      // Inside: a text file as text, a PNG as base64.
      expect((await client.readResource({ uri: "stagewright://output/ok.txt" })).contents).toEqual([
        { uri: "stagewright://output/ok.txt", mimeType: "text/plain", text: "fine" }
      ])
      const blob = (await client.readResource({ uri: "stagewright://output/pic.png" })).contents[0] as any
      expect(blob).toMatchObject({ mimeType: "image/png" })
      expect(Buffer.from(blob.blob, "base64").equals(png)).toBe(true)
      const outside = [
        "stagewright://output/../secret.txt",
        "stagewright://output/%2e%2e/secret.txt",
        "stagewright://output/%2E%2E%2Fsecret.txt",
        "stagewright://output/ok/..%2f..%2fsecret.txt",
        "stagewright://output//etc/hostname",
        "stagewright://output/%2Fetc%2Fhostname",
        `file://${join(base, "secret.txt")}`,
        join(base, "secret.txt"),
        "stagewright://output/leak.txt",
        "stagewright://output/linked/secret.txt",
        "stagewright://output/creds.env",
        "stagewright://elsewhere/secret.txt"
      ]
      for (const uri of outside) {
        const refused = await refusal(client, uri)
        expect(refused, uri).toMatchObject({ code: -32602 })
        expect(refused!.message, uri).not.toContain(SECRET)
      }
      expect(await refusal(client, "stagewright://output/missing.txt")).toMatchObject({ code: -32002 })
      const huge = await refusal(client, "stagewright://output/huge.txt")
      expect(huge).toMatchObject({ code: -32602 })
      expect(huge!.message).toContain("over the 20971520 bytes (20 MiB)")
      // The client's own prefix once, not the server's too.
      expect(huge!.message).toMatch(/^MCP error -32602: (?!MCP error)/)
      expect(readFileSync(join(outputDir, "ok.txt"), "utf8")).toBe("fine")
    })
  })

  it("parses URIs on the raw text: a URL parser's folding of .. never reaches the disk", () => {
    expect(new URL("stagewright://output/../secret.txt").pathname).toBe("/secret.txt")
    expect(parseResourceUri("stagewright://output/../secret.txt")._tag).toBe("Refused")
    expect(parseResourceUri("stagewright://output/a%20b/c.txt")).toEqual({ _tag: "Artifact", root: "output", segments: ["a b", "c.txt"] })
    expect(parseResourceUri("stagewright://output/%E0%A4%A.txt")).toEqual({ _tag: "Refused", reason: "malformed percent-encoding" })
    expect(parseResourceUri("stagewright://docs/tools")).toEqual({ _tag: "Doc", name: "tools" })
  })
})
