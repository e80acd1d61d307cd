/**
 * The reliability benchmark (an Effect program on Stagewright's public API):
 *
 *   npm run bench:reliability -- [--cycles N] [--calls N] [--sessions N] [--session-calls N] [--fuzz-calls N] [--seed N]
 *
 * 1. launch/kill cycles of the tasks app (default 100), then leaked processes, file descriptors and temp folders;
 * 2. sequential tool calls on one app (default 2,000) with memory of this process and of the app;
 * 3. concurrent Streamable HTTP sessions on the built server (default 4 x 50 calls), and SIGTERM;
 * 4. the Dispatcher-level fuzz (default 3,000 calls), counts by code.
 *
 * Writes bench/out/reliability-report.json and prints a summary; progress goes to stderr. A count of 0
 * skips a section. Timings are figures to read, not pass/fail gates.
 */
import { Command, Options } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Console, Duration, Effect } from "effect"
import { cpus, tmpdir, totalmem } from "node:os"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { resolveElectronRuntime, VERSION } from "../../index.js"
import { dispatcherFuzz, httpSessions } from "./http-fuzz.js"
import { launchCycles, progress, sequentialCalls } from "./sections.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const DEFAULT_REPORT = resolve(ROOT, "bench", "out", "reliability-report.json")

const count = (name: string, fallback: number, description: string) =>
  Options.integer(name).pipe(Options.withDescription(description), Options.withDefault(fallback))

const options = {
  cycles: count("cycles", 100, "launch/end cycles of the tasks app (alternating electron_close and SIGKILL)"),
  calls: count("calls", 2_000, "sequential tool calls on one app"),
  sessions: count("sessions", 4, "concurrent Streamable HTTP sessions, each with its own app"),
  sessionCalls: count("session-calls", 50, "concurrent calls per HTTP session"),
  fuzzCalls: count("fuzz-calls", 3_000, "Dispatcher-level fuzz calls (no app)"),
  seed: count("seed", 20_261_129, "fuzz seed"),
  report: Options.text("report").pipe(Options.withDescription("path of the JSON report"), Options.withDefault(DEFAULT_REPORT))
}

interface Flags {
  readonly cycles: number
  readonly calls: number
  readonly sessions: number
  readonly sessionCalls: number
  readonly fuzzCalls: number
  readonly seed: number
  readonly report: string
}

/** Runs a section unless its count is 0; a section that fails is reported, and the others still run. */
const section = <A, E, R>(name: string, enabled: boolean, effect: Effect.Effect<A, E, R>) =>
  enabled
    ? progress(`== ${name}`).pipe(
        Effect.zipRight(Effect.timed(effect)),
        Effect.map(([duration, value]) => ({ ok: true as const, seconds: Math.round(Duration.toMillis(duration) / 100) / 10, value })),
        Effect.catchAll((error) => Effect.succeed({ ok: false as const, error: error instanceof Error ? error.message : String(error) }))
      )
    : Effect.succeed({ ok: false as const, skipped: true })

