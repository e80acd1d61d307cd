/**
 * The security benchmark: `npm run bench:security` (needs `npm run build`). Runs every probe of
 * ./probes.ts against the built bin over stdio, each server with a temp folder of its own, and reports by
 * class: probes tried, refused as expected, code executions without the flag (marker files), writes outside
 * confinement (files in a folder nothing may write to), server exits, slowest answer after a probe, and,
 * per server, leaked processes and temp entries. Writes bench/security-report.json and .md; exits 1 when
 * any count that must be 0 is not.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../repo-root.js"
import { sampleAppPath } from "../../samples.js"
import { isAlive } from "../reliability/procs.js"
import { availabilityProbes, confinementProbes, evalProbes, fileProbes, launchProbes, LONG_TEXT_SETUP, urlProbes, type Places, type Probe } from "./probes.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

interface Row {
  probes: number
  refused: number
  unexpected: Array<string>
  codeRan: number
  writesOutside: number
  serverExits: number
  slowestMs: number
}

const rows = new Map<string, Row>()
const row = (kind: string) => rows.get(kind) ?? (rows.set(kind, { probes: 0, refused: 0, unexpected: [], codeRan: 0, writesOutside: 0, serverExits: 0, slowestMs: 0 }), rows.get(kind)!)
const servers: Array<{ name: string; leakedProcesses: number; leakedTemp: ReadonlyArray<string> }> = []

const work = mkdtempSync(join(tmpdir(), "sw-security-"))
const places: Places = {
  markers: join(work, "markers"),
  outside: join(work, "outside"),
  out: join(work, "out"),
  root: join(work, "root"),
  app: sampleAppPath("tasks"),
  userData: () => mkdtempSync(join(work, "userdata-"))
}

const prepare = () => {
  for (const dir of [places.markers, places.outside, places.out, places.root]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(places.outside, "secret.txt"), "root:TOP-SECRET:0:0\n")
  writeFileSync(join(places.outside, "main.js"), `require("fs").writeFileSync(${JSON.stringify(join(places.markers, "outside-main"))}, "x")\n`)
  writeFileSync(join(places.out, "planted.html"), "<script>document.title='pwned'</script>")
  symlinkSync(join(places.outside, "escaped.png"), join(places.out, "link.png"))
  symlinkSync(places.outside, join(places.out, "dir-link"))
  symlinkSync(places.outside, join(places.root, "link-out"))
  for (const [name, pkg] of [["plain", { name: "plain", main: "main.js" }], ["escape", { name: "escape", main: join(places.outside, "main.js") }], ["broken", { name: "broken", main: "missing.js" }]] as const) {
    mkdirSync(join(places.root, name))
    writeFileSync(join(places.root, name, "package.json"), JSON.stringify(pkg))
  }
  writeFileSync(join(places.root, "plain", "main.js"), "")
}

const outsideEntries = () => readdirSync(places.outside).sort().join(",")
/** What earlier probes left: markers and the outside folder's listing (["main.js", "secret.txt"] at start). */
const seen = { markers: new Set<string>(), outside: ["main.js", "secret.txt"].join(",") }

const runServer = (name: string, flags: ReadonlyArray<string>, setup: ReadonlyArray<readonly [string, Record<string, unknown>]>, probes: ReadonlyArray<Probe>) =>
  Effect.promise(async () => {
    const temp = mkdtempSync(join(tmpdir(), "sw-security-tmp-"))
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot(), "dist", "cli.js"), "serve", "--output-dir", places.out, ...flags],
      stderr: "ignore",
      env: { ...getDefaultEnvironment(), STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON ?? "standin", TMPDIR: temp }
    })
    const client = new Client({ name: "security-bench", version: "1" })
    await client.connect(transport)
    const serverPid = transport.pid!
    const apps = new Set<number>()
    const call = async (tool: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })) as {
        isError?: boolean
        structuredContent?: { error?: { code?: string }; pid?: unknown; app?: { pid?: unknown } }
        content?: Array<{ text?: string }>
      }
      const pid = result.structuredContent?.pid ?? result.structuredContent?.app?.pid
      if (typeof pid === "number") apps.add(pid)
      return result
    }
    for (const [tool, args] of setup) await call(tool, args)
    for (const probe of probes) {
      const r = row(probe.kind)
      r.probes++
      const started = Date.now()
      let code: string | undefined = "NO_ANSWER"
      let text = ""
      try {
        const result = await call(probe.tool, probe.args)
        code = result.isError ? result.structuredContent?.error?.code : undefined
        text = JSON.stringify(result)
      } catch (error) {
        text = String(error)
      }
      // The server must answer the next call at once: an event loop blocked by the probe shows here.
      const alive = await call("electron_status", {}).then(() => isAlive(serverPid), () => false)
      r.slowestMs = Math.max(r.slowestMs, Date.now() - started)
      if (!alive) r.serverExits++
      // Counted once, by the probe that made them (a marker or a file outside stays for the later probes).
      const markers = readdirSync(places.markers)
      r.codeRan += markers.filter((m) => !seen.markers.has(m)).length
      markers.forEach((m) => seen.markers.add(m))
      const outside = outsideEntries()
      if (outside !== seen.outside) r.writesOutside++
      seen.outside = outside
      if (code !== undefined && probe.refusedWith.includes(code) && !text.includes("TOP-SECRET")) r.refused++
      else r.unexpected.push(`${probe.tool} ${JSON.stringify(probe.args).slice(0, 120)} -> ${code ?? "success"}`)
      if (!alive) break
    }
    await call("electron_close", {}).catch(() => undefined)
    await client.close()
    // Bounded waits for the server's processes and temp entries to go (they end within seconds).
    const deadline = Date.now() + 20_000
    const leftover = () => [...apps, serverPid].filter(isAlive)
    while ((leftover().length > 0 || readdirSync(temp).length > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    servers.push({ name, leakedProcesses: leftover().length, leakedTemp: readdirSync(temp) })
  })

