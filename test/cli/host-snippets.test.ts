/**
 * The README's host snippets, started as written: each host runs `npx -y stagewright <options>` (or the
 * installed bin) with no `serve`, so the bare command must serve whatever its options' values. The
 * placeholders (/path/to/your/app, ${workspaceFolder}) become a real folder; `npx -y stagewright` and
 * ./node_modules/.bin/stagewright become the built bin.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { CLI } from "../support/cli.js"

interface Snippet {
  readonly host: string
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly env: Record<string, string>
}

const readme = readFileSync(join(packageRoot(), "README.md"), "utf8")
const section = readme.slice(readme.indexOf("## Using it with an MCP host"))
const blocks = [...section.matchAll(/\*\*(Claude Code|VS Code|Cursor|Codex)\*\*[\s\S]*?```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
  host: m[1]!,
  lang: m[2]!,
  body: m[3]!
}))

const snippets: ReadonlyArray<Snippet> = blocks.flatMap(({ host, lang, body }): Array<Snippet> => {
  if (lang === "sh") {
    return body
      .split("\n")
      .filter((line) => line.startsWith("claude mcp add"))
      .map((line, i) => {
        const [before, after] = line.split(" -- ")
        const env = Object.fromEntries([...before!.matchAll(/--env (\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]))
        const [command, ...args] = after!.trim().split(/\s+/)
        return { host: `${host} #${i + 1}`, command: command!, args, env }
      })
  }
  if (lang === "json") {
    const config = JSON.parse(body) as Record<string, Record<string, { command: string; args: Array<string>; env?: Record<string, string> }>>
    const entry = (config.servers ?? config.mcpServers)!.stagewright!
    return [{ host, command: entry.command, args: entry.args, env: entry.env ?? {} }]
  }
  const command = /^command = "(.*)"$/m.exec(body)![1]!
  const args = JSON.parse(/^args = (\[.*\])$/m.exec(body)![1]!) as Array<string>
  return [{ host, command, args, env: {} }]
})

/** The snippet's command line with the built bin for the package and a real folder for the placeholders. */
const asRun = (snippet: Snippet, app: string): { readonly args: ReadonlyArray<string>; readonly env: Record<string, string> } => {
  const rest = snippet.command === "npx" ? snippet.args.slice(snippet.args.indexOf("stagewright") + 1) : snippet.args
  expect(snippet.command === "npx" ? snippet.args.slice(0, 2) : [snippet.command]).toEqual(
    snippet.command === "npx" ? ["-y", "stagewright"] : ["./node_modules/.bin/stagewright"]
  )
  const args = rest.map((a) => a.replace("/path/to/your/app", app).replace("${workspaceFolder}", app))
  return { args: [CLI, ...args], env: snippet.env }
}

describe("the README's host snippets", { timeout: 120_000 }, () => {
  it("are all found: Claude Code (2), VS Code, Cursor, Codex; one loads a plugin, one two", () => {
    expect(snippets.map((s) => s.host)).toEqual(["Claude Code #1", "Claude Code #2", "VS Code", "Cursor", "Codex"])
    const pluginCounts = snippets.map((s) => s.args.filter((a) => a === "--plugin").length)
    expect(pluginCounts).toContain(1)
    expect(pluginCounts).toContain(2)
    // None names a command: the bare command serves.
    expect(snippets.every((s) => !s.args.includes("serve"))).toBe(true)
  })

  for (const snippet of snippets) {
    it(`${snippet.host}: starts the server as written and lists the plugins' tools`, async () => {
      const app = mkdtempSync(join(tmpdir(), "stagewright-host-app-"))
      mkdirSync(join(app, "stagewright-output"))
      const { args, env } = asRun(snippet, app)
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [...args],
        cwd: app,
        stderr: "pipe",
        env: { ...getDefaultEnvironment(), ...env }
      })
      const client = new Client({ name: "host-snippet", version: "1.0.0" })
      await client.connect(transport)
      try {
        const names = (await client.listTools()).tools.map((t) => t.name)
        const plugins = snippet.args.flatMap((a, i) => (a === "--plugin" ? [snippet.args[i + 1]!] : []))
        for (const plugin of plugins) expect(names.some((n) => n.startsWith(`electron_${plugin}_`))).toBe(true)
        if (plugins.length === 0) expect(names.some((n) => n.startsWith("electron_production_"))).toBe(false)
        expect(names).toContain("electron_launch")
      } finally {
        await client.close()
      }
    })
  }
})
