/**
 * `stagewright replay <trace.jsonl> [--app DIR]`: re-runs a session the trace plugin recorded against a
 * fresh in-process server (createServer: every core tool, the trace's first-party plugins but trace
 * itself), one line per step, and exits 1 when a step that was ok in the trace now fails (an assertion
 * electron_expect_* that no longer holds, or any other recorded ok call that now errors), naming it.
 *
 * - `--app DIR` replaces the `app` of each electron_launch (a copy of the app, a new build).
 * - Steps whose arguments were redacted (a secret: a value typed into a password field, a credential, a
 *   Bearer token) are skipped and said so: what they were given was never written down. Redacted `env`
 *   values of a launch are the exception: `--env NAME=VALUE` gives them again, and one not given is left
 *   unset (the step says which).
 * - Skipped too: calls the budget refused when recorded, and the trace plugin's own tools.
 * - A step that failed when recorded is run again but not judged (it may have changed the app).
 * - Eval tools run only with `--allow-eval` given to replay itself, never because the trace says so; the
 *   launches take serve's launch policy (`--app-root`, code switches and variables need `--allow-eval
 *   main`), and a recorded `executablePath` is never run: `--executable-path` chooses the program.
 */
import { Console, Data, Effect, HashMap, Option, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { parseAllowEval, type EvalTarget } from "../eval-policy/EvalPolicy.js"
import { REDACTED_MARK } from "../plugins/observer.js"
import { firstPartyPlugins } from "../plugins/registry.js"
import { TraceCall, TraceHeader, TRACE_SCHEMA_VERSION } from "../plugins/trace/format.js"
import { BUDGET_TOOL, REPORT_TOOL } from "../plugins/trace/state.js"
import { createServer, type StagewrightServer } from "../server/facade.js"
import { holdsRedaction } from "../server/redact-args.js"

export interface ReplayFlags {
  readonly trace: string
  readonly app: Option.Option<string>
  /** --app-root: the launch policy of serve (every launch path of the trace confined to it). */
  readonly appRoot?: Option.Option<string>
  /** --executable-path: the program each launch runs; a trace's own executablePath is never run. */
  readonly executablePath?: Option.Option<string>
  readonly env: Option.Option<HashMap.HashMap<string, string>>
  readonly allowEval: ReadonlyArray<string>
  readonly plugin: ReadonlyArray<string>
  readonly outputDir: string
  readonly operationTimeoutMs: number
}

export class ReplayFailed extends Data.TaggedError("ReplayFailed")<{ readonly reason: string }> {
  override get message() {
    return this.reason
  }
}

export interface Recording {
  readonly header: TraceHeader
  readonly calls: ReadonlyArray<TraceCall>
}

/** Reads a trace file: its header (of this schema version) and its calls; a bad line is named. */
export const readTrace = (path: string): Effect.Effect<Recording, ReplayFailed> =>
  Effect.gen(function* () {
    const text = yield* Effect.try({
      try: () => readFileSync(path, "utf8"),
      catch: (e) => new ReplayFailed({ reason: `cannot read ${path}: ${(e as Error).message}` })
    })
    const lines = text
      .split("\n")
      .map((line, i) => [i + 1, line] as const)
      .filter(([, line]) => line.trim() !== "")
    const parse = <A, I>(schema: Schema.Schema<A, I>, [number, line]: readonly [number, string], what: string) =>
      Effect.try({ try: () => JSON.parse(line) as unknown, catch: () => new ReplayFailed({ reason: `${path}:${number}: not JSON` }) }).pipe(
        Effect.flatMap((value) => Schema.decodeUnknown(schema)(value)),
        Effect.mapError((e) =>
          e instanceof ReplayFailed ? e : new ReplayFailed({ reason: `${path}:${number}: not ${what}: ${e.message.split("\n").slice(0, 3).join(" ")}` })
        )
      )
    const first = lines[0]
    if (first === undefined) return yield* new ReplayFailed({ reason: `${path} is empty` })
    const header = yield* parse(TraceHeader, first, `a Stagewright trace header of schema ${TRACE_SCHEMA_VERSION} (load --plugin trace to record one)`)
    const calls = yield* Effect.forEach(lines.slice(1), (line) => parse(TraceCall, line, "a recorded call"))
    return { header, calls }
  })

const PROFILE_SWITCH_TOOL = "electron_profile"

export type StepPlan =
  | { readonly run: true; readonly args: Record<string, unknown>; readonly notes: ReadonlyArray<string> }
  | { readonly run: false; readonly reason: string }

/** What replay does with one recorded call: its arguments as replayed (with --app and --env), or why it is skipped. */
export const planStep = (
  call: TraceCall,
  options: { readonly app?: string | undefined; readonly executablePath?: string | undefined; readonly env: ReadonlyMap<string, string> }
): StepPlan => {
  if (call.tool === REPORT_TOOL || call.tool === BUDGET_TOOL) return { run: false, reason: "the trace plugin's own tool" }
  if (call.code === "CALL_REFUSED") return { run: false, reason: "refused when recorded (CALL_REFUSED)" }
  if (call.args === null || typeof call.args !== "object" || Array.isArray(call.args)) return { run: false, reason: "recorded without an argument object" }
  const args: Record<string, unknown> = { ...(call.args as Record<string, unknown>) }
  const notes: Array<string> = []
  if (call.tool === "electron_launch" || call.tool === "electron_production_launch") {
    if (options.app !== undefined && typeof args["app"] === "string") args["app"] = options.app
    // The program a launch runs is the operator's choice, never the trace's: a recorded one is dropped.
    if (options.executablePath !== undefined) args["executablePath"] = options.executablePath
    else if (args["executablePath"] !== undefined) {
      delete args["executablePath"]
      notes.push("the recorded executablePath was not run (give --executable-path to choose the program)")
    }
    const env = args["env"]
    if (env !== null && typeof env === "object" && !Array.isArray(env)) {
      const given: Record<string, string> = {}
      for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
        if (value === REDACTED_MARK) {
          const again = options.env.get(name)
          if (again !== undefined) given[name] = again
          else notes.push(`env ${name} left unset (redacted; give it with --env ${name}=VALUE)`)
        } else if (typeof value === "string") given[name] = value
      }
      args["env"] = given
    }
  }
  if (holdsRedaction(args)) return { run: false, reason: "its arguments were redacted (a secret was never recorded)" }
  return { run: true, args, notes }
}

