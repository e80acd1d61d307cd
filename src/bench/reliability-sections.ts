/**
 * The four measurements of the reliability benchmark, each an Effect over Stagewright's public API
 * (./reliability.ts runs them and writes the report). Figures are recorded, never asserted.
 *
 * - launchCycles: launch the tasks app through createServer() + electron_launch and end it, alternating
 *   electron_close and a SIGKILL of the app's process group (then a call that should answer APP_CRASHED
 *   and a fresh launch); afterwards leaked processes, file descriptors and temp folders.
 * - sequentialCalls: a realistic mix of calls on one app, with this process's and the app's memory.
 * - httpSessions: the built server over Streamable HTTP, several sessions each with its own app and
 *   concurrent calls; latency, codes, and whether every process is gone after SIGTERM.
 * - dispatcherFuzz: the shared generator (./reliability-fuzz.ts) against the Dispatcher, counts by code.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Cause, Console, Context, Data, Duration, Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { runInNewContext } from "node:vm"
import { setFlagsFromString } from "node:v8"
import { coreLayer, createServer, Dispatcher, sampleAppPath, type StagewrightServer } from "../index.js"
import { checkResult, FuzzTally, planCalls, type Checked, type TallySummary } from "./reliability-fuzz.js"
import { commandOf, descendants, isAlive, mb, openFds, percentile, PLAYWRIGHT_ARTIFACTS, STANDIN_PROFILE, tempEntries, treeRss, waitAllGone } from "./reliability-procs.js"

export const progress = (message: string) => Console.error(`[reliability ${new Date().toISOString().slice(11, 19)}] ${message}`)

export class BenchSetupFailed extends Data.TaggedError("BenchSetupFailed")<{ readonly step: string; readonly cause: unknown }> {
  override get message() {
    return `${this.step}: ${this.cause instanceof Error ? this.cause.message : String(this.cause)}`
  }
}

// ---------------------------------------------------------------------------------------------
// Calls

export interface Outcome {
  readonly code: string
  readonly ms: number
  readonly structured: Record<string, any> | undefined
  readonly text: string
}

const rejectedOutcome = (error: unknown, ms: number): Outcome => ({
  code: "REJECTED",
  ms,
  structured: undefined,
  text: error instanceof Error ? error.message.split("\n")[0] ?? "" : String(error)
})

const toOutcome = (result: unknown, ms: number): Outcome => {
  const r = result as { structuredContent?: Record<string, any>; content?: Array<{ type: string; text?: string }> }
  return { code: checkResult(result).code, ms, structured: r?.structuredContent, text: r?.content?.find((c) => c.type === "text")?.text ?? "" }
}

/** One tool call through any client; a rejection becomes the outcome REJECTED (the facade promises none). */
const timedCall = (f: () => Promise<unknown>): Effect.Effect<Outcome> =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.tryPromise(f).pipe(
      Effect.match({
        onFailure: (error) => rejectedOutcome(error.error, performance.now() - started),
        onSuccess: (result) => toOutcome(result, performance.now() - started)
      })
    )
  })

const callServer = (server: StagewrightServer, name: string, args: Record<string, unknown> = {}) => timedCall(() => server.callTool(name, args))

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1
}

const latency = (values: ReadonlyArray<number>) => ({ n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), max: percentile(values, 100) })

/** A fresh folder for the sample app's data (it honours SAMPLE_APP_USER_DATA), removed with the scope. */
const userDataDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "stagewright-bench-userdata-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const launchArgs = (userData: string) => ({ app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })

/** A server from createServer(), closed with the scope. */
const scopedServer = (outputDir: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => createServer({ outputDir }), catch: (cause) => new BenchSetupFailed({ step: "createServer", cause }) }),
    (server) => Effect.promise(() => server.close().catch(() => undefined))
  )

/** Playwright artifacts folders that appear while `effect` runs (others' runs may add some in the same window). */
const artifactsDuring = <A, E, R>(effect: Effect.Effect<A, E, R>, into: Set<string>) =>
  Effect.suspend(() => {
    const before = tempEntries()
    return Effect.ensuring(
      effect,
      Effect.sync(() => {
        for (const name of tempEntries()) if (PLAYWRIGHT_ARTIFACTS.test(name) && !before.has(name)) into.add(name)
      })
    )
  })

const stillPresent = (names: ReadonlySet<string>) => [...names].filter((name) => tempEntries().has(name))

