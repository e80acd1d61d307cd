/**
 * The video plugin's settings (`--plugin-config video={...}`: the operator's, bounded) and its state for one
 * server, keyed by the server's configuration as the trace plugin's is: the timeline of tool calls every
 * recording marks, the recordings running and the files finished.
 */
import { Schema } from "effect"
import type { ServerConfigShape } from "../../layers/config/ServerConfig.js"

export const VideoSettings = Schema.Struct({
  autoStart: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
    description: "record every session from its launch or attach on (default false: electron_video_control action=start)"
  }),
  fps: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 30)), { default: () => 5 }).annotations({
    description: "frames a second (1-30, default 5)"
  }),
  maxSeconds: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 3_600)), { default: () => 600 }).annotations({
    description: "a recording stops, complete, after this long (default 600)"
  }),
  maxWidth: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(160, 3_840)), { default: () => 1_280 }),
  maxHeight: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(120, 2_160)), { default: () => 800 }),
  quality: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(10, 100)), { default: () => 70 }).annotations({
    description: "JPEG quality of the screencast frames"
  }),
  clipSeconds: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(0, 60)), { default: () => 8 }).annotations({
    description: "a failed assertion's answer links a clip of the last this many seconds (0: none)"
  }),
  maxImageMB: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 1_024)), { default: () => 64 }).annotations({
    description: "without ffmpeg, the animated PNG stops, complete, at this size (default 64)"
  }),
  ffmpeg: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096)), { default: () => "ffmpeg" }).annotations({
    description: "the encoder (default ffmpeg on PATH)"
  })
})
export type VideoSettings = typeof VideoSettings.Type

export const VIDEO_TOOL = "electron_video_control"

/** The next step when there is no encoder. */
export const INSTALL_HINT = 'Install ffmpeg (npm run setup does, with apt), or have the operator set --plugin-config video={"ffmpeg":"/path/to/ffmpeg"}.'

/** One tool call on the timeline (wall-clock milliseconds). */
export interface TimelineCall {
  readonly index: number
  readonly tool: string
  readonly startAt: number
  endAt?: number
  code?: string
}

/** A finished recording, as the answers list it. */
export interface VideoFile {
  readonly surface: string
  readonly session: string
  readonly file: string
  /** The captions beside it (WebVTT): the same timeline as the chapters. */
  readonly captions: string
  readonly frames: number
  readonly fps: number
  readonly durationMs: number
  readonly width: number
  readonly height: number
  /** What ended it: stopped on request, the window closed, the renderer crashed, the app ended, the server stopped, the bound. */
  readonly stoppedBy: string
  /** WebM (VP8), a clip's Matroska (Motion JPEG), or an animated PNG (no ffmpeg: a frame per screen change). */
  readonly format: "webm" | "mkv" | "apng"
  readonly problem?: string
}

/** What a running recording offers the plugin (surface.ts implements it). */
export interface Running {
  readonly surface: () => string
  readonly session: string
  /** The app session it belongs to. */
  readonly owner: object
  readonly stop: (why: string) => Promise<VideoFile | undefined>
  /** Why it stopped without a file, when the encoder failed. */
  readonly failure: string | undefined
  /** Set once it is stopping: resolves when its file is finished. */
  readonly finishing: Promise<VideoFile | undefined> | undefined
  /** A clip of the last `seconds` (undefined when nothing was shown yet). */
  readonly clip: (seconds: number, name: string) => Promise<VideoFile | undefined>
}

export interface VideoState {
  readonly timeline: Array<TimelineCall>
  readonly running: Set<Running>
  /** The finished files, newest last (at most FINISHED_KEPT). */
  readonly finished: Array<VideoFile>
  /** Sessions being recorded (by their object): the ones auto-start has seen. */
  readonly sessions: WeakSet<object>
  /** Why recording cannot start (no encoder), once known. */
  unavailable?: string
}

const TIMELINE_KEPT = 2_000
const FINISHED_KEPT = 50
const states = new WeakMap<ServerConfigShape, VideoState>()

export const videoState = (config: ServerConfigShape): VideoState => {
  let state = states.get(config)
  if (state === undefined) {
    state = { timeline: [], running: new Set(), finished: [], sessions: new WeakSet() }
    states.set(config, state)
  }
  return state
}

export const noteCall = (state: VideoState, call: TimelineCall): void => {
  state.timeline.push(call)
  if (state.timeline.length > TIMELINE_KEPT) state.timeline.shift()
}

export const keepFinished = (state: VideoState, file: VideoFile): void => {
  state.finished.push(file)
  if (state.finished.length > FINISHED_KEPT) state.finished.shift()
}

/** A file's line in an answer. */
export const fileLine = (f: VideoFile): string =>
  `${f.surface} (${f.session}): ${f.file} — ${(f.durationMs / 1000).toFixed(1)} s, ${f.frames} frames ${f.format === "apng" ? `(animated PNG: a frame per screen change, at most ${f.fps} a second)` : `at ${f.fps} fps`}, ${f.width}×${f.height}; stopped: ${f.stoppedBy}; captions ${f.captions}${f.problem ? `; ${f.problem}` : ""}`
