/**
 * The video plugin's encoder: the system's ffmpeg, fed JPEG frames on its stdin at a constant frame rate
 * (a frame repeated until the next one arrives, as Playwright's own video recorder does), writing WebM
 * (VP8). Every frame is scaled and padded to the size of the first, so a resized window never breaks the
 * stream. The session's timeline goes in afterwards: a remux (`-c copy`, no re-encoding) adds the chapters.
 * A clip is the frames kept in memory, copied as they are into Matroska (Motion JPEG). Without ffmpeg nothing here runs: `probe`
 * says why.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { rename, rm, writeFile } from "node:fs/promises"

/** What `probe` found: the encoder's path and version, or why there is none. */
export type EncoderProbe = { readonly ok: true; readonly path: string; readonly version: string } | { readonly ok: false; readonly reason: string }

const probes = new Map<string, Promise<EncoderProbe>>()

/** Runs `path -version` once per path (bounded to 5 s); the answer is kept for the process's life. */
export const probe = (path: string): Promise<EncoderProbe> => {
  let known = probes.get(path)
  if (known === undefined) {
    known = new Promise<EncoderProbe>((resolve) => {
      let out = ""
      const child = spawn(path, ["-hide_banner", "-version"], { stdio: ["ignore", "pipe", "ignore"] })
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
      child.stdout.on("data", (chunk: Buffer) => void (out.length < 4_096 && (out += chunk.toString("utf8"))))
      child.on("error", (error) => {
        clearTimeout(timer)
        resolve({ ok: false, reason: `${path} could not be started (${(error as NodeJS.ErrnoException).code ?? error.message})` })
      })
      child.on("close", (code) => {
        clearTimeout(timer)
        const version = /version (\S+)/.exec(out)?.[1]
        resolve(code === 0 && version !== undefined ? { ok: true, path, version } : { ok: false, reason: `${path} -version exited with ${code ?? "a signal"}` })
      })
    })
    probes.set(path, known)
  }
  return known
}

/** Runs ffmpeg with `args` to its end, bounded; resolves with its last stderr lines when it failed. */
const run = (ffmpeg: string, args: ReadonlyArray<string>, input?: (child: ChildProcess) => void, boundMs = 30_000): Promise<string | undefined> =>
  new Promise((resolve) => {
    let err = ""
    const child = spawn(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", ...args], { stdio: [input ? "pipe" : "ignore", "ignore", "pipe"] })
    const timer = setTimeout(() => child.kill("SIGKILL"), boundMs)
    child.stderr!.on("data", (chunk: Buffer) => void (err = (err + chunk.toString("utf8")).slice(-2_000)))
    child.on("error", (error) => {
      clearTimeout(timer)
      resolve(String(error.message))
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve(code === 0 ? undefined : err.trim().split("\n").slice(-3).join(" ") || `exited with ${code ?? "a signal"}`)
    })
    if (input) input(child)
  })

/** A JPEG's width and height, from its start-of-frame marker (undefined when it has none). */
export const jpegSize = (jpeg: Buffer): { readonly width: number; readonly height: number } | undefined => {
  let at = 2
  while (at + 9 < jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1]!
    const length = jpeg.readUInt16BE(at + 2)
    // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc) carry the frame's size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) }
    }
    at += 2 + length
  }
  return undefined
}

/** The frame size every frame is fitted into: the first frame's, capped, even (VP8 wants even sides). */
export const fitSize = (width: number, height: number, max: { readonly width: number; readonly height: number }) => {
  const scale = Math.min(1, max.width / width, max.height / height)
  const even = (n: number) => Math.max(2, 2 * Math.round((n * scale) / 2))
  return { width: even(width), height: even(height) }
}

const fitFilter = (size: { readonly width: number; readonly height: number }) =>
  `scale=${size.width}:${size.height}:force_original_aspect_ratio=decrease,pad=${size.width}:${size.height}:(ow-iw)/2:(oh-ih)/2:color=white,format=yuv420p`

const encodeArgs = (fps: number, size: { readonly width: number; readonly height: number }, out: string) => [
  "-f",
  "image2pipe",
  "-c:v",
  "mjpeg",
  "-framerate",
  String(fps),
  "-i",
  "pipe:0",
  "-vf",
  fitFilter(size),
  "-c:v",
  "libvpx",
  "-deadline",
  "realtime",
  "-cpu-used",
  "8",
  "-b:v",
  "1M",
  "-an",
  "-f",
  "webm",
  out
]

/** One chapter of the timeline (milliseconds from the recording's start). */
export interface Chapter {
  readonly startMs: number
  readonly endMs: number
  readonly title: string
}