const summaryLines = (report: Record<string, any>): ReadonlyArray<string> => {
  const lines = [`Stagewright reliability ${report.date} (${report.machine.cpus} cores, node ${report.machine.node}, ${report.machine.runtime})`]
  const c = report.cycles
  if (c.ok) {
    const v = c.value
    lines.push(
      `launch/kill cycles: ${v.cycles} cycles, ${v.launches} launches, ${v.launchFailures} failed; launch p50/p95 ${v.launchMs.p50}/${v.launchMs.p95} ms; close p50/p95 ${v.closeMs.p50}/${v.closeMs.p95} ms; kill->gone p50 ${v.killToGoneMs.p50} ms`,
      `  after SIGKILL: ${v.appCrashedAnswers}/${v.killCycles} calls answered APP_CRASHED; lingering after cycles ${v.lingeringAfterCycle}; leaked processes ${v.leakedProcesses}; fds ${v.fds.before} -> ${v.fds.after} (${v.fds.delta >= 0 ? "+" : ""}${v.fds.delta}); temp left: ${v.tempFolders.standinProfilesOfOurApps} stand-in profiles of our apps, ${v.tempFolders.playwrightArtifactsOfOurLaunches} playwright-artifacts of our launches (${v.tempFolders.playwrightArtifactsNew} new in /tmp)`
    )
  } else lines.push(`launch/kill cycles: ${c.skipped ? "skipped" : `FAILED: ${c.error}`}`)
  const s = report.sequential
  if (s.ok) {
    const v = s.value
    const first = v.memory[0]
    const last = v.memory[v.memory.length - 1]
    lines.push(
      `sequential calls: ${v.calls} in ${v.durationS} s, ${v.failures} failed; p50/p95 ${v.latencyMs.p50}/${v.latencyMs.p95} ms`,
      `  memory: rss ${first.rssMB} -> ${last.rssMB} MB (${v.growthMB.rss >= 0 ? "+" : ""}${v.growthMB.rss}), heap after GC ${first.heapAfterGcMB} -> ${last.heapAfterGcMB} MB (${v.growthMB.heapAfterGc}), app rss ${first.appRssMB} -> ${last.appRssMB} MB (${v.growthMB.appRss >= 0 ? "+" : ""}${v.growthMB.appRss})`
    )
  } else lines.push(`sequential calls: ${s.skipped ? "skipped" : `FAILED: ${s.error}`}`)
  const h = report.http
  if (h.ok) {
    const v = h.value
    lines.push(
      `HTTP sessions: ${v.sessions} x ${v.callsPerSession} concurrent calls: ${v.successes}/${v.calls} ok, failures ${JSON.stringify(v.failuresByCode)}; p50/p95 ${v.latencyMs.p50}/${v.latencyMs.p95} ms; launches ${v.launches.map((l: any) => `${l.code} ${l.ms} ms`).join(", ")}`,
      `  SIGTERM: ${v.sigterm.processesBefore} processes, ${v.sigterm.stillAliveAfter20s} alive after 20 s${v.sigterm.goneWithinMs !== null ? `, all gone in ${v.sigterm.goneWithinMs} ms` : ""}; playwright-artifacts left: ${v.sigterm.playwrightArtifactsLeft.length}${v.build.note ? `; build: ${v.build.note}` : ""}`
    )
  } else lines.push(`HTTP sessions: ${h.skipped ? "skipped" : `FAILED: ${h.error}`}`)
  const f = report.fuzz
  if (f.ok) {
    lines.push(f.value.table)
    for (const v of f.value.distinctViolations.slice(0, 10)) lines.push(`  [${v.count}x] ${v.tool} (${v.kind}): ${v.problem.slice(0, 160)}`)
  } else lines.push(`fuzz: ${f.skipped ? "skipped" : `FAILED: ${f.error}`}`)
  lines.push(`total ${report.durationS} s; report: ${report.reportPath}`)
  return lines
}

const run = (flags: Flags) =>
  Effect.gen(function* () {
    const started = Date.now()
    const outputDir = mkdtempSync(join(tmpdir(), "stagewright-bench-out-"))
    const runtime = yield* Effect.try(() => resolveElectronRuntime()).pipe(
      Effect.map((r) => r.kind),
      Effect.orElseSucceed(() => "unknown")
    )
    const cycles = yield* section("launch/kill cycles", flags.cycles > 0, launchCycles({ cycles: flags.cycles, outputDir }))
    const sequential = yield* section("sequential calls", flags.calls > 0, sequentialCalls({ calls: flags.calls, outputDir }))
    const http = yield* section(
      "HTTP sessions",
      flags.sessions > 0 && flags.sessionCalls > 0,
      httpSessions({ root: ROOT, sessions: flags.sessions, callsPerSession: flags.sessionCalls })
    )
    const fuzz = yield* section("dispatcher fuzz", flags.fuzzCalls > 0, dispatcherFuzz({ calls: flags.fuzzCalls, seed: flags.seed, outputDir }))
    rmSync(outputDir, { recursive: true, force: true })
    const report = {
      date: new Date().toISOString(),
      version: VERSION,
      machine: { cpus: cpus().length, memoryGB: Math.round(totalmem() / 1024 ** 3), node: process.version, platform: process.platform, runtime },
      options: {
        cycles: flags.cycles,
        calls: flags.calls,
        sessions: flags.sessions,
        sessionCalls: flags.sessionCalls,
        fuzzCalls: flags.fuzzCalls,
        seed: flags.seed
      },
      durationS: Math.round((Date.now() - started) / 1000),
      reportPath: flags.report,
      cycles,
      sequential,
      http,
      fuzz
    }
    mkdirSync(dirname(flags.report), { recursive: true })
    writeFileSync(flags.report, JSON.stringify(report, null, 2) + "\n")
    yield* Console.log(summaryLines(report).join("\n"))
  })

const command = Command.make("reliability", options, run).pipe(
  Command.withDescription(
    "Measure launch/kill cycles, long sequential sessions, concurrent HTTP sessions and the Dispatcher fuzz; write bench/out/reliability-report.json"
  )
)

Command.run(command, { name: "stagewright-reliability", version: VERSION })(process.argv).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain)