// ---------------------------------------------------------------------------------------------
// 1. Launch / kill cycles

export interface CycleRecord {
  readonly cycle: number
  readonly mode: "close" | "kill"
  readonly launchCode: string
  readonly launchMs: number
  readonly endCode?: string
  readonly endMs?: number
  readonly crashCallCode?: string
  readonly relaunchCode?: string
  readonly relaunchMs?: number
  /** Processes of this cycle's apps still alive 10 s after the server closed. */
  readonly lingering: number
  readonly note?: string
}

export const launchCycles = (options: { readonly cycles: number; readonly outputDir: string }) =>
  Effect.gen(function* () {
    const before = { fds: openFds(), descendants: new Set(descendants(process.pid)), temp: tempEntries() }
    const appPids = new Set<number>()
    const ourArtifacts = new Set<string>()
    const records: Array<CycleRecord> = []
    const started = Date.now()
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      const mode = cycle % 2 === 0 ? ("close" as const) : ("kill" as const)
      const trees: Array<number> = []
      const record = yield* Effect.scoped(
        Effect.gen(function* () {
          const server = yield* scopedServer(options.outputDir)
          const userData = yield* userDataDir
          const launched = yield* artifactsDuring(callServer(server, "electron_launch", launchArgs(userData)), ourArtifacts)
          const base = { cycle, mode, launchCode: launched.code, launchMs: Math.round(launched.ms) }
          if (launched.code !== "OK") return { ...base, lingering: 0, note: launched.text.slice(0, 200) }
          const status = yield* callServer(server, "electron_status")
          const pid = status.structured?.app?.pid as number | undefined
          if (pid === undefined) return { ...base, lingering: 0, note: "electron_status gave no pid" }
          appPids.add(pid)
          trees.push(pid, ...descendants(pid))
          if (mode === "close") {
            const closed = yield* callServer(server, "electron_close")
            yield* Effect.promise(() => waitAllGone(trees, 10_000))
            return { ...base, endCode: closed.code, endMs: Math.round(closed.ms), lingering: 0 }
          }
          const killedAt = performance.now()
          yield* Effect.try(() => process.kill(-pid, "SIGKILL")).pipe(Effect.ignore)
          yield* Effect.promise(() => waitAllGone(trees, 10_000))
          const goneMs = Math.round(performance.now() - killedAt)
          const crash = yield* callServer(server, "electron_snapshot")
          const relaunch = yield* artifactsDuring(callServer(server, "electron_launch", launchArgs(userData)), ourArtifacts)
          const relaunchPid = (yield* callServer(server, "electron_status")).structured?.app?.pid as number | undefined
          if (relaunchPid !== undefined) {
            appPids.add(relaunchPid)
            trees.push(relaunchPid, ...descendants(relaunchPid))
          }
          return {
            ...base,
            endCode: "SIGKILL",
            endMs: goneMs,
            crashCallCode: crash.code,
            relaunchCode: relaunch.code,
            relaunchMs: Math.round(relaunch.ms),
            lingering: 0,
            ...(crash.code !== "APP_CRASHED" ? { note: `after the kill electron_snapshot answered: ${crash.text.slice(0, 200)}` } : {})
          }
        })
      ).pipe(Effect.catchAll((error) => Effect.succeed<CycleRecord>({ cycle, mode, launchCode: "SETUP_FAILED", launchMs: 0, lingering: 0, note: error.message })))
      // The server (and with it any app) is closed: everything this cycle started must go.
      const lingering = (yield* Effect.promise(() => waitAllGone(trees, 10_000))).length
      records.push({ ...record, lingering })
      if ((cycle + 1) % 10 === 0 || cycle + 1 === options.cycles) {
        yield* progress(`cycles ${cycle + 1}/${options.cycles} (${Math.round((Date.now() - started) / 1000)} s)`)
      }
    }
    // Let exits, the stand-in's profile watchers and Playwright's cleanup finish before counting.
    const settleDeadline = Date.now() + 15_000
    const ours = () => descendants(process.pid).filter((pid) => !before.descendants.has(pid) && isAlive(pid))
    while (ours().length > 0 && Date.now() < settleDeadline) yield* Effect.sleep(Duration.millis(200))
    yield* Effect.sleep(Duration.seconds(2))
    const leaked = ours()
    const after = { fds: openFds(), temp: tempEntries() }
    const newTemp = [...after.temp].filter((name) => !before.temp.has(name))
    const ourProfiles = newTemp.filter((name) => appPids.has(Number(STANDIN_PROFILE.exec(name)?.[1])))
    const codes: Record<string, number> = {}
    for (const r of records) {
      bump(codes, `launch ${r.launchCode}`)
      if (r.endCode) bump(codes, `end ${r.endCode}`)
      if (r.crashCallCode) bump(codes, `after kill ${r.crashCallCode}`)
      if (r.relaunchCode) bump(codes, `relaunch ${r.relaunchCode}`)
    }
    return {
      cycles: options.cycles,
      durationS: Math.round((Date.now() - started) / 1000),
      launches: records.length + records.filter((r) => r.relaunchCode !== undefined).length,
      launchFailures: records.filter((r) => r.launchCode !== "OK").length + records.filter((r) => r.relaunchCode !== undefined && r.relaunchCode !== "OK").length,
      codes,
      launchMs: latency([...records.filter((r) => r.launchCode === "OK").map((r) => r.launchMs), ...records.flatMap((r) => (r.relaunchCode === "OK" ? [r.relaunchMs!] : []))]),
      closeMs: latency(records.filter((r) => r.mode === "close" && r.endCode === "OK").map((r) => r.endMs!)),
      killToGoneMs: latency(records.filter((r) => r.mode === "kill" && r.endMs !== undefined).map((r) => r.endMs!)),
      appCrashedAnswers: records.filter((r) => r.crashCallCode === "APP_CRASHED").length,
      killCycles: records.filter((r) => r.mode === "kill").length,
      lingeringAfterCycle: records.reduce((n, r) => n + r.lingering, 0),
      leakedProcesses: leaked.length,
      leaked: leaked.slice(0, 20).map((pid) => ({ pid, command: commandOf(pid) })),
      fds: { before: before.fds, after: after.fds, delta: after.fds - before.fds },
      tempFolders: {
        standinProfilesOfOurApps: ourProfiles.length,
        playwrightArtifactsOfOurLaunches: stillPresent(ourArtifacts).length,
        standinProfilesNew: newTemp.filter((n) => STANDIN_PROFILE.test(n)).length,
        playwrightArtifactsNew: newTemp.filter((n) => PLAYWRIGHT_ARTIFACTS.test(n)).length,
        left: newTemp.slice(0, 20),
        note: "new entries since the start that still exist; profiles are attributed to our apps by the pid in their name, artifacts folders to our launches when they appeared while one ran (other users' runs may add some)"
      },
      anomalies: records.filter((r) => r.note !== undefined || r.lingering > 0).slice(0, 20)
    }
  })