interface Outcome {
  readonly ok: boolean
  readonly code?: string | undefined
  readonly line: string
}

const outcomeOf = (result: Awaited<ReturnType<StagewrightServer["callTool"]>>): Outcome => {
  const first = result.content[0]
  const text = first?.type === "text" ? first.text : ""
  const code = (result.structuredContent?.["error"] as { code?: string } | undefined)?.code
  const line = text.split("\n", 1)[0] ?? ""
  return { ok: result.isError !== true, code, line: line.length > 200 ? `${line.slice(0, 199)}…` : line }
}

export const replay = (flags: ReplayFlags) =>
  Effect.gen(function* () {
    const recording = yield* readTrace(flags.trace)
    const targets = parseAllowEval(flags.allowEval)
    if ("invalid" in targets) return yield* new ReplayFailed({ reason: `--allow-eval ${targets.invalid}: expected renderer, main or all` })
    const plugins = [...new Set([...recording.header.plugins.filter((p) => p !== "trace" && p in firstPartyPlugins), ...flags.plugin])]
    const env = new Map(Option.match(flags.env, { onNone: () => [], onSome: (map) => [...HashMap.toEntries(map)] }))
    const app = Option.getOrUndefined(Option.map(flags.app, (dir) => resolve(dir)))
    const executablePath = Option.getOrUndefined(Option.map(flags.executablePath ?? Option.none(), (file) => resolve(file)))
    const appRoot = Option.getOrUndefined(Option.map(flags.appRoot ?? Option.none(), (dir) => resolve(dir)))
    if (appRoot !== undefined && !existsSync(appRoot)) return yield* new ReplayFailed({ reason: `--app-root ${appRoot}: no such folder` })
    const server = yield* Effect.acquireRelease(
      Effect.tryPromise({
        // A trace that switched the tool profile replays the switch (the recorded server allowed it).
        try: () =>
          createServer({
            plugins,
            allowEval: targets as ReadonlyArray<EvalTarget>,
            allowProfileSwitch: recording.calls.some((call) => call.tool === PROFILE_SWITCH_TOOL),
            ...(appRoot !== undefined ? { appRoot } : {}),
            outputDir: resolve(flags.outputDir),
            operationTimeoutMs: flags.operationTimeoutMs
          }),
        catch: (e) => new ReplayFailed({ reason: `cannot start the server: ${(e as Error).message}` })
      }),
      (s) => Effect.promise(() => s.close())
    )
    yield* Console.log(
      `Replaying ${recording.calls.length} step${recording.calls.length === 1 ? "" : "s"} of ${flags.trace} (recorded ${recording.header.startedAt}, Stagewright ${recording.header.stagewright})${plugins.length > 0 ? ` with --plugin ${plugins.join(", ")}` : ""}`
    )
    const failures: Array<string> = []
    let ran = 0
    let skipped = 0
    for (const call of recording.calls) {
      const step = `${String(call.index).padStart(3)} ${call.tool}`
      const plan = planStep(call, { app, executablePath, env })
      if (!plan.run) {
        skipped++
        yield* Console.log(`skip ${step}: ${plan.reason}`)
        continue
      }
      ran++
      const result = outcomeOf(yield* Effect.promise(() => server.callTool(call.tool, plan.args)))
      const notes = plan.notes.length > 0 ? ` [${plan.notes.join("; ")}]` : ""
      if (call.outcome === "ok" && !result.ok) {
        failures.push(`step ${call.index} ${call.tool} (${result.code ?? "error"})`)
        yield* Console.log(`FAIL ${step}: was ok, now ${result.line}${notes}`)
      } else if (call.outcome === "error") {
        yield* Console.log(
          `ok   ${step}: failed when recorded (${call.code ?? "error"}), not judged; now ${result.ok ? "ok" : (result.code ?? "error")}${notes}`
        )
      } else yield* Console.log(`ok   ${step}${notes}`)
    }
    const summary = `${ran} run, ${failures.length} failed, ${skipped} skipped`
    if (failures.length > 0) {
      yield* Console.log(`Replay failed: ${summary}. First failure: ${failures[0]}.`)
      process.exitCode = 1
    } else yield* Console.log(`Replay passed: ${summary}.`)
  }).pipe(Effect.scoped)
