/**
 * Overhead benchmark: what driving the app through Stagewright costs over playwright-core directly.
 *
 *   npm run bench:overhead -- [--save-as report] [--rounds 25] [--count-rounds 3]
 *
 * The same 200 calls (src/bench/overhead/sequence.ts: 25 rounds of 4 reads and 4 actions on the
 * `tasks` sample app, after one untimed warm-up round) run
 *   - directly through playwright-core (`_electron.launch` with the runtime the driver would use),
 *   - through Stagewright in this process (createServer() and an SDK client on the in-memory pair),
 *     once after an electron_snapshot (the usual agent flow: actions then also compute the change in
 *     the accessibility tree) and once without a snapshot,
 *   - through the built `dist/cli.js serve` over stdio (after a snapshot),
 *   - through a bare MCP SDK server whose handler makes the direct call, on the in-memory pair and over
 *     stdio (src/bench/overhead/stdio-floor.ts): the floor of any MCP server's hop, to tell the SDK's
 *     and the transport's cost from Stagewright's.
 * Each runner launches its own app; the runners take turns call by call (in an order drawn anew for each
 * call type of each round: runners.ts, turnOrder), so a change in the machine's load reaches all of them
 * alike. Per call type: the median latency and the ratio to direct. On the stand-in, the reads are also made
 * directly on each Stagewright runner's own page (./same-page.ts), the reference without the difference
 * between apps. `--rounds N` makes N rounds instead of 25.
 *
 * Round trips: a second pass runs in a child process with DEBUG=pw:protocol,pw:api, where playwright-core
 * logs every CDP message it sends to the app (renderer and main process) and every API call it serves;
 * the child counts, per call, the CDP commands sent and the playwright-core API calls made, for the
 * direct and the in-memory runner. Writes bench/out/overhead-<save-as>.json and .md (ignored: the summary
 * committed is bench/overhead-issue42.md).
 */

import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { resolveElectronRuntime } from "../../index.js"
import { repoRoot } from "../repo-root.js"
import { CALL_TYPES, ROUNDS } from "./sequence.js"
import { GOALS, pairedByRound, toMarkdown, type OverheadReport } from "./report.js"
import { samePageRunner } from "./same-page.js"
import { stageRows, type StageRow } from "./stages.js"
import {
  type Runner,
  DIRECT_THEN_SNAPSHOT,
  PROBES,
  directRunner,
  inMemoryRunner,
  makesCall,
  sdkFloorRunner,
  stdioFloorRunner,
  stdioRunner,
  timeInterleaved,
  median,
  round2
} from "./runners.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

const argValue = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : undefined
}

const root = repoRoot()
const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

/** One way of making the calls: set up (launch), call one step, tear down. */
// ---------------------------------------------------------------------------------------------
// Round-trip counting (child process, DEBUG=pw:protocol,pw:api)

interface CallCount {
  /** CDP commands sent to the app (renderer targets and the main process) */
  readonly sends: number
  readonly methods: Record<string, number>
  /** playwright-core API calls served (pw:api) */
  readonly api: ReadonlyArray<string>
  /** CDP commands per playwright-core API call, in call order (each command counted to the API call started last). */
  readonly perApi: ReadonlyArray<{ readonly api: string; readonly sends: number }>
}

const countInChild = async (rounds: number, out: string) => {
  const lines: Array<string> = []
  let capturing = false
  const write = process.stderr.write.bind(process.stderr)
  // Playwright's DEBUG logger writes to stderr: its protocol lines are counted, not printed.
  const passOn = write as (chunk: unknown, ...rest: Array<unknown>) => boolean
  process.stderr.write = ((chunk: unknown, ...rest: Array<unknown>) => {
    const text = String(chunk)
    if (text.includes(" pw:")) {
      if (capturing) lines.push(...text.split("\n").filter((l) => l.includes(" pw:")))
      return true
    }
    return passOn(chunk, ...rest)
  }) as typeof process.stderr.write
  const sendsDuring = async (f: () => Promise<unknown>) => {
    lines.length = 0
    capturing = true
    await f()
    capturing = false
    return lines.filter((line) => line.includes("pw:protocol SEND")).length
  }
  const probeSends: Record<string, number> = {}
  const measure = async (runner: Runner) => {
    await runner.setup()
    const result: Record<string, Array<CallCount>> = {}
    try {
      if (runner.page) for (const probe of PROBES) probeSends[probe.name] = await sendsDuring(() => probe.run(runner.page!(), runner.app!()))
      for (const type of CALL_TYPES) await runner.call(type, 0)
      for (let round = 1; round <= rounds; round++) {
        for (const type of CALL_TYPES) {
          lines.length = 0
          capturing = true
          await runner.call(type, round)
          capturing = false
          const methods: Record<string, number> = {}
          let sends = 0
          const api: Array<string> = []
          const perApi: Array<{ api: string; sends: number }> = []
          for (const line of lines) {
            if (line.includes("pw:protocol SEND")) {
              sends++
              const method = /"method":"([^"]+)"/.exec(line)?.[1] ?? "?"
              methods[method] = (methods[method] ?? 0) + 1
              const last = perApi[perApi.length - 1]
              if (last !== undefined) last.sends++
              else perApi.push({ api: "(no API call)", sends: 1 })
            } else if (line.includes("pw:api")) {
              const started = /pw:api => (\S+) started/.exec(line)?.[1]
              if (started) {
                api.push(started)
                perApi.push({ api: started, sends: 0 })
              }
            }
          }
          ;(result[type.name] ??= []).push({ sends, methods, api, perApi })
        }
      }
    } finally {
      capturing = false
      await runner.teardown()
    }
    return result
  }
  const direct = await measure(directRunner())
  const inMemory = await measure(inMemoryRunner(true))
  const inMemoryNoSnapshot = await measure(inMemoryRunner(false))
  writeFileSync(out, JSON.stringify({ direct, inMemory, inMemoryNoSnapshot, probeSends }))
}