// ---------------------------------------------------------------------------------------------
// 2. Sequential calls on one app

const gcNow: (() => void) | undefined = (() => {
  try {
    setFlagsFromString("--expose-gc")
    return runInNewContext("gc") as () => void
  } catch {
    return undefined
  }
})()

interface MemorySample {
  readonly afterCalls: number
  readonly rssMB: number
  readonly heapUsedMB: number
  readonly heapAfterGcMB: number | null
  readonly appRssMB: number
  readonly appProcesses: number
}

const memorySample = (afterCalls: number, appPid: number): MemorySample => {
  const raw = process.memoryUsage()
  gcNow?.()
  const collected = gcNow ? process.memoryUsage().heapUsed : undefined
  const app = treeRss(appPid)
  return {
    afterCalls,
    rssMB: mb(raw.rss),
    heapUsedMB: mb(raw.heapUsed),
    heapAfterGcMB: collected !== undefined ? mb(collected) : null,
    appRssMB: mb(app.bytes),
    appProcesses: app.processes
  }
}

/** The realistic mix, in order; console passes the cursor of its previous answer. */
const MIX: ReadonlyArray<{ readonly tool: string; readonly args: (state: { cursor: number | undefined }) => Record<string, unknown> }> = [
  { tool: "electron_find", args: () => ({ target: 'role=button[name="Ping"]' }) },
  { tool: "electron_get_text", args: () => ({ target: "role=heading[level=1]" }) },
  { tool: "electron_snapshot", args: () => ({ since: "last" }) },
  { tool: "electron_click", args: () => ({ target: "testid=ping-button" }) },
  { tool: "electron_expect_text", args: () => ({ target: "testid=ping-result", text: "pong:" }) },
  { tool: "electron_console", args: (s) => ({ ...(s.cursor !== undefined ? { cursor: s.cursor } : {}), limit: 20 }) },
  { tool: "electron_status", args: () => ({}) }
]

