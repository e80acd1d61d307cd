/**
 * The security benchmark: `npm run bench:security` (needs `npm run build`). Runs every probe of
 * ./probes.ts against the built bin over stdio, each server with a temp folder of its own, and reports by
 * class: probes tried, refused as expected, code executions without the flag (marker files), writes outside
 * confinement (files in a folder nothing may write to), server exits, slowest answer after a probe, and,
 * server stalls (electron_status unanswered for 5 s while a probe runs), secrets seen in an answer, and,
 * per server, leaked processes and temp entries. Writes bench/security-report.md (the JSON goes to the
 * run's temp folder); exits 1 when
 * any count that must be 0 is not.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../repo-root.js"
import { sampleAppPath } from "../../samples.js"
import { isAlive } from "../reliability/procs.js"
import {
  availabilityProbes,
  confinementProbes,
  evalProbes,
  fileProbes,
  launchProbes,
  LONG_TEXT_SETUP,
  lowerProbes,
  parentElectronProbes,
  SECRET_VALUE,
  secretProbes,
  specialFileProbes,
  switchValueProbes,
  urlProbes,
  type Places,
  type Probe
} from "./probes.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

interface Row {
  probes: number
  refused: number
  unexpected: Array<string>
  codeRan: number
  writesOutside: number
  serverExits: number
  stalls: number
  secretsSeen: number
  slowestMs: number
}

const rows = new Map<string, Row>()
const row = (kind: string) =>
  rows.get(kind) ??
  (rows.set(kind, { probes: 0, refused: 0, unexpected: [], codeRan: 0, writesOutside: 0, serverExits: 0, stalls: 0, secretsSeen: 0, slowestMs: 0 }),
  rows.get(kind)!)
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
  for (const [name, pkg] of [
    ["plain", { name: "plain", main: "main.js" }],
    ["escape", { name: "escape", main: join(places.outside, "main.js") }],
    ["broken", { name: "broken", main: "missing.js" }]
  ] as const) {
    mkdirSync(join(places.root, name))
    writeFileSync(join(places.root, name, "package.json"), JSON.stringify(pkg))
  }
  writeFileSync(join(places.root, "plain", "main.js"), "")
  // Round 2 (issue 33): an app outside the root that leaves a marker, FIFOs, a link to procfs, a planted
  // electron package above the app's package.json, the operator's secrets file.
  mkdirSync(join(places.outside, "evil-app"))
  writeFileSync(join(places.outside, "evil-app", "package.json"), JSON.stringify({ name: "evil", main: "main.js" }))
  writeFileSync(join(places.outside, "evil-app", "main.js"), `require("fs").writeFileSync(${JSON.stringify(join(places.markers, "evil-app"))}, "x")\n`)
  mkdirSync(join(places.outside, "fifo-app"))
  execFileSync("mkfifo", [join(places.outside, "fifo-app", "package.json"), join(places.outside, "fifo")])
  symlinkSync("/proc/self/environ", join(work, "environ-link"))
  const planted = join(work, "node_modules", "electron")
  mkdirSync(join(planted, "dist"), { recursive: true })
  writeFileSync(join(planted, "package.json"), JSON.stringify({ name: "electron", version: "66.6.6" }))
  writeFileSync(join(planted, "path.txt"), "electron")
  writeFileSync(join(planted, "dist", "electron"), `#!/bin/sh\ntouch ${JSON.stringify(join(places.markers, "parent-electron"))}\nexit 1\n`)
  chmodSync(join(planted, "dist", "electron"), 0o755)
  writeFileSync(secretsFile, `BENCH_PW=${SECRET_VALUE}\n`)
}

const secretsFile = join(work, "secrets.env")
/** In the server's environment: what /proc/self/environ would hand a page. */
const ENV_SECRET = "TOP-SECRET-environ-5150"

const outsideEntries = () => readdirSync(places.outside).sort().join(",")
/** What earlier probes left: markers and the outside folder's listing (what prepare() made). */
const seen = { markers: new Set<string>(), outside: "" }