const metaEscape = (s: string) => s.replace(/[=;#\\\n]/g, (c) => (c === "\n" ? " " : `\\${c}`))

/** The timeline in ffmpeg's metadata format. */
export const ffmetadata = (title: string, chapters: ReadonlyArray<Chapter>): string =>
  [
    ";FFMETADATA1",
    `title=${metaEscape(title)}`,
    ...chapters.flatMap((c) => ["[CHAPTER]", "TIMEBASE=1/1000", `START=${Math.round(c.startMs)}`, `END=${Math.round(c.endMs)}`, `title=${metaEscape(c.title)}`])
  ].join("\n") + "\n"

/**
 * A running encode: frames are written as they are due; `finish` closes the stream, waits for ffmpeg
 * (bounded) and returns the number of frames written or why the file is not complete.
 */
export class StreamEncoder {
  readonly #child: ChildProcess
  readonly #done: Promise<string | undefined>
  #frames = 0
  #broken: string | undefined

  constructor(
    ffmpeg: string,
    readonly fps: number,
    readonly size: { readonly width: number; readonly height: number },
    readonly file: string
  ) {
    let err = ""
    this.#child = spawn(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y", ...encodeArgs(fps, size, file)], { stdio: ["pipe", "ignore", "pipe"] })
    this.#child.stderr!.on("data", (chunk: Buffer) => void (err = (err + chunk.toString("utf8")).slice(-2_000)))
    this.#child.stdin!.on("error", (error) => void (this.#broken ??= `ffmpeg's input closed: ${error.message}`))
    this.#done = new Promise((resolve) => {
      this.#child.on("error", (error) => resolve((this.#broken = `ffmpeg could not run: ${error.message}`)))
      this.#child.on("close", (code) =>
        resolve(code === 0 ? this.#broken : (this.#broken = err.trim().split("\n").slice(-3).join(" ") || `ffmpeg exited with ${code ?? "a signal"}`))
      )
    })
  }

  get frames(): number {
    return this.#frames
  }

  get problem(): string | undefined {
    return this.#broken
  }

  /** Writes `frame` `count` times (a frame shown for count / fps seconds). */
  write(frame: Buffer, count: number): void {
    const stdin = this.#child.stdin!
    for (let i = 0; i < count && this.#broken === undefined && stdin.writable; i++) {
      stdin.write(frame)
      this.#frames++
    }
  }

  /** Ends the input and waits for the file (at most `boundMs`, then ffmpeg is killed). */
  finish(boundMs = 40_000): Promise<string | undefined> {
    this.#child.stdin!.end()
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), boundMs)
    return this.#done.finally(() => clearTimeout(timer))
  }

  /** Kills the encoder at once (the file is left incomplete; the caller removes it). */
  kill(): void {
    this.#child.kill("SIGKILL")
  }
}

/** Copies `source` into `target` with the timeline as chapters (no re-encoding); the source is removed. */
export const addChapters = async (
  ffmpeg: string,
  source: string,
  target: string,
  title: string,
  chapters: ReadonlyArray<Chapter>
): Promise<string | undefined> => {
  const meta = `${source}.ffmeta`
  await writeFile(meta, ffmetadata(title, chapters), { mode: 0o600 })
  const failed = await run(ffmpeg, [
    "-i",
    source,
    "-f",
    "ffmetadata",
    "-i",
    meta,
    "-map",
    "0",
    "-map_metadata",
    "1",
    "-map_chapters",
    "1",
    "-c",
    "copy",
    "-f",
    "webm",
    target
  ])
  await rm(meta, { force: true })
  if (failed === undefined) {
    await rm(source, { force: true })
    return undefined
  }
  // The video without its chapters is still worth keeping (the .vtt beside it has the timeline).
  await rename(source, target).catch(() => undefined)
  return `the chapters could not be added (${failed})`
}

/**
 * Writes a clip of timed frames (each shown until the next; the last until `endAt`): the screencast's JPEG
 * frames as they are (Motion JPEG in Matroska, no re-encoding: a clip is made while a failed answer waits for
 * it, ~0.4 s where VP8 took 5 s on a loaded machine), its chapters written by the same ffmpeg run.
 */
export const encodeClip = async (
  ffmpeg: string,
  fps: number,
  frames: ReadonlyArray<{ readonly at: number; readonly data: Buffer }>,
  startAt: number,
  endAt: number,
  file: string,
  chapters: ReadonlyArray<Chapter>
): Promise<{ readonly frames: number; readonly problem?: string }> => {
  const meta = `${file}.ffmeta`
  await writeFile(meta, ffmetadata("Stagewright clip", chapters), { mode: 0o600 })
  let written = 0
  const args = [
    "-f",
    "image2pipe",
    "-c:v",
    "mjpeg",
    "-framerate",
    String(fps),
    "-i",
    "pipe:0",
    "-f",
    "ffmetadata",
    "-i",
    meta,
    "-map",
    "0:v",
    "-map_metadata",
    "1",
    "-map_chapters",
    "1",
    "-c:v",
    "copy",
    "-an",
    "-f",
    "matroska",
    file
  ]
  const failed = await run(
    ffmpeg,
    args,
    (child) => {
      const stdin = child.stdin!
      stdin.on("error", () => undefined)
      frames.forEach((frame, i) => {
        const until = i + 1 < frames.length ? frames[i + 1]!.at : endAt
        for (const due = Math.round(((until - startAt) * fps) / 1000); written < due; written++) stdin.write(frame.data)
      })
      const last = frames[frames.length - 1]
      if (written === 0 && last !== undefined) {
        stdin.write(last.data)
        written++
      }
      stdin.end()
    },
    10_000
  )
  await rm(meta, { force: true })
  if (failed !== undefined) {
    await rm(file, { force: true })
    return { frames: 0, problem: failed }
  }
  return { frames: written }
}
