/**
 * electron_perf_heap (heap figures of the main process and every window, a heap snapshot on request) and
 * electron_perf_memory_watch (samples over time with Effect's Schedule, the slope, a table and an SVG chart).
 */
import { Effect, Ref, Schedule, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { type MainError, type Surface } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { cdpSession, kb, LOAD_BUILTIN, ProcessTarget, resolveTarget, send, targetName } from "./shared.js"
import { chart, slopePerSecond } from "./chart.js"
import { callHandle, type HandleServices } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

const readMain = Effect.gen(function* () {
  const call = yield* callHandle
  return yield* call.evaluateMain(
    "read main-process memory",
    () => {
      const m = process.memoryUsage()
      return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external }
    },
    undefined
  )
})

const writeMainSnapshot = `(_electron, path) => { ${LOAD_BUILTIN} return load("node:v8").writeHeapSnapshot(path) }`

/** A renderer heap snapshot through HeapProfiler, its chunks joined into the file. */
const rendererSnapshot = (entry: Surface, file: string) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const snapshot = yield* call.cdp(entry, "take a heap snapshot", async (cdp) => {
      const chunks: Array<string> = []
      cdp.on("HeapProfiler.addHeapSnapshotChunk", (event) => chunks.push(event.chunk))
      await cdp.send("HeapProfiler.enable")
      await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false })
      return chunks.join("")
    })
    writeFileSync(file, snapshot)
  })

export const heapTool = defineTool({
  name: "electron_perf_heap",
  description:
    "Heap figures of the main process (rss, heap used/total, external) and each window's renderer (JS heap used/total); with snapshot, also writes a .heapsnapshot of that process.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    snapshot: Schema.optional(ProcessTarget).annotations({ description: "main or a window id: write its heap snapshot" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const session = yield* call.session
      const main = yield* readMain.pipe(Effect.catchTag("NeedsMainProcess", () => Effect.succeed(undefined)))
      const windows = yield* Effect.forEach(session.windows, (entry) =>
        call
          .cdp(entry, "Runtime.getHeapUsage", (cdp) => cdp.send("Runtime.getHeapUsage"))
          .pipe(
            Effect.map((heap) => ({ window: entry.id, used: heap.usedSize, total: heap.totalSize })),
            Effect.timeout(5_000),
            Effect.orElseSucceed(() => ({ window: entry.id, used: null, total: null }))
          )
      )
      let snapshotFile: string | undefined
      if (input.snapshot !== undefined) {
        const measured = yield* resolveTarget(input.snapshot)
        const file = outputPath(config.outputDir, timestampedName(`heap-${targetName(measured)}`, ".heapsnapshot"), ".heapsnapshot")
        if (typeof file !== "string") return yield* file
        if (measured.kind === "main") yield* call.evaluateMain("write a main-process heap snapshot", writeMainSnapshot, file)
        else yield* rendererSnapshot(measured.entry, file)
        snapshotFile = file
      }
      const lines = [
        main
          ? `main: rss ${kb(main.rss)}, heap ${kb(main.heapUsed)} used / ${kb(main.heapTotal)}, external ${kb(main.external)}`
          : "main: unavailable (attached without the Node inspector)",
        ...windows.map((w) => (w.used === null ? `${w.window}: not responding` : `${w.window}: JS heap ${kb(w.used)} used / ${kb(w.total!)}`)),
        ...(snapshotFile ? [`heap snapshot of ${input.snapshot}: ${snapshotFile}`] : [])
      ]
      return answer(lines.join("\n"), { main: main ?? null, windows, ...(snapshotFile ? { snapshotFile } : {}) })
    })
})

export const memoryWatchTool = defineTool({
  name: "electron_perf_memory_watch",
  description:
    "Samples the JS heap of a window or the main process every intervalMs, samples times; answers a table, the slope (KB/s: a steady rise suggests a leak) and an SVG chart file.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({
    target: Schema.optional(ProcessTarget),
    intervalMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(50, 60_000))).annotations({ description: "default 500" }),
    samples: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(2, 600))).annotations({ description: "default 10" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const measured = yield* resolveTarget(input.target)
      const intervalMs = input.intervalMs ?? 500
      const count = input.samples ?? 10
      if (intervalMs * (count - 1) > config.operationTimeoutMs - 5_000) {
        return yield* new InvalidArgument({
          message: `samples × intervalMs (${intervalMs * (count - 1)} ms) does not fit the ${config.operationTimeoutMs} ms operation timeout`,
          hint: "Take fewer samples or a shorter interval, or restart with a larger --operation-timeout-ms."
        })
      }
      const rows = yield* Ref.make<Array<{ t: number; used: number }>>([])
      const started = Date.now()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const read: Effect.Effect<number, MainError, HandleServices> =
            measured.kind === "main"
              ? Effect.map(readMain, (m) => m.heapUsed)
              : yield* Effect.map(cdpSession(measured.entry), (cdp) => Effect.map(send<{ usedSize: number }>(cdp, "Runtime.getHeapUsage"), (h) => h.usedSize))
          const sample = Effect.flatMap(read, (used) => Ref.update(rows, (list) => [...list, { t: Date.now() - started, used }]))
          yield* Effect.repeat(sample, Schedule.spaced(intervalMs).pipe(Schedule.intersect(Schedule.recurs(count - 1))))
        })
      )
      const taken = yield* Ref.get(rows)
      const slope = slopePerSecond(taken.map((r) => ({ x: r.t, y: r.used / 1024 })))
      const name = targetName(measured)
      const file = outputPath(config.outputDir, timestampedName(`memory-${name}`, ".svg"), ".svg")
      if (typeof file !== "string") return yield* file
      writeFileSync(
        file,
        chart(
          taken.map((r) => ({ x: r.t, y: r.used / 1024 })),
          `JS heap used of ${name} (KB over ms)`
        )
      )
      const shown = taken.length <= 20 ? taken : taken.filter((_, i) => i % Math.ceil(taken.length / 20) === 0 || i === taken.length - 1)
      const first = taken[0]!.used
      const last = taken[taken.length - 1]!.used
      return answer(
        [
          `Heap of ${name}: ${taken.length} samples over ${taken[taken.length - 1]!.t} ms; ${kb(first)} → ${kb(last)}, slope ${slope.toFixed(1)} KB/s`,
          "   ms  heap used",
          ...shown.map((r) => `${String(r.t).padStart(5)}  ${kb(r.used)}`),
          `chart: ${file}`
        ].join("\n"),
        { target: name, slopeKBPerSecond: slope, samples: taken, chart: file }
      )
    })
})
