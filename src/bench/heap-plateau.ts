/**
 * Whether the server's heap grows per call: many tool calls through the public createServer() facade,
 * without an app (so Chromium's own memory is out of the picture), with the heap measured after a full
 * GC at checkpoints. A per-call leak grows the heap in proportion to the calls; warm-up (compiled code,
 * caches) grows it once and then stays.
 *
 *   npm run bench:heap -- [calls per tool, default 100000] [checkpoints, default 5]
 *
 * Writes bench/out/heap-plateau.json and prints one row per checkpoint.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { createServer } from "../index.js"
import { repoRoot } from "./repo-root.js"

// This program runs on the project's Electron stand-in unless STAGEWRIGHT_ELECTRON names a real Electron.
process.env.STAGEWRIGHT_ELECTRON ||= "standin"

const calls = Number(process.argv[2] ?? 100_000)
const checkpoints = Number(process.argv[3] ?? 5)
const gc = (globalThis as { gc?: () => void }).gc

/** A succeeding call, and a failing one (no app: APP_NOT_RUNNING through the error path and the breadcrumb). */
const CASES: ReadonlyArray<readonly [tool: string, args: Record<string, unknown>]> = [
  ["electron_status", {}],
  ["electron_click", { target: "text=Add task" }]
]

const heapAfterGc = () => {
  gc!()
  gc!()
  return process.memoryUsage().heapUsed
}

const main = async () => {
  if (gc === undefined) throw new Error("run with node --expose-gc (npm run bench:heap does)")
  const server = await createServer()
  const rows: Array<{ tool: string; calls: number; heapMB: number; bytesPerCallSinceWarmup: number }> = []
  try {
    for (const [tool, args] of CASES) {
      for (let i = 0; i < 1_000; i++) await server.callTool(tool, args)
      const base = heapAfterGc()
      rows.push({ tool, calls: 0, heapMB: base / 1e6, bytesPerCallSinceWarmup: 0 })
      const step = Math.ceil(calls / checkpoints)
      for (let done = 0; done < calls; ) {
        for (let i = 0; i < step && done < calls; i++, done++) await server.callTool(tool, args)
        const heap = heapAfterGc()
        rows.push({ tool, calls: done, heapMB: heap / 1e6, bytesPerCallSinceWarmup: (heap - base) / done })
        process.stderr.write(`${tool}: ${done} calls, heap ${(heap / 1e6).toFixed(1)} MB\n`)
      }
    }
  } finally {
    await server.close()
  }
  const report = { date: new Date().toISOString(), node: process.version, callsPerTool: calls, rows }
  mkdirSync(join(repoRoot(), "bench", "out"), { recursive: true })
  writeFileSync(join(repoRoot(), "bench", "out", "heap-plateau.json"), JSON.stringify(report, null, 2) + "\n")
  process.stdout.write("tool              calls   heap after GC (MB)  bytes/call since warm-up\n")
  for (const row of rows) {
    process.stdout.write(
      `${row.tool.padEnd(16)} ${String(row.calls).padStart(7)}   ${row.heapMB.toFixed(1).padStart(18)}  ${row.bytesPerCallSinceWarmup.toFixed(0).padStart(24)}\n`
    )
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