export const sequentialCalls = (options: { readonly calls: number; readonly outputDir: string }) =>
  Effect.scoped(
    Effect.gen(function* () {
      const server = yield* scopedServer(options.outputDir)
      const userData = yield* userDataDir
      const launched = yield* callServer(server, "electron_launch", launchArgs(userData))
      if (launched.code !== "OK") return yield* new BenchSetupFailed({ step: "launch for the sequential calls", cause: launched.text })
      const pid = (yield* callServer(server, "electron_status")).structured?.app?.pid as number
      const samples: Array<MemorySample> = [memorySample(0, pid)]
      const byTool: Record<string, Array<number>> = {}
      const codes: Record<string, Record<string, number>> = {}
      const state = { cursor: undefined as number | undefined }
      const started = Date.now()
      for (let i = 0; i < options.calls; i++) {
        const step = MIX[i % MIX.length]!
        const outcome = yield* callServer(server, step.tool, step.args(state))
        ;(byTool[step.tool] ??= []).push(outcome.ms)
        bump((codes[step.tool] ??= {}), outcome.code)
        if (step.tool === "electron_console" && typeof outcome.structured?.cursor === "number") state.cursor = outcome.structured.cursor
        if ((i + 1) % 250 === 0 || i + 1 === options.calls) {
          samples.push(memorySample(i + 1, pid))
          yield* progress(`sequential calls ${i + 1}/${options.calls}`)
        }
      }
      const first = samples[0]!
      const last = samples[samples.length - 1]!
      const growth = (key: "rssMB" | "heapUsedMB" | "appRssMB") => Math.round((last[key] - first[key]) * 10) / 10
      const all = Object.values(byTool).flat()
      return {
        calls: options.calls,
        durationS: Math.round((Date.now() - started) / 1000),
        failures: Object.values(codes).reduce((n, c) => n + Object.entries(c).filter(([k]) => k !== "OK").reduce((m, [, v]) => m + v, 0), 0),
        codes,
        latencyMs: latency(all),
        latencyByToolMs: Object.fromEntries(Object.entries(byTool).map(([tool, values]) => [tool, latency(values)])),
        memory: samples,
        growthMB: {
          rss: growth("rssMB"),
          heapUsed: growth("heapUsedMB"),
          heapAfterGc: first.heapAfterGcMB !== null && last.heapAfterGcMB !== null ? Math.round((last.heapAfterGcMB - first.heapAfterGcMB) * 10) / 10 : null,
          appRss: growth("appRssMB")
        }
      }
    })
  )

// ---------------------------------------------------------------------------------------------
// 3. Concurrent HTTP sessions

const newestMtime = (dir: string): number => {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== "bench") newest = Math.max(newest, newestMtime(path))
    } else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

const runBuild = (root: string) =>
  Effect.async<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (d) => (output += String(d)))
    child.stderr.on("data", (d) => (output += String(d)))
    child.once("exit", (code) => resume(Effect.succeed({ code, output: output.slice(-2_000) })))
    child.once("error", (error) => resume(Effect.succeed({ code: -1, output: String(error) })))
    return Effect.sync(() => child.kill("SIGTERM"))
  })

/** Builds dist/ when a source file is newer than dist/cli.js; a failed build is reported, and the old dist used if there is one. */
export const ensureBuilt = (root: string) =>
  Effect.gen(function* () {
    const cli = join(root, "dist", "cli.js")
    const built = existsSync(cli) ? statSync(cli).mtimeMs : 0
    const stale = newestMtime(join(root, "src")) > built
    if (!stale) return { cli, stale: false, built: false as boolean, note: undefined as string | undefined }
    yield* progress("dist/ is older than src/: npm run build")
    const started = Date.now()
    const result = yield* runBuild(root)
    if (result.code === 0) return { cli, stale: true, built: true, note: `built in ${Math.round((Date.now() - started) / 1000)} s` }
    const note = `npm run build failed (exit ${result.code}); ${existsSync(cli) ? "used the existing dist/" : "no dist/ to use"}: ${result.output.split("\n").filter((l) => /error/i.test(l)).slice(0, 5).join(" | ")}`
    yield* progress(note)
    return { cli, stale: true, built: false, note }
  })