const runCountChild = (
  rounds: number
): Promise<{
  direct: Record<string, Array<CallCount>>
  inMemory: Record<string, Array<CallCount>>
  inMemoryNoSnapshot: Record<string, Array<CallCount>>
  probeSends: Record<string, number>
}> => {
  const dir = temp("stagewright-overhead-count-")
  const out = join(dir, "counts.json")
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--count-child", out, "--count-rounds", String(rounds)], {
    env: { ...process.env, DEBUG: "pw:protocol,pw:api", DEBUG_COLORS: "0" },
    stdio: ["ignore", "inherit", "inherit"]
  })
  return new Promise((resolve, reject) => {
    child.once("error", reject)
    child.once("exit", (code) => {
      if (code !== 0 || !existsSync(out)) return reject(new Error(`the counting pass exited with ${code}`))
      const counts = JSON.parse(readFileSync(out, "utf8"))
      rmSync(dir, { recursive: true, force: true })
      resolve(counts)
    })
  })
}

/** The most frequent shape of a call's counts (they are the same every round for these steps). */
const typical = (counts: ReadonlyArray<CallCount>): CallCount => {
  const sorted = [...counts].sort((a, b) => a.sends - b.sends)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** API calls in `ours` beyond those in `theirs` (multiset difference), in order. */
const extraApi = (ours: ReadonlyArray<string>, theirs: ReadonlyArray<string>) => {
  const left = [...theirs]
  return ours.filter((call) => {
    const index = left.indexOf(call)
    if (index >= 0) {
      left.splice(index, 1)
      return false
    }
    return true
  })
}

// ---------------------------------------------------------------------------------------------

const main = async () => {
  const saveAs = argValue("save-as") ?? "report"
  const countRounds = Number(argValue("count-rounds") ?? 3)
  const rounds = Number(argValue("rounds") ?? ROUNDS)
  const log = (line: string) => process.stderr.write(line + "\n")
  const start = loadavg()
  log(`overhead: ${rounds * CALL_TYPES.length} calls per runner on the tasks app (${resolveElectronRuntime().kind})`)
  const [inMemory, stdio, noSnapshot] = [inMemoryRunner(true), stdioRunner(), inMemoryRunner(false)]
  // The same-page references need the app's port from discovery: the stand-in's (./same-page.ts).
  const samePage = resolveElectronRuntime().kind === "standin" ? [inMemory, stdio, noSnapshot].map(samePageRunner) : []
  const runners = [directRunner(), directRunner(true), sdkFloorRunner(), inMemory, stdioFloorRunner(), stdio, noSnapshot, ...samePage]
  const probes: Record<string, number> = {}
  const timings = await timeInterleaved(runners, rounds, log, probes)
  log(`counting round trips (${countRounds} rounds with DEBUG=pw:protocol,pw:api)`)
  const counts = await runCountChild(countRounds)

  const direct = timings.get("direct")!
  // Each probe's median, by the stage whose call it times.
  const probeMs = Object.fromEntries(PROBES.map((p) => [p.stage, probes[p.name]!]))
  const stages: Array<{ name: string; snapshot: boolean; oursMs: number; rows: Array<StageRow> }> = []
  const types = CALL_TYPES.map((type) => {
    const directMs = median(direct.get(type.name)!)
    const via = Object.fromEntries(
      runners
        .filter((r) => r.name !== "direct" && makesCall(r, type))
        .map((r) => {
          const ms = median(timings.get(r.name)!.get(type.name)!)
          return [r.name, { medianMs: round2(ms), ratio: round2(ms / directMs) }]
        })
    )
    const d = typical(counts.direct[type.name]!)
    const s = typical(counts.inMemory[type.name]!)
    const n = typical(counts.inMemoryNoSnapshot[type.name]!)
    const times = (runner: string) => ({
      oursMs: median(timings.get(runner)!.get(type.name)!),
      directMs,
      floorMs: median(timings.get("bare SDK handler")!.get(type.name)!)
    })
    stages.push({ name: type.name, snapshot: true, oursMs: times("in-memory").oursMs, rows: stageRows(s.perApi, d.perApi, probeMs, times("in-memory")) })
    stages.push({
      name: type.name,
      snapshot: false,
      oursMs: times("in-memory, no snapshot").oursMs,
      rows: stageRows(n.perApi, d.perApi, probeMs, times("in-memory, no snapshot"))
    })
    return {
      name: type.name,
      kind: type.kind,
      direct: { medianMs: round2(directMs) },
      via,
      roundTrips: {
        direct: { cdpCommands: d.sends, methods: d.methods, api: d.api },
        stagewright: { cdpCommands: s.sends, methods: s.methods, api: s.api, extraApi: extraApi(s.api, d.api) },
        stagewrightNoSnapshot: { cdpCommands: n.sends, methods: n.methods, api: n.api, extraApi: extraApi(n.api, d.api) }
      }
    }
  })
  // The sum of a kind's medians through `runner` over the same sum through `reference` (direct playwright-core by default).
  const kindRatio = (kind: string, runner: string, reference?: string) => {
    const picked = types.filter((t) => t.kind === kind)
    const ours = picked.reduce((sum, t) => sum + t.via[runner]!.medianMs, 0)
    const theirs = picked.reduce((sum, t) => sum + (reference === undefined ? t.direct.medianMs : t.via[reference]!.medianMs), 0)
    return round2(ours / theirs)
  }
  const pairedRatio = (kind: string, runner: string) =>
    round2(
      pairedByRound(
        timings,
        CALL_TYPES.filter((t) => t.kind === kind).map((t) => t.name),
        runner,
        "direct"
      )
    )
  const report: OverheadReport = {
    date: new Date().toISOString(),
    label: saveAs,
    command: `npm run build && npm run bench:overhead -- ${process.argv.slice(2).join(" ")}`.trim(),
    runtime: resolveElectronRuntime().kind,
    node: process.version,
    cpus: cpus().length,
    loadAverage: { start: start.map(round2), end: loadavg().map(round2) },
    calls: rounds * CALL_TYPES.length,
    goal: GOALS,
    summary: Object.fromEntries(
      runners
        .filter((r) => r.name !== "direct" && r.reference === undefined)
        .map((r) => [r.name, { read: kindRatio("read", r.name), action: kindRatio("action", r.name) }])
    ),
    pairedByRound: Object.fromEntries(
      runners
        .filter((r) => r.name !== "direct" && r.reference === undefined)
        .map((r) => [r.name, { read: pairedRatio("read", r.name), action: pairedRatio("action", r.name) }])
    ),
    // Actions after a snapshot against the same actions each followed by the page's snapshot, all through playwright-core.
    actionsAgainstSnapshot: { inMemory: kindRatio("action", "in-memory", DIRECT_THEN_SNAPSHOT), stdio: kindRatio("action", "stdio", DIRECT_THEN_SNAPSHOT) },
    readsOnSamePage: samePage.length === 0 ? undefined : Object.fromEntries(samePage.map((r) => [r.reference!, kindRatio("read", r.reference!, r.name)])),
    types,
    stages,
    probes: Object.fromEntries(Object.entries(probes).map(([name, ms]) => [name, { medianMs: ms, cdpCommands: counts.probeSends[name] }]))
  }
  // Generated: bench/out/ is ignored; the committed summary is written by hand from it.
  mkdirSync(join(root, "bench", "out"), { recursive: true })
  const base = join(root, "bench", "out", `overhead-${saveAs}`)
  writeFileSync(`${base}.json`, JSON.stringify(report, null, 2) + "\n")
  const markdown = toMarkdown(report)
  writeFileSync(`${base}.md`, markdown)
  process.stdout.write(markdown)
}

if (process.argv.includes("--count-child")) {
  countInChild(Number(argValue("count-rounds") ?? 3), argValue("count-child")!).then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
      process.exit(1)
    }
  )
} else {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  })
}
