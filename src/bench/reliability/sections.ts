/**
 * The four measurements of the reliability benchmark, each an Effect over Stagewright's public API
 * (./main.ts runs them and writes the report). Figures are recorded, never asserted.
 *
 * - launchCycles: launch the tasks app through createServer() + electron_launch and end it, alternating
 *   electron_close and a SIGKILL of the app's process group (then a call that should answer APP_CRASHED
 *   and a fresh launch); afterwards leaked processes, file descriptors and temp folders.
 * - sequentialCalls: a realistic mix of calls on one app, with this process's and the app's memory.
 * - httpSessions: the built server over Streamable HTTP, several sessions each with its own app and
 *   concurrent calls; latency, codes, and whether every process is gone after SIGTERM.
 * - dispatcherFuzz: the shared generator (./reliability-fuzz.ts) against the Dispatcher, counts by code.
 */

import { Console, Data, Duration, Effect } from "effect"

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

import { runInNewContext } from "node:vm"
import { setFlagsFromString } from "node:v8"
import { createServer, type StagewrightServer } from "../../index.js"
import { sampleAppPath } from "../../samples.js"
import { checkResult } from "../fuzz/index.js"
import { commandOf, descendants, isAlive, mb, openFds, percentile, PLAYWRIGHT_ARTIFACTS, STANDIN_PROFILE, tempEntries, treeRss, waitAllGone } from "./procs.js"

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

export const rejectedOutcome = (error: unknown, ms: number): Outcome => ({
  code: "REJECTED",
  ms,
  structured: undefined,
  text: error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)
})

export const toOutcome = (result: unknown, ms: number): Outcome => {
  const r = result as { structuredContent?: Record<string, any>; content?: Array<{ type: string; text?: string }> }
  return { code: checkResult(result).code, ms, structured: r?.structuredContent, text: r?.content?.find((c) => c.type === "text")?.text ?? "" }
}

/** One tool call through any client; a rejection becomes the outcome REJECTED (the facade promises none). */
export const timedCall = (f: () => Promise<unknown>): Effect.Effect<Outcome> =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.tryPromise(f).pipe(
      Effect.match({
        onFailure: (error) => rejectedOutcome(error.error, performance.now() - started),
        onSuccess: (result) => toOutcome(result, performance.now() - started)
      })
    )
  })

export const callServer = (server: StagewrightServer, name: string, args: Record<string, unknown> = {}) => timedCall(() => server.callTool(name, args))

export const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1
}

export const latency = (values: ReadonlyArray<number>) => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  max: percentile(values, 100)
})

/** A fresh folder for the sample app's data (it honours SAMPLE_APP_USER_DATA), removed with the scope. */
export const userDataDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "stagewright-bench-userdata-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

export const launchArgs = (userData: string) => ({ app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: userData } })

/** A server from createServer(), closed with the scope. */
export const scopedServer = (outputDir: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: () => createServer({ toolProfile: "full", outputDir }), catch: (cause) => new BenchSetupFailed({ step: "createServer", cause }) }),
    (server) => Effect.promise(() => server.close().catch(() => undefined))
  )

/** Playwright artifacts folders that appear while `effect` runs (others' runs may add some in the same window). */
export const artifactsDuring = <A, E, R>(effect: Effect.Effect<A, E, R>, into: Set<string>) =>
  Effect.suspend(() => {
    const before = tempEntries()
    return Effect.ensuring(
      effect,
      Effect.sync(() => {
        for (const name of tempEntries()) if (PLAYWRIGHT_ARTIFACTS.test(name) && !before.has(name)) into.add(name)
      })
    )
  })

export const stillPresent = (names: ReadonlySet<string>) => [...names].filter((name) => tempEntries().has(name))

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
      ).pipe(
        Effect.catchAll((error) => Effect.succeed<CycleRecord>({ cycle, mode, launchCode: "SETUP_FAILED", launchMs: 0, lingering: 0, note: error.message }))
      )
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
      launchFailures:
        records.filter((r) => r.launchCode !== "OK").length + records.filter((r) => r.relaunchCode !== undefined && r.relaunchCode !== "OK").length,
      codes,
      launchMs: latency([
        ...records.filter((r) => r.launchCode === "OK").map((r) => r.launchMs),
        ...records.flatMap((r) => (r.relaunchCode === "OK" ? [r.relaunchMs!] : []))
      ]),
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

export const gcNow: (() => void) | undefined = (() => {
  try {
    setFlagsFromString("--expose-gc")
    return runInNewContext("gc") as () => void
  } catch {
    return undefined
  }
})()

export interface MemorySample {
  readonly afterCalls: number
  readonly rssMB: number
  readonly heapUsedMB: number
  readonly heapAfterGcMB: number | null
  readonly appRssMB: number
  readonly appProcesses: number
}

export const memorySample = (afterCalls: number, appPid: number): MemorySample => {
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
export const MIX: ReadonlyArray<{ readonly tool: string; readonly args: (state: { cursor: number | undefined }) => Record<string, unknown> }> = [
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
        failures: Object.values(codes).reduce(
          (n, c) =>
            n +
            Object.entries(c)
              .filter(([k]) => k !== "OK")
              .reduce((m, [, v]) => m + v, 0),
          0
        ),
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
