/**
 * The video plugin: a recording of the session a person can watch. Chromium's screencast of every window
 * and view (surface.ts), encoded by the system's ffmpeg to WebM (encoder.ts), bounded in duration, frame
 * rate and size (state.ts), each tool call a chapter and a WebVTT cue; a failed assertion's answer links a
 * clip of the last seconds; the files are finished when the app ends, a window closes or crashes, or the
 * server stops (recorder.ts). Without ffmpeg it says so and records nothing.
 */
import { definePlugin } from "../Plugin.js"
import { recorder } from "./recorder.js"
import { VideoSettings } from "./state.js"
import { videoTool } from "./tools.js"

export default definePlugin({
  name: "video",
  purpose: "A video of the session (WebM through ffmpeg, else animated PNG): every window and view, tool calls as chapters, a clip on a failed assertion",
  stagewright: ">=0.1.0 <1",
  config: VideoSettings,
  observers: [recorder],
  tools: [videoTool]
})
