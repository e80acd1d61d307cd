/**
 * electron_perf_cpu_profile: a sampling CPU profile of a window's renderer (DevTools protocol Profiler)
 * or of the main process (Node's inspector.Session inside it), written as a .cpuprofile file, with the
 * top functions by self time.
 */
import { Effect, Schema } from "effect"
import { writeFileSync } from "node:fs"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { Target } from "../../tools/contract/shapes.js"
import { cdpSession, LOAD_BUILTIN, ProcessTarget, resolveTarget, send, targetName } from "./shared.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export interface CpuProfile {
  readonly nodes: ReadonlyArray<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>
  readonly startTime: number
  readonly endTime: number
  readonly samples?: ReadonlyArray<number>
  readonly timeDeltas?: ReadonlyArray<number>
}

/** Self time per function (name + location), from the samples and their time deltas. */
export const topFunctions = (profile: CpuProfile, limit: number) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame
    if (!frame) return
    const where = frame.url ? ` ${frame.url.split("/").pop()}:${frame.lineNumber + 1}` : ""
    const key = `${frame.functionName || "(anonymous)"}${where}`
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0))
  })
  const total = Math.max(1, profile.endTime - profile.startTime)
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, us]) => ({ function: fn, selfMs: Math.round(us / 100) / 10, percent: Math.round((us / total) * 1000) / 10 }))
}

const startMain = `async (_electron, a) => { ${LOAD_BUILTIN}
  const g = (globalThis.__stagewright_perf = globalThis.__stagewright_perf || {})
  if (g.cpu) { try { g.cpu.disconnect() } catch {} }
  const { Session } = load("node:inspector")
  const s = new Session(); s.connect(); g.cpu = s
  const post = (m, p) => new Promise((res, rej) => s.post(m, p || {}, (e, r) => (e ? rej(e) : res(r))))
  await post("Profiler.enable"); await post("Profiler.setSamplingInterval", { interval: a.interval }); await post("Profiler.start")
}`
const stopMain = `async () => {
  const g = globalThis.__stagewright_perf || {}
  const s = g.cpu; if (!s) throw new Error("no CPU profile is running in the main process")
  g.cpu = undefined
  try { return await new Promise((res, rej) => s.post("Profiler.stop", {}, (e, r) => (e ? rej(e) : res(JSON.stringify(r.profile))))) } finally { s.disconnect() }
}`
const abandonMain = `() => { const g = globalThis.__stagewright_perf || {}; if (g.cpu) { try { g.cpu.disconnect() } catch {} g.cpu = undefined } }`

export const cpuProfileTool = defineTool({
  name: "electron_perf_cpu_profile",
  description:
    "Records a CPU profile of a window's renderer or the main process for durationMs (optionally clicking a target meanwhile), writes a .cpuprofile file (Chrome DevTools format) and lists the top functions by self time.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND", "NEEDS_MAIN_PROCESS", "ELEMENT_NOT_FOUND", "REF_STALE"],
  input: Schema.Struct({
    target: Schema.optional(ProcessTarget),
    durationMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(50, 60_000))).annotations({ description: "default 2000" }),
    click: Schema.optional(Target).annotations({ description: "element to click once profiling started (windows only)" }),
    top: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 50))).annotations({ description: "functions listed, default 10" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      const measured = yield* resolveTarget(input.target)
      const durationMs = input.durationMs ?? 2_000
      if (durationMs > config.operationTimeoutMs - 5_000) {
        return yield* new InvalidArgument({
          message: `durationMs: ${durationMs} ms does not fit the ${config.operationTimeoutMs} ms operation timeout`,
          hint: "Use a shorter duration or restart with a larger --operation-timeout-ms."
        })
      }
      if (input.click !== undefined && measured.kind === "main") {
        return yield* new InvalidArgument({ message: "click: only with a window target", hint: "Profile a window (target w1) to click in it, or omit click." })
      }
      const interval = 200 // µs between samples
      const json = yield* Effect.scoped(
        measured.kind === "main"
          ? Effect.gen(function* () {
              yield* Effect.acquireRelease(call.evaluateMain("start the main-process profiler", startMain, { interval }), () =>
                call.evaluateMain("release the main-process profiler", abandonMain, undefined).pipe(Effect.ignore)
              )
              yield* Effect.sleep(durationMs)
              return yield* call.evaluateMain<string, undefined>("stop the main-process profiler", stopMain, undefined)
            })
          : Effect.gen(function* () {
              const cdp = yield* cdpSession(measured.entry)
              yield* send(cdp, "Profiler.enable")
              yield* send(cdp, "Profiler.setSamplingInterval", { interval })
              yield* send(cdp, "Profiler.start")
              const started = Date.now()
              if (input.click !== undefined) {
                const locator = yield* call.locate(measured.entry, input.click)
                yield* call.run(`click ${input.click}`, () => locator.click({ timeout: Math.max(1_000, durationMs) }))
              }
              yield* Effect.sleep(Math.max(0, durationMs - (Date.now() - started)))
              const stopped = yield* send<{ profile: CpuProfile }>(cdp, "Profiler.stop")
              return JSON.stringify(stopped.profile)
            })
      )
      const profile = JSON.parse(json) as CpuProfile
      const name = targetName(measured)
      const file = outputPath(config.outputDir, timestampedName(`cpu-${name}`, ".cpuprofile"), ".cpuprofile")
      if (typeof file !== "string") return yield* file
      writeFileSync(file, json)
      const top = topFunctions(profile, input.top ?? 10)
      const lines = top.map((t) => `${String(t.selfMs).padStart(8)} ms ${String(t.percent).padStart(5)}%  ${t.function}`)
      return answer(
        `CPU profile of ${name}, ${Math.round((profile.endTime - profile.startTime) / 1000)} ms, ${profile.samples?.length ?? 0} samples: ${file}\nTop functions by self time:\n${lines.join("\n")}`,
        { target: name, file, samples: profile.samples?.length ?? 0, durationMs: Math.round((profile.endTime - profile.startTime) / 1000), top }
      )
    })
})
