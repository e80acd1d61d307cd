/**
 * Reliability sections that need a build or many calls: concurrent HTTP sessions against the built server,
 * and the dispatcher fuzz against a running app (./main.ts runs them and writes the report).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Cause, Context, Duration, Effect, Exit, Layer, Logger, LogLevel } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"

import { join } from "node:path"
import { createInterface } from "node:readline"

import { coreLayer, Dispatcher } from "../../index.js"
import { checkResult, FuzzTally, planCalls, type Checked, type TallySummary } from "../fuzz/index.js"
import { commandOf, descendants, PLAYWRIGHT_ARTIFACTS, tempEntries, waitAllGone } from "./procs.js"
import { progress, BenchSetupFailed, timedCall, bump, latency, userDataDir, launchArgs } from "./sections.js"
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
    const note = `npm run build failed (exit ${result.code}); ${existsSync(cli) ? "used the existing dist/" : "no dist/ to use"}: ${result.output
      .split("\n")
      .filter((l) => /error/i.test(l))
      .slice(0, 5)
      .join(" | ")}`
    yield* progress(note)
    return { cli, stale: true, built: false, note }
  })

const startHttpServer = (cli: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly child: ChildProcess; readonly url: URL }, BenchSetupFailed>((resume) => {
      const child = spawn(process.execPath, [cli, "serve", "--tool-profile", "full", "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] })
      const timer = setTimeout(
        () => resume(Effect.fail(new BenchSetupFailed({ step: "serve --port 0", cause: "no 'stagewright listening on' line within 30 s" }))),
        30_000
      )
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
        Effect.tryPromise({
          try: () => client.connect(new StreamableHTTPClientTransport(url)),
          catch: (cause) => new BenchSetupFailed({ step: `session ${index}: connect`, cause })
        }),
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
