/**
 * The recording of one surface (a window, a view or a guest: each its own page): Chromium's screencast
 * over a DevTools protocol session of its own (Page.startScreencast, every frame acknowledged), the frames
 * streamed to the encoder at a constant rate, the last seconds kept in memory for a clip. Stopping is
 * idempotent: whoever stops first (the agent, the window closing, the renderer crashing, the app ending,
 * the server stopping, the duration bound) gets the complete file, with the timeline's chapters and a
 * WebVTT file of the same cues beside it. Without ffmpeg the screencast sends PNG frames and the file is an
 * animated PNG (apng.ts): a frame per screen change (at most `fps` a second), bounded in bytes, its chapters in
 * the image and in the WebVTT file.
 */
import { rm, writeFile } from "node:fs/promises"
import type { CDPSession, Page } from "playwright-core"
import { ApngWriter } from "./apng.js"
import { addChapters, encodeClip, fitSize, jpegSize, StreamEncoder, type Chapter } from "./encoder.js"
import type { Running, TimelineCall, VideoFile, VideoSettings } from "./state.js"

export interface SurfaceOptions {
  readonly page: Page
  readonly cdp: CDPSession
  /** The surface's id (w1, v1, g1) as the driver names it, read when needed (a page is named once classified). */
  readonly surface: () => string
  readonly session: string
  /** The app session it belongs to. */
  readonly owner: object
  readonly settings: VideoSettings
  /** The encoder; undefined: an animated PNG instead. */
  readonly ffmpeg: string | undefined
  /** The file to write, without extension (the surface id is added when it is finished). */
  readonly base: (surface: string) => string
  /** Where the stream is encoded to until it is finished (a name of its own). */
  readonly part: string
  readonly timeline: ReadonlyArray<TimelineCall>
  /** Called once when it stops (the page is no longer recorded from then on). */
  readonly ended: () => void
  /** Called once it has stopped, with its file (undefined when none could be made). */
  readonly finished: (file: VideoFile | undefined) => void
}

const stamp = (ms: number) => {
  const t = Math.max(0, Math.round(ms))
  const pad = (n: number, w = 2) => String(n).padStart(w, "0")
  return `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor(t / 60_000) % 60)}:${pad(Math.floor(t / 1000) % 60)}.${pad(t % 1000, 3)}`
}

/** The calls between `from` and `to` (wall clock) as chapters of a video starting at `from`. */
export const chaptersOf = (timeline: ReadonlyArray<TimelineCall>, from: number, to: number): Array<Chapter> =>
  timeline
    .filter((c) => (c.endAt ?? to) >= from && c.startAt <= to)
    .map((c) => {
      const startMs = Math.max(0, c.startAt - from)
      const endMs = Math.max(startMs + 1, Math.min(to, c.endAt ?? to) - from)
      return { startMs, endMs, title: `#${c.index} ${c.tool}${c.code !== undefined ? ` ${c.code}` : ""}` }
    })

export const webvtt = (chapters: ReadonlyArray<Chapter>): string =>
  `WEBVTT\n\n${chapters.map((c, i) => `${i + 1}\n${stamp(c.startMs)} --> ${stamp(Math.max(c.endMs, c.startMs + 500))}\n${c.title}\n`).join("\n")}`

interface Frame {
  readonly at: number
  readonly data: Buffer
}

export class SurfaceRecording implements Running {
  readonly #o: SurfaceOptions
  #encoder: StreamEncoder | undefined
  #apng: ApngWriter | undefined
  /** The animated image's frame not written yet (its delay is known when the next comes), shown from `at`. */
  #pending: Frame | undefined
  #firstAt = 0
  #last: Frame | undefined
  /** Frames of the last clipSeconds (and the one shown when they began). */
  readonly #recent: Array<Frame> = []
  #stopping: Promise<VideoFile | undefined> | undefined
  #failure: string | undefined
  readonly #startedAt = Date.now()

  constructor(options: SurfaceOptions) {
    this.#o = options
  }

  get surface(): () => string {
    return this.#o.surface
  }

  get owner(): object {
    return this.#o.owner
  }

  get session(): string {
    return this.#o.session
  }