const runServer = (
  name: string,
  flags: ReadonlyArray<string>,
  setup: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  probes: ReadonlyArray<Probe>
) =>
  Effect.promise(async () => {
    const temp = mkdtempSync(join(tmpdir(), "sw-security-tmp-"))
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(repoRoot(), "dist", "cli.js"),
        "serve",
        ...(flags.includes("--tool-profile") ? [] : ["--tool-profile", "full"]),
        "--output-dir",
        places.out,
        ...flags
      ],
      stderr: "ignore",
      env: { ...getDefaultEnvironment(), STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON ?? "standin", TMPDIR: temp, SW_BENCH_SECRET: ENV_SECRET }
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
      const answered = call(probe.tool, probe.args)
      // The server must answer while the probe runs: an event loop blocked by it shows here as a stall.
      const stalled = await Promise.race([
        call("electron_status", {}).then(
          () => false,
          () => false
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5_000))
      ])
      if (stalled) r.stalls++
      try {
        const result = await answered
        code = result.isError ? result.structuredContent?.error?.code : undefined
        text = JSON.stringify(result)
      } catch (error) {
        text = String(error)
      }
      const leaked = text.includes("TOP-SECRET")
      if (leaked) r.secretsSeen++
      // The server must answer the next call at once: an event loop blocked by the probe shows here.
      const alive = await call("electron_status", {}).then(
        () => isAlive(serverPid),
        () => false
      )
      r.slowestMs = Math.max(r.slowestMs, Date.now() - started)
      if (!alive) r.serverExits++
      // Counted once, by the probe that made them (a marker or a file outside stays for the later probes).
      const markers = readdirSync(places.markers)
      r.codeRan += markers.filter((m) => !seen.markers.has(m)).length
      markers.forEach((m) => seen.markers.add(m))
      const outside = outsideEntries()
      if (outside !== seen.outside) r.writesOutside++
      seen.outside = outside
      if ((probe.succeeds === true ? code === undefined : code !== undefined && probe.refusedWith.includes(code)) && !leaked) r.refused++
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
  const sum = (key: "probes" | "refused" | "codeRan" | "writesOutside" | "serverExits" | "stalls" | "secretsSeen") => table.reduce((n, r) => n + r[key], 0)
  const totals = {
    probes: sum("probes"),
    refused: sum("refused"),
    codeExecutions: sum("codeRan"),
    writesOutside: sum("writesOutside"),
    serverExits: sum("serverExits"),
    stalls: sum("stalls"),
    secretsSeen: sum("secretsSeen"),
    leakedProcesses: servers.reduce((n, s) => n + s.leakedProcesses, 0),
    leakedTempEntries: servers.reduce((n, s) => n + s.leakedTemp.length, 0)
  }
  const md = [
    "# Security benchmark (`npm run bench:security`)",
    "",
    "| class | probes | as expected | code ran | writes outside | server exits | server stalls | secrets seen | slowest answer (ms) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...table.map(
      (r) =>
        `| ${r.kind} | ${r.probes} | ${r.refused} | ${r.codeRan} | ${r.writesOutside} | ${r.serverExits} | ${r.stalls} | ${r.secretsSeen} | ${r.slowestMs} |`
    ),
    `| **total** | ${totals.probes} | ${totals.refused} | ${totals.codeExecutions} | ${totals.writesOutside} | ${totals.serverExits} | ${totals.stalls} | ${totals.secretsSeen} | |`,
    "",
    "| server | leaked processes | leaked temp entries |",
    "|---|---:|---:|",
    ...servers.map((s) => `| ${s.name} | ${s.leakedProcesses} | ${s.leakedTemp.length} |`),
    "",
    ...table.flatMap((r) => r.unexpected.map((u) => `- unexpected (${r.kind}): ${u}`))
  ].join("\n")
  // The committed summary is the .md; the full JSON stays with the run's work folder.
  const json = join(work, "security-report.json")
  writeFileSync(json, JSON.stringify({ at: new Date().toISOString(), totals, table, servers }, null, 2) + "\n")
  writeFileSync(join(repoRoot(), "bench", "security-report.md"), md + "\n")
  process.stdout.write(`${md}\n\n(full report: ${json})\n`)
  const mustBeZero =
    totals.codeExecutions + totals.writesOutside + totals.serverExits + totals.stalls + totals.secretsSeen + totals.leakedProcesses + totals.leakedTempEntries
  return mustBeZero > 0 || totals.refused < totals.probes
}