const startHttpServer = (cli: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly child: ChildProcess; readonly url: URL }, BenchSetupFailed>((resume) => {
      const child = spawn(process.execPath, [cli, "serve", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] })
      const timer = setTimeout(() => resume(Effect.fail(new BenchSetupFailed({ step: "serve --port 0", cause: "no 'stagewright listening on' line within 30 s" }))), 30_000)
      createInterface({ input: child.stderr! }).on("line", (line) => {
        const found = /stagewright listening on (\S+)/.exec(line)?.[1]
        if (found) {
          clearTimeout(timer)
          resume(Effect.succeed({ child, url: new URL(found) }))
        }
      })
      child.once("exit", (code) => {
        clearTimeout(timer)
        resume(Effect.fail(new BenchSetupFailed({ step: "serve --port 0", cause: `the server exited with ${code}` })))
      })
    }),
    // Normally already gone after the measured SIGTERM; this only covers a failure on the way.
    ({ child }) => Effect.sync(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"))
  )

/** The mix for concurrent calls (no incremental snapshot: concurrent diffs would race each other). */
const CONCURRENT_MIX: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ["electron_find", { target: 'role=button[name="Ping"]' }],
  ["electron_get_text", { target: "role=heading[level=1]" }],
  ["electron_snapshot", {}],
  ["electron_click", { target: "testid=ping-button" }],
  // Order-independent (the 50 calls start together): the heading is there whether or not a click ran first.
  ["electron_expect_text", { target: "role=heading[level=1]", text: "Task Board" }],
  ["electron_console", { limit: 20 }],
  ["electron_status", {}]
]

const httpSession = (url: URL, index: number, calls: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const client = new Client({ name: `reliability-${index}`, version: "1" })
      yield* Effect.acquireRelease(
        Effect.tryPromise({ try: () => client.connect(new StreamableHTTPClientTransport(url)), catch: (cause) => new BenchSetupFailed({ step: `session ${index}: connect`, cause }) }),
        () => Effect.promise(() => client.close().catch(() => undefined))
      )
      const userData = yield* userDataDir
      const call = (name: string, args: Record<string, unknown>) => timedCall(() => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }))
      const launched = yield* call("electron_launch", launchArgs(userData))
      const outcomes = yield* Effect.forEach(
        Array.from({ length: calls }, (_, i) => CONCURRENT_MIX[i % CONCURRENT_MIX.length]!),
        ([name, args]) => Effect.map(call(name, args), (outcome) => ({ ...outcome, tool: name })),
        { concurrency: "unbounded" }
      )
      return { launched, outcomes }
    })
  )

export const httpSessions = (options: { readonly root: string; readonly sessions: number; readonly callsPerSession: number }) =>
  Effect.scoped(
    Effect.gen(function* () {
      const build = yield* ensureBuilt(options.root)
      if (!existsSync(build.cli)) return yield* new BenchSetupFailed({ step: "dist/cli.js", cause: build.note ?? "missing" })
      const artifactsBefore = tempEntries()
      const { child, url } = yield* startHttpServer(build.cli)
      yield* progress(`HTTP server at ${url.href}; ${options.sessions} sessions x ${options.callsPerSession} concurrent calls`)
      const started = Date.now()
      const sessions = yield* Effect.forEach(
        Array.from({ length: options.sessions }, (_, i) => i),
        (i) => Effect.either(httpSession(url, i, options.callsPerSession)),
        { concurrency: "unbounded" }
      )
      const wallMs = Date.now() - started
      const codes: Record<string, number> = {}
      const byTool: Record<string, Record<string, number>> = {}
      const failures: Array<{ readonly session: number; readonly tool: string; readonly code: string; readonly ms: number; readonly text: string }> = []
      const latencies: Array<number> = []
      const launches: Array<{ readonly session: number; readonly code: string; readonly ms: number }> = []
      const sessionErrors: Array<string> = []
      sessions.forEach((s, i) => {
        if (s._tag === "Left") {
          sessionErrors.push(s.left.message)
          return
        }
        launches.push({ session: i, code: s.right.launched.code, ms: Math.round(s.right.launched.ms) })
        for (const o of s.right.outcomes) {
          bump(codes, o.code)
          bump((byTool[o.tool] ??= {}), o.code)
          latencies.push(o.ms)
          if (o.code !== "OK") failures.push({ session: i, tool: o.tool, code: o.code, ms: Math.round(o.ms), text: o.text.split("\n")[0]!.slice(0, 200) })
        }
      })
      // Shut the server down as an operator would, with every session (and its app) still open.
      const tree = [child.pid!, ...descendants(child.pid!)]
      const stoppedAt = performance.now()
      child.kill("SIGTERM")
      const left = yield* Effect.promise(() => waitAllGone(tree, 20_000))
      const stopMs = Math.round(performance.now() - stoppedAt)
      yield* Effect.sleep(Duration.seconds(2))
      // Folders the server's apps created (from start to shutdown; others' runs may add some in that window).
      const artifactsLeft = [...tempEntries()].filter((name) => PLAYWRIGHT_ARTIFACTS.test(name) && !artifactsBefore.has(name))
      const total = latencies.length
      return {
        build,
        sessions: options.sessions,
        callsPerSession: options.callsPerSession,
        wallMs,
        launches,
        sessionErrors,
        calls: total,
        successes: codes.OK ?? 0,
        failuresByCode: Object.fromEntries(Object.entries(codes).filter(([k]) => k !== "OK")),
        codesByTool: byTool,
        failures: failures.slice(0, 20),
        latencyMs: latency(latencies),
        sigterm: {
          processesBefore: tree.length,
          stillAliveAfter20s: left.length,
          playwrightArtifactsLeft: artifactsLeft,
          left: left.map((pid) => ({ pid, command: commandOf(pid) })),
          goneWithinMs: left.length === 0 ? stopMs : null,
          exit: { code: child.exitCode, signal: child.signalCode }
        }
      }
    })
  )

