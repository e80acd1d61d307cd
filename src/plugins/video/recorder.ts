/**
 * The video plugin's call observer: marks each tool call on the timeline every recording's chapters are
 * made from, starts recording each new app session when `autoStart` is set (before the answer of the call
 * that launched or attached it goes, which says so), cuts a clip of the last seconds when an assertion fails (its path in the
 * failed answer), and, when the server stops, finishes every recording (each file complete) before the
 * apps are closed (the observers' scope closes before the driver's).
 */
import { Effect, Option } from "effect"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { AppLifecycle } from "../../layers/driver/ElectronDriver.js"
import type { CallObserver, CallSettled } from "../observer.js"
import { pluginSettings } from "../Plugin.js"
import { recordSession, stopRecordings } from "./session.js"
import { INSTALL_HINT, noteCall, videoState, VIDEO_TOOL, VideoSettings, type VideoState } from "./state.js"

/** How long the server's end may take to finish the files (ffmpeg flushes and the chapters are added). */
const FINISH_BOUND_MS = 45_000

const endCall = (state: VideoState, index: number, endAt: number, code: string | undefined) => {
  let call
  for (let i = state.timeline.length - 1; i >= 0 && call === undefined; i--) if (state.timeline[i]!.index === index) call = state.timeline[i]
  if (call === undefined || call.endAt !== undefined) return
  call.endAt = endAt
  if (code !== undefined) call.code = code
}

export const recorder: CallObserver = {
  name: "video-recorder",
  make: Effect.gen(function* () {
    const config = yield* ServerConfig
    const settings = yield* pluginSettings("video", VideoSettings)
    const state = videoState(config)
    // The driver is in the context the observers are built in (the Dispatcher's); read it without requiring it.
    const lifecycle = yield* Effect.serviceOption(AppLifecycle)
    yield* Effect.addFinalizer(() => Effect.promise(() => stopRecordings(state, "the server stopped")).pipe(Effect.timeout(FINISH_BOUND_MS), Effect.ignore))

    /** Starts recording the sessions not seen yet; what it started, for the answer's note. */
    const startNewSessions: Effect.Effect<string | undefined> = Option.match(lifecycle, {
      onNone: () => Effect.succeed(undefined),
      onSome: (l) =>
        Effect.gen(function* () {
          const fresh = (yield* l.sessions).filter((s) => !state.sessions.has(s.session) && s.session.exit === undefined)
          const lines: Array<string> = []
          for (const s of fresh) {
            state.sessions.add(s.session)
            const started = yield* Effect.promise(() => recordSession(s.session, s.name, state, settings, config.outputDir))
            if (started.problem !== undefined) {
              yield* Effect.logWarning(`video plugin: not recording ${s.name}: ${started.problem}`)
              lines.push(`not recording video of ${s.name}: ${started.problem}`)
            } else {
              const how = started.fallback !== undefined ? ` as animated PNG (${started.fallback}; for WebM: ${INSTALL_HINT})` : ""
              lines.push(`recording video of ${s.name} (${started.surfaces.join(", ")}) into ${config.outputDir}${how}; ${VIDEO_TOOL} action=stop finishes it`)
            }
          }
          return lines.length === 0 ? undefined : lines.join("; ")
        })
    })

    const clipOnFailure = (call: CallSettled) =>
      Effect.gen(function* () {
        if (call.code !== "ASSERTION_FAILED" || settings.clipSeconds === 0 || state.running.size === 0) return undefined
        const current = Option.isSome(lifecycle) ? yield* lifecycle.value.current : undefined
        const chosen = [...state.running].filter((r) => current === undefined || r.owner === current)
        const clips = yield* Effect.promise(() => Promise.all(chosen.map((r) => r.clip(settings.clipSeconds, `clip-${call.index}`).catch(() => undefined))))
        const made = clips.filter((c) => c !== undefined)
        if (made.length === 0) return undefined
        return `video of the last ${settings.clipSeconds} s: ${made.map((c) => `${c.file} (${c.surface}, ${(c.durationMs / 1000).toFixed(1)} s)`).join("; ")}`
      })

    return {
      before: (call) => Effect.sync(() => void noteCall(state, { index: call.index, tool: call.tool, startAt: call.startedAt.getTime() })),
      // A session launched or attached by this call is recorded before its answer goes (the answer says so),
      // and the call's chapter ends once the recording has begun: the video starts with the call that made it.
      settle: (call) =>
        Effect.gen(function* () {
          const started = settings.autoStart ? yield* startNewSessions : undefined
          endCall(state, call.index, Date.now(), call.code)
          const clip = call.tool === VIDEO_TOOL ? undefined : yield* clipOnFailure(call)
          return [started, clip].filter((n) => n !== undefined).join("; ") || undefined
        }),
      after: (record) => Effect.sync(() => endCall(state, record.index, record.startedAt.getTime() + record.durationMs, record.code))
    }
  })
}