const report = () => {
  const table = [...rows.entries()].map(([kind, r]) => ({ kind, ...r }))
  const totals = {
    probes: table.reduce((n, r) => n + r.probes, 0),
    refused: table.reduce((n, r) => n + r.refused, 0),
    codeExecutions: table.reduce((n, r) => n + r.codeRan, 0),
    writesOutside: table.reduce((n, r) => n + r.writesOutside, 0),
    serverExits: table.reduce((n, r) => n + r.serverExits, 0),
    leakedProcesses: servers.reduce((n, s) => n + s.leakedProcesses, 0),
    leakedTempEntries: servers.reduce((n, s) => n + s.leakedTemp.length, 0)
  }
  const md = [
    "# Security benchmark (`npm run bench:security`)",
    "",
    "| class | probes | refused as expected | code ran | writes outside | server exits | slowest answer (ms) |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...table.map((r) => `| ${r.kind} | ${r.probes} | ${r.refused} | ${r.codeRan} | ${r.writesOutside} | ${r.serverExits} | ${r.slowestMs} |`),
    `| **total** | ${totals.probes} | ${totals.refused} | ${totals.codeExecutions} | ${totals.writesOutside} | ${totals.serverExits} | |`,
    "",
    "| server | leaked processes | leaked temp entries |",
    "|---|---:|---:|",
    ...servers.map((s) => `| ${s.name} | ${s.leakedProcesses} | ${s.leakedTemp.length} |`),
    "",
    ...table.flatMap((r) => r.unexpected.map((u) => `- unexpected (${r.kind}): ${u}`))
  ].join("\n")
  writeFileSync(join(repoRoot(), "bench", "security-report.json"), JSON.stringify({ at: new Date().toISOString(), totals, table, servers }, null, 2) + "\n")
  writeFileSync(join(repoRoot(), "bench", "security-report.md"), md + "\n")
  process.stdout.write(md + "\n")
  const failed = totals.codeExecutions + totals.writesOutside + totals.serverExits + totals.leakedProcesses + totals.leakedTempEntries > 0 || totals.refused < totals.probes
  return failed
}

const launchApp: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["electron_launch", { app: places.app, env: { SAMPLE_APP_USER_DATA: places.userData() } }],
  ["electron_wait_for", { target: "testid=ping-button" }]
]

const program = Effect.gen(function* () {
  if (!existsSync(join(repoRoot(), "dist", "cli.js"))) return yield* Effect.die(new Error("dist/cli.js is missing: run npm run build first"))
  prepare()
  yield* runServer("no flags, network plugin", ["--plugin", "network"], [...launchApp, ...LONG_TEXT_SETUP], [...urlProbes(places), ...fileProbes(places), ...availabilityProbes(places), ...launchProbes(places)])
  yield* runServer("--allow-eval renderer", ["--allow-eval", "renderer"], launchApp, evalProbes(places))
  yield* runServer("--allow-eval renderer, no app", ["--allow-eval", "renderer"], [], evalProbes(places))
  yield* runServer("--app-root, --allow-eval main", ["--app-root", places.root, "--allow-eval", "main"], [], confinementProbes(places))
  if (report()) process.exitCode = 1
})

Effect.runPromise(program).catch((error) => {
  process.stderr.write(`${String(error)}\n`)
  process.exitCode = 1
})