  /** Starts the screencast (the first frame comes once the page paints). */
  async start(): Promise<void> {
    const { cdp, settings } = this.#o
    cdp.on("Page.screencastFrame", (event) => {
      void cdp.send("Page.screencastFrameAck", { sessionId: event.sessionId }).catch(() => undefined)
      if (this.#stopping === undefined) this.#frame(Buffer.from(event.data, "base64"))
    })
    const format = this.#o.ffmpeg === undefined ? "png" : "jpeg"
    await cdp.send("Page.startScreencast", { format, quality: settings.quality, maxWidth: settings.maxWidth, maxHeight: settings.maxHeight, everyNthFrame: 1 })
  }

  #frame(data: Buffer): void {
    const { settings } = this.#o
    const now = Date.now()
    // A frame the animated image folds into the one before (sooner than 1/fps) replaces it in the clip buffer too.
    let replaces = false
    if (this.#o.ffmpeg === undefined) replaces = this.#animated(data, now)
    else if (this.#encoder === undefined) {
      const size = jpegSize(data)
      if (size === undefined) return
      // The video starts when the recording did: the first frame is shown from then on.
      this.#firstAt = this.#startedAt
      this.#encoder = new StreamEncoder(
        this.#o.ffmpeg,
        settings.fps,
        fitSize(size.width, size.height, { width: settings.maxWidth, height: settings.maxHeight }),
        this.#o.part
      )
    } else if (this.#last !== undefined) {
      const until = Math.min(now, this.#firstAt + settings.maxSeconds * 1000)
      this.#encoder.write(this.#last.data, Math.round(((until - this.#firstAt) * settings.fps) / 1000) - this.#encoder.frames)
    }
    this.#last = { at: now, data }
    if (replaces && this.#recent.length > 0) this.#recent[this.#recent.length - 1] = { at: this.#recent[this.#recent.length - 1]!.at, data }
    else this.#recent.push(this.#last)
    const keepFrom = now - settings.clipSeconds * 1000
    while (this.#recent.length > 1 && this.#recent[1]!.at <= keepFrom) this.#recent.shift()
    if (now - this.#firstAt >= settings.maxSeconds * 1000) void this.stop(`the ${settings.maxSeconds} s bound`)
  }

  /** A frame of the animated image: the one pending is written, shown until now (frames closer than 1/fps replace it). */
  #animated(data: Buffer, now: number): boolean {
    const { settings } = this.#o
    if (this.#apng === undefined) {
      this.#firstAt = this.#startedAt
      this.#apng = new ApngWriter(`${this.#o.part}.frames`, settings.maxImageMB * 1024 * 1024)
      this.#pending = { at: this.#firstAt, data }
      return false
    }
    const pending = this.#pending
    if (pending === undefined) return false
    if (now - pending.at < 1000 / settings.fps) {
      this.#pending = { at: pending.at, data }
      return true
    }
    const until = Math.min(now, this.#firstAt + settings.maxSeconds * 1000)
    if (this.#apng.add(pending.data, until - pending.at) === "full") {
      this.#pending = undefined
      void this.stop(`the ${settings.maxImageMB} MB bound`)
      return false
    }
    this.#pending = { at: until, data }
    return false
  }

  /** Why it stopped without a file, when the encoder failed. */
  get failure(): string | undefined {
    return this.#failure
  }

  get finishing(): Promise<VideoFile | undefined> | undefined {
    return this.#stopping
  }

  stop(why: string): Promise<VideoFile | undefined> {
    if (this.#stopping === undefined) {
      this.#o.ended()
      this.#stopping = this.#finish(why).catch(() => undefined)
      void this.#stopping.then((file) => this.#o.finished(file))
    }
    return this.#stopping
  }

  async #finish(why: string): Promise<VideoFile | undefined> {
    const { cdp, settings } = this.#o
    // Not awaited: frames that still come are ignored (stopping is set), and a detach that never answers (seen on a
    // busy renderer) must not hold the file up.
    void cdp
      .send("Page.stopScreencast")
      .catch(() => undefined)
      .then(() => cdp.detach())
      .catch(() => undefined)
    if (this.#apng !== undefined) return this.#finishAnimated(this.#apng, why)
    const encoder = this.#encoder
    const ffmpeg = this.#o.ffmpeg
    if (encoder === undefined || ffmpeg === undefined || this.#last === undefined) return undefined // nothing was ever shown
    const endAt = Math.min(Date.now(), this.#firstAt + settings.maxSeconds * 1000)
    encoder.write(this.#last.data, Math.max(1, Math.round(((endAt - this.#firstAt) * settings.fps) / 1000)) - encoder.frames)
    const failed = await encoder.finish()
    const surface = this.#o.surface()
    const base = this.#o.base(surface)
    const chapters = chaptersOf(this.#o.timeline, this.#firstAt, endAt)
    const file = `${base}.webm`
    const captions = `${base}.vtt`
    if (failed !== undefined) {
      await rm(encoder.file, { force: true })
      this.#failure = `the encoder failed, no file (${failed})`
      return undefined
    }
    const problem = await addChapters(ffmpeg, encoder.file, file, `Stagewright session ${this.#o.session}: ${surface}`, chapters)
    await writeFile(captions, webvtt(chapters), { mode: 0o600 })
    const done: VideoFile = {
      surface,
      session: this.#o.session,
      file,
      captions,
      frames: encoder.frames,
      fps: settings.fps,
      durationMs: Math.round((encoder.frames * 1000) / settings.fps),
      width: encoder.size.width,
      height: encoder.size.height,
      stoppedBy: why,
      format: "webm",
      ...(problem !== undefined ? { problem } : {})
    }
    return done
  }

  async #finishAnimated(writer: ApngWriter, why: string): Promise<VideoFile | undefined> {
    const { settings } = this.#o
    const endAt = Math.min(Date.now(), this.#firstAt + settings.maxSeconds * 1000)
    const pending = this.#pending
    if (pending !== undefined) writer.add(pending.data, Math.max(1, endAt - pending.at))
    const surface = this.#o.surface()
    const base = this.#o.base(surface)
    const chapters = chaptersOf(this.#o.timeline, this.#firstAt, endAt)
    const file = `${base}.png`
    const captions = `${base}.vtt`
    const failed = await writer.finish(file, webvtt(chapters))
    if (failed !== undefined) {
      this.#failure = `the animated image could not be made (${failed})`
      return undefined
    }
    await writeFile(captions, webvtt(chapters), { mode: 0o600 })
    return this.#animatedFile(writer, file, captions, why)
  }

  #animatedFile(writer: ApngWriter, file: string, captions: string, stoppedBy: string): VideoFile {
    return {
      surface: this.#o.surface(),
      session: this.#o.session,
      file,
      captions,
      frames: writer.frames,
      fps: this.#o.settings.fps,
      durationMs: Math.round(writer.durationMs),
      ...writer.size,
      stoppedBy,
      format: "apng",
      ...(writer.skipped > 0 ? { problem: `${writer.skipped} frame(s) of another size or format were left out` } : {})
    }
  }

  /** A clip of the animated image's last `seconds`, an animated PNG of its own. */
  async #animatedClip(seconds: number, name: string): Promise<VideoFile | undefined> {
    if (this.#recent.length === 0) return undefined
    const endAt = Date.now()
    const startAt = Math.max(this.#firstAt, endAt - seconds * 1000)
    const frames = this.#recent.filter((f, i, all) => f.at >= startAt || (all[i + 1]?.at ?? endAt) > startAt)
    const base = this.#o.base(`${this.#o.surface()}-${name}`)
    const writer = new ApngWriter(`${base}.part.frames`, this.#o.settings.maxImageMB * 1024 * 1024)
    frames.forEach((f, i) => void writer.add(f.data, Math.max(1, (frames[i + 1]?.at ?? endAt) - Math.max(f.at, startAt))))
    const chapters = chaptersOf(this.#o.timeline, startAt, endAt)
    const failed = await writer.finish(`${base}.png`, webvtt(chapters))
    return failed === undefined ? { ...this.#animatedFile(writer, `${base}.png`, "", `the last ${seconds} s`) } : undefined
  }

  async clip(seconds: number, name: string): Promise<VideoFile | undefined> {
    if (this.#o.ffmpeg === undefined) return this.#animatedClip(seconds, name)
    const encoder = this.#encoder
    if (encoder === undefined || this.#recent.length === 0) return undefined
    const endAt = Date.now()
    const startAt = Math.max(this.#firstAt, endAt - seconds * 1000)
    const frames = this.#recent.filter((f, i, all) => f.at >= startAt || (all[i + 1]?.at ?? endAt) > startAt)
    const file = `${this.#o.base(`${this.#o.surface()}-${name}`)}.mkv`
    const chapters = chaptersOf(this.#o.timeline, startAt, endAt)
    const made = await encodeClip(this.#o.ffmpeg, this.#o.settings.fps, frames, startAt, endAt, file, chapters)
    if (made.frames === 0) return undefined
    return {
      surface: this.#o.surface(),
      session: this.#o.session,
      file,
      captions: "",
      frames: made.frames,
      fps: this.#o.settings.fps,
      durationMs: Math.round((made.frames * 1000) / this.#o.settings.fps),
      width: jpegSize(frames[0]!.data)?.width ?? encoder.size.width,
      height: jpegSize(frames[0]!.data)?.height ?? encoder.size.height,
      stoppedBy: `the last ${seconds} s`,
      format: "mkv",
      ...(made.problem !== undefined ? { problem: made.problem } : {})
    }
  }
}