// ---------------------------------------------------------------------------------------------
// 4. Dispatcher fuzz

const rejectedChecked = (cause: Cause.Cause<unknown>): Checked => ({
  code: "REJECTED",
  problems: [`the call's effect failed: ${Cause.pretty(cause).split("\n")[0]?.slice(0, 200)}`],
  textChars: 0
})

export const dispatcherFuzz = (options: { readonly calls: number; readonly seed: number; readonly outputDir: string }) =>
  Effect.scoped(
    Effect.gen(function* () {
      const context = yield* Layer.build(coreLayer({ allowEval: ["renderer", "main"], outputDir: options.outputDir }))
      const dispatcher = Context.get(context, Dispatcher)
      const tools = dispatcher.tools
      // About 45% valid-shaped (the process tools get none), 50% malformed over seven kinds, 5% bad names.
      const validPerTool = Math.max(1, Math.ceil((options.calls * 0.45) / Math.max(1, tools.length - 2)))
      // How many (tool, kind) groups the malformed calls fall into (some kinds do not apply to some tools).
      const groups = planCalls(tools, { seed: options.seed, validPerTool: 0, malformedPerTool: 1, badNames: 0 }).length
      const malformedPerTool = Math.max(1, Math.ceil((options.calls * 0.5) / Math.max(1, groups)))
      const planned = planCalls(tools, { seed: options.seed, validPerTool, malformedPerTool, badNames: Math.ceil(options.calls * 0.05) })
      // Cut to size by share, keeping the plan's interleaved order (tools and kinds alternate).
      const quota: Record<string, number> = { valid: Math.round(options.calls * 0.45), malformed: Math.round(options.calls * 0.5) }
      quota.name = options.calls - quota.valid! - quota.malformed!
      const categoryOf = (kind: string) => (kind === "valid" ? "valid" : kind === "bad-name" ? "name" : "malformed")
      const calls = planned.filter((call) => {
        const category = categoryOf(call.kind)
        if (quota[category]! <= 0) return false
        quota[category]!--
        return true
      })
      const tally = new FuzzTally()
      const started = Date.now()
      for (const [i, call] of calls.entries()) {
        const [duration, exit] = yield* Effect.timed(Effect.exit(dispatcher.call(call.tool, call.args).pipe(Logger.withMinimumLogLevel(LogLevel.None))))
        tally.record(call, Exit.isSuccess(exit) ? checkResult(exit.value) : rejectedChecked(exit.cause), Duration.toMillis(duration))
        if ((i + 1) % 1_000 === 0) yield* progress(`fuzz ${i + 1}/${calls.length}`)
      }
      const summary: TallySummary = tally.summary()
      return {
        seed: options.seed,
        durationS: Math.round((Date.now() - started) / 100) / 10,
        table: tally.table(`dispatcher fuzz (seed ${options.seed})`),
        ...summary,
        distinctViolations: summary.distinctViolations.slice(0, 30)
      }
    })
  )