/**
 * `stagewright replay` under serve's launch policy: a trace naming a program (executablePath) and an app
 * outside --app-root; the program would leave a marker. One row: probes = steps, as expected = refused or not run.
 */
const replayProbe = () =>
  Effect.sync(() => {
    const r = row("replay: trace names a program")
    const program = join(work, "trace-program.sh")
    writeFileSync(program, `#!/bin/sh\ntouch ${JSON.stringify(join(places.markers, "trace-program"))}\nexit 1\n`)
    chmodSync(program, 0o755)
    const call = (index: number, args: Record<string, unknown>) => ({
      type: "call",
      index,
      tool: "electron_launch",
      args,
      redacted: false,
      startedAt: "2026-01-01T00:00:00.000Z",
      durationMs: 1,
      outcome: "ok",
      chars: 1,
      approxTokens: 1
    })
    const header = { type: "header", schema: 1, stagewright: "bench", startedAt: "2026-01-01T00:00:00.000Z", plugins: [], allowEval: [], tokens: "approx" }
    const trace = join(work, "trace.jsonl")
    const steps = [
      call(1, { app: join(places.root, "missing"), executablePath: program }),
      call(2, { app: join(places.outside, "evil-app") }),
      call(3, { app: join(places.root, "plain"), args: [`--app=${join(places.outside, "evil-app")}`] })
    ]
    writeFileSync(trace, [header, ...steps].map((line) => JSON.stringify(line)).join("\n") + "\n")
    const started = Date.now()
    const run = spawnSync(process.execPath, [join(repoRoot(), "dist", "cli.js"), "replay", "--app-root", places.root, "--output-dir", places.out, trace], {
      encoding: "utf8",
      timeout: 60_000
    })
    r.slowestMs = Date.now() - started
    r.probes += steps.length
    const refused = [/FAIL\s+1 .*not run/, /FAIL\s+2 .*outside the app root/, /FAIL\s+3 .*outside the app root/]
    for (const [i, pattern] of refused.entries()) {
      if (pattern.test(run.stdout)) r.refused++
      else r.unexpected.push(`replay step ${i + 1}: ${run.stdout.split("\n").find((l) => l.includes(` ${i + 1} electron_launch`)) ?? run.stderr.slice(0, 200)}`)
    }
    const markers = readdirSync(places.markers).filter((m) => !seen.markers.has(m))
    r.codeRan += markers.length
    markers.forEach((m) => seen.markers.add(m))
  })

const launchApp: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["electron_launch", { app: places.app, env: { SAMPLE_APP_USER_DATA: places.userData() } }],
  ["electron_wait_for", { target: "testid=ping-button" }]
]

const program = Effect.gen(function* () {
  if (!existsSync(join(repoRoot(), "dist", "cli.js"))) return yield* Effect.die(new Error("dist/cli.js is missing: run npm run build first"))
  prepare()
  seen.outside = outsideEntries()
  yield* runServer(
    "no flags, network plugin",
    ["--plugin", "network"],
    [...launchApp, ...LONG_TEXT_SETUP],
    [...urlProbes(places), ...fileProbes(places), ...availabilityProbes(places), ...launchProbes(places)]
  )
  yield* runServer("--allow-eval renderer", ["--allow-eval", "renderer"], launchApp, evalProbes(places))
  yield* runServer("--allow-eval renderer, no app", ["--allow-eval", "renderer"], [], evalProbes(places))
  yield* runServer(
    "--app-root, --allow-eval main",
    ["--app-root", places.root, "--allow-eval", "main"],
    [],
    [...confinementProbes(places), ...switchValueProbes(places)]
  )
  // Round 2 (issue 33): procfs/device inputs, a FIFO package.json, program variables, a planted parent electron.
  yield* runServer("no flags, network plugin, round 2", ["--plugin", "network"], launchApp, [
    ...lowerProbes(places),
    ...specialFileProbes(places),
    ...parentElectronProbes(places)
  ])
  yield* runServer("--secrets", ["--secrets", secretsFile], launchApp, secretProbes())
  yield* replayProbe()
  if (report()) process.exitCode = 1
})

Effect.runPromise(program).catch((error) => {
  process.stderr.write(`${String(error)}\n`)
  process.exitCode = 1
})
