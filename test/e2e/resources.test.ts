/**
 * Over-long results as MCP resources, end to end on the built server with --max-response-chars 4000:
 * electron_snapshot of the tasks app is cut, its resource_link is read back whole with resources/read,
 * and notifications/resources/list_changed arrives for it, over stdio and over Streamable HTTP (where
 * the client cannot open the server's disk). A URI outside the output folder is refused over HTTP too.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { describe, expect, it } from "@effect/vitest"
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { sampleAppPath } from "../../src/samples.js"
import { CLI } from "../support/cli.js"
import { freshUserData, listChanges, stdioClient } from "../support/mcp.js"
import { descendants, waitAllGone } from "../support/processes.js"

const CALL = { timeout: 120_000 }

/** Launches the tasks app, takes a snapshot over the cap and follows its link; returns the app's pid. */
const snapshotThroughResources = async (client: Client, changes: ReturnType<typeof listChanges>, outputDir: string) => {
  expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true })
  const launched = await client.callTool(
    { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } } },
    undefined,
    CALL
  )
  expect(launched.isError, JSON.stringify(launched.content)).not.toBe(true)
  const ready = await client.callTool({ name: "electron_wait_for", arguments: { target: 'css=body[data-ready="true"]' } }, undefined, CALL)
  expect(ready.isError, JSON.stringify(ready.content)).not.toBe(true)
  const before = changes.count()
  const changed = changes.next()
  const snapshot = await client.callTool({ name: "electron_snapshot", arguments: {} }, undefined, CALL)
  await changed
  expect(changes.count()).toBe(before + 1)
  const content = snapshot.content as Array<any>
  const shown: string = content[0].text
  expect(shown).toMatch(/… cut at 4000 of \d+ characters; the full result is in /)
  const link = content.find((c) => c.type === "resource_link")
  expect(link).toMatchObject({ mimeType: "text/plain", uri: expect.stringMatching(/^stagewright:\/\/output\/responses\/electron_snapshot-[\w-]+\.txt$/) })
  const read = await client.readResource({ uri: link.uri })
  const text: string = (read.contents[0] as any).text
  const total = Number(/cut at 4000 of (\d+) characters/.exec(shown)![1])
  expect(text.startsWith(shown.slice(0, 4_000))).toBe(true)
  expect(total).toBeGreaterThan(4_000)
  expect(text.length).toBeGreaterThanOrEqual(total)
  expect(text).not.toContain("… cut at")
  expect(text).toMatch(/heading "Task Board" \[level=1\] \[ref=e\d+\]/)
  // The whole text, as written on the server's disk.
  const onDisk = /the full result is in (\S+)/.exec(shown)![1]!
  expect(onDisk.startsWith(outputDir)).toBe(true)
  expect(text).toBe(readFileSync(onDisk, "utf8"))
  expect((await client.listResources()).resources.map((r) => r.uri)).toContain(link.uri)
  const status = await client.callTool({ name: "electron_status", arguments: {} }, undefined, CALL)
  return (status.structuredContent as any).app.pid as number
}

describe("over-long results as resources", () => {
  it("over stdio (the built bin): the snapshot's resource_link reads back whole, with list_changed", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-res-stdio-"))
    const mcp = await stdioClient(["--max-response-chars", "4000", "--output-dir", outputDir])
    try {
      // The stdio helper has connected already: list_changed is a notification, handled from now on.
      const changes = listChanges(mcp.client)
      const pid = await snapshotThroughResources(mcp.client, changes, outputDir)
      await mcp.client.callTool({ name: "electron_close", arguments: {} }, undefined, CALL)
      expect(await waitAllGone([pid])).toEqual([])
    } finally {
      await mcp.close()
    }
  })

  it("over Streamable HTTP: the same link reads back whole, and a URI outside the folder is refused", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-res-http-"))
    const { child, url } = await startHttp(["--port", "0", "--max-response-chars", "4000", "--output-dir", outputDir])
    try {
      const client = new Client({ name: "resources-http", version: "1" })
      const changes = listChanges(client)
      const transport = new StreamableHTTPClientTransport(url)
      await client.connect(transport)
      await snapshotThroughResources(client, changes, outputDir)
      for (const uri of ["stagewright://output/../x", "stagewright://output/%2e%2e/x"]) {
        const refused = await client.readResource({ uri }).then(
          () => undefined,
          (error: any) => error.code
        )
        expect(refused, uri).toBe(-32602)
      }
      await transport.terminateSession()
      await client.close()
    } finally {
      const tree = [child.pid!, ...descendants(child.pid!)]
      child.kill("SIGTERM")
      expect(await waitAllGone(tree)).toEqual([])
    }
  })
})

/** Starts the built server over HTTP; resolves once it listens. */
const startHttp = (args: ReadonlyArray<string>) =>
  new Promise<{ child: ChildProcess; url: URL }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", ...args], { stdio: ["ignore", "ignore", "pipe"] })
    const stderr: Array<string> = []
    createInterface({ input: child.stderr! }).on("line", (line) => {
      stderr.push(line)
      const found = /stagewright listening on (\S+)/.exec(line)?.[1]
      if (found) resolve({ child, url: new URL(found) })
    })
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr.join("\n")}`)))
  })
