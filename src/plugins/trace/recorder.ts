/**
 * The trace plugin's call observer: keeps the session's token figures, applies the budget before each
 * call, and appends each finished call to the trace file (format.ts) under the output folder.
 */
import { Effect } from "effect"
import { appendFileSync, writeFileSync } from "node:fs"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { VERSION } from "../../version.js"
import type { CallObserver, CallRecord } from "../observer.js"
import { pluginSettings } from "../Plugin.js"
import { TOKEN_ESTIMATE_NOTE, TRACE_SCHEMA_VERSION, type TraceCall, type TraceHeader } from "./format.js"
import { account, budgetVerdict, stateOf, TraceSettings, type TraceState } from "./state.js"

/** Opens the trace file (its header written at once); a problem is kept for the report and logged. */
const openFile = (state: TraceState, settings: TraceSettings, config: typeof ServerConfig.Service) =>
  Effect.gen(function* () {
    if (!settings.record) return
    const path = outputPath(config.outputDir, settings.file ?? timestampedName("session", ".jsonl"), ".jsonl")
    if (typeof path !== "string") {
      state.file.problem = `${path.message}. ${path.hint}`
      return yield* Effect.logWarning(`trace plugin: not recording: ${state.file.problem}`)
    }
    const header: TraceHeader = {
      type: "header",
      schema: TRACE_SCHEMA_VERSION,
      stagewright: VERSION,
      startedAt: new Date().toISOString(),
      ...(config.toolProfile !== undefined ? { profile: config.toolProfile } : {}),
      plugins: [...config.plugins],
      allowEval: [...config.allowEval],
      tokens: TOKEN_ESTIMATE_NOTE
    }
    yield* Effect.try(() => writeFileSync(path, `${JSON.stringify(header)}\n`, { mode: 0o600 })).pipe(
      Effect.map(() => void (state.file.path = path)),
      Effect.catchAll((error) => {
        state.file.problem = `could not write ${path}: ${String(error.error)}`
        return Effect.logWarning(`trace plugin: not recording: ${state.file.problem}`)
      })
    )
  })

/** One call's line: appended as the call ends (the observer's records arrive in call order). */
const appendCall = (state: TraceState, record: CallRecord) =>
  Effect.suspend(() => {
    const path = state.file.path
    if (path === undefined || state.file.problem !== undefined) return Effect.void
    const line: TraceCall = {
      type: "call",
      index: record.index,
      tool: record.tool,
      args: record.args,
      redacted: record.redacted,
      startedAt: record.startedAt.toISOString(),
      durationMs: record.durationMs,
      outcome: record.outcome,
      ...(record.code !== undefined ? { code: record.code } : {}),
      chars: record.chars,
      approxTokens: record.approxTokens,
      ...(record.images > 0 ? { images: record.images } : {})
    }
    return Effect.try(() => appendFileSync(path, `${JSON.stringify(line)}\n`)).pipe(
      Effect.map(() => void state.file.written++),
      Effect.catchAll((error) => {
        state.file.problem = `could not append to ${path}: ${String(error.error)}`
        return Effect.logWarning(`trace plugin: recording stopped: ${state.file.problem}`)
      })
    )
  })

export const recorder: CallObserver = {
  name: "trace-recorder",
  make: Effect.gen(function* () {
    const config = yield* ServerConfig
    const settings = yield* pluginSettings("trace", TraceSettings)
    const state = stateOf(config, settings)
    yield* openFile(state, settings, config)
    return {
      before: (call) =>
        Effect.suspend(() => {
          const verdict = budgetVerdict(state, call.tool)
          return verdict.refuse !== undefined ? Effect.fail(verdict.refuse) : Effect.succeed(verdict.note)
        }),
      after: (record) =>
        Effect.zipRight(
          Effect.sync(() => account(state, record)),
          appendCall(state, record)
        )
    }
  })
}
