/**
 * The video plugin's tool: start recording the active app session (every window and view, new ones too),
 * stop (each file finished: complete, with the calls as chapters and a WebVTT file beside it), or say what
 * is recorded and where the files are.
 */
import { Effect, Schema } from "effect"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { AppLifecycle } from "../../layers/driver/ElectronDriver.js"
import { OperationFailed } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { pluginSettings } from "../Plugin.js"
import { isRecording, recordSession, stopRecordings } from "./session.js"
import { fileLine, INSTALL_HINT, VIDEO_TOOL, videoState, VideoSettings, type VideoFile } from "./state.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

const structuredFile = (f: VideoFile) => ({ ...f })

export const videoTool = defineTool({
  name: VIDEO_TOOL,
  description:
    "Record the app session as video (WebM via ffmpeg, else animated PNG; every window and view, each tool call a chapter): start, stop (finishes the files) or status.",
  type: "debug",
  readOnly: false,
  touchesPage: false,
  errors: ["APP_NOT_RUNNING", "APP_CRASHED", "OPERATION_FAILED"],
  input: Schema.Struct({
    action: Schema.Literal("start", "stop", "status")
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const settings = yield* pluginSettings("video", VideoSettings)
      const state = videoState(config)
      const lifecycle = yield* AppLifecycle
      const call = yield* callHandle
      if (input.action === "start") {
        const session = yield* call.session
        const name = (yield* lifecycle.sessions).find((s) => s.session === session)?.name ?? "app"
        const started = yield* Effect.promise(() => recordSession(session, name, state, settings, config.outputDir))
        if (started.problem !== undefined) {
          return yield* new OperationFailed({
            message: `Not recording: ${started.problem}`,
            hint: "Launch or attach the app again, then start."
          })
        }
        const how = started.fallback !== undefined ? ` As an animated PNG: ${started.fallback}; for WebM: ${INSTALL_HINT}` : ""
        const surfaces = [...state.running].filter((r) => r.owner === session).map((r) => r.surface())
        return answer(
          `Recording ${name}: ${surfaces.join(", ") || "no surface yet"} (new windows too) at ${settings.fps} fps, at most ${settings.maxWidth}×${settings.maxHeight} and ${settings.maxSeconds} s, into ${config.outputDir}.${how} ${VIDEO_TOOL} action=stop finishes the files.`,
          {
            recording: true,
            session: name,
            surfaces,
            fps: settings.fps,
            maxSeconds: settings.maxSeconds,
            folder: config.outputDir,
            format: started.fallback !== undefined ? "apng" : "webm",
            ...(started.fallback !== undefined ? { fallback: started.fallback } : {})
          }
        )
      }
      if (input.action === "stop") {
        const session = yield* call.current
        const { files, problems } = yield* Effect.promise(() => stopRecordings(state, "stopped on request", session))
        const lines = [
          ...(files.length > 0 ? [`Finished ${files.length} file${files.length === 1 ? "" : "s"}:`, ...files.map(fileLine)] : []),
          ...problems.map((p) => `Not finished: ${p}`)
        ]
        return answer(lines.length === 0 ? "Nothing was being recorded (or nothing was shown yet)." : lines.join("\n"), {
          files: files.map(structuredFile),
          ...(problems.length > 0 ? { problems } : {})
        })
      }
      const current = yield* call.current
      // Recordings stopping by themselves (the app ended, a window closed) are finished before the answer lists them.
      yield* Effect.promise(() => Promise.all([...state.running].map((r) => r.finishing)))
      const running = [...state.running].map((r) => ({ surface: r.surface(), session: r.session }))
      const lines = [
        running.length > 0 ? `Recording: ${running.map((r) => `${r.surface} (${r.session})`).join(", ")}.` : `Not recording.`,
        ...(state.unavailable !== undefined ? [`Recordings are animated PNG: ${state.unavailable}.`] : []),
        ...(current !== undefined && isRecording(current) ? [] : settings.autoStart ? ["autoStart is on: each new session is recorded from its launch."] : []),
        ...state.finished.slice(-10).map(fileLine)
      ]
      return answer(lines.join("\n"), {
        running,
        files: state.finished.slice(-10).map(structuredFile),
        ...(state.unavailable ? { unavailable: state.unavailable } : {})
      })
    })
})
