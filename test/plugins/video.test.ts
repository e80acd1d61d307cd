/**
 * The video plugin on the tasks sample app: a session recorded from its launch (autoStart) is a WebM file
 * whose frame count and duration ffprobe reads back as the answer gave them, whose chapters name the calls;
 * each view of a window made of WebContentsViews is its own file;
 * a failed assertion's answer links a clip of the last seconds; the file is complete when the app is
 * closed and when the server stops while recording.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { samplePath } from "../apps/support.js"
import { freshUserData } from "../support/mcp.js"
import { launchApp } from "./support.js"

let mcp: TestClient | undefined
afterEach(async () => {
  await mcp?.close()
  mcp = undefined
})

interface Probe {
  readonly codec: string
  readonly frames: number
  readonly durationS: number
  readonly width: number
  readonly height: number
  readonly chapters: ReadonlyArray<{ readonly title: string; readonly startS: number; readonly endS: number }>
}

/** The file as ffprobe reads it back: every frame decoded and counted. */
const probe = (file: string): Probe => {
  const out = JSON.parse(
    execFileSync(
      "ffprobe",
      [
        "-v",
        "error",
        "-count_frames",
        "-select_streams",
        "v:0",
        "-show_entries",
        "stream=codec_name,nb_read_frames,width,height:format=duration",
        "-show_chapters",
        "-of",
        "json",
        file
      ],
      {
        encoding: "utf8"
      }
    )
  )
  const stream = out.streams[0]
  return {
    codec: stream.codec_name,
    frames: Number(stream.nb_read_frames),
    durationS: Number(out.format.duration),
    width: stream.width,
    height: stream.height,
    chapters: (out.chapters ?? []).map((c: any) => ({ title: c.tags?.title, startS: Number(c.start_time), endS: Number(c.end_time) }))
  }
}

const fps = 5

describe("the video plugin", () => {
  it("records a session from its launch: frames, duration and chapters read back; a failed assertion links a clip", { timeout: 120_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { autoStart: true, fps, clipSeconds: 2 } } })
    const started = Date.now()
    const launched = await launchApp(mcp)
    expect(launched.text).toMatch(/Note: recording video of app \(w1\) into /)
    const clicked = await mcp.call("electron_click", { target: "testid=toggle-theme-button" })
    expect(clicked.isError, clicked.text).toBe(false)
    const themed = await mcp.call("electron_expect_text", { target: "testid=theme-indicator", text: "Theme: dark" })
    expect(themed.isError, themed.text).toBe(false)
    const failed = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Not the name", timeoutMs: 1_500 })
    expect(failed.code).toBe("ASSERTION_FAILED")
    const clipFile = /video of the last 2 s: (\S+\.mkv) \(w1, /.exec(failed.text)?.[1]
    expect(clipFile, failed.text).toBeDefined()
    expect(failed.structured.notes.join(" ")).toContain(clipFile)
    const clip = probe(clipFile!)
    expect(clip.codec).toBe("mjpeg")
    expect(clip.frames).toBeGreaterThanOrEqual(fps * 2 - 1)
    expect(clip.frames).toBeLessThanOrEqual(fps * 2 + 1)
    expect(clip.chapters.map((c) => c.title).join(" ")).toContain("electron_expect_text")

    const status = await mcp.call("electron_video_control", { action: "status" })
    expect(status.text).toMatch(/^Recording: w1 \(app\)\./)
    const stopped = await mcp.call("electron_video_control", { action: "stop" })
    const elapsedS = (Date.now() - started) / 1000
    expect(stopped.isError, stopped.text).toBe(false)
    const [file] = stopped.structured.files
    expect(file, stopped.text).toMatchObject({ surface: "w1", session: "app", fps, stoppedBy: "stopped on request" })
    expect(stopped.text).toContain(file.file)
    const read = probe(file.file)
    expect(read.codec).toBe("vp8")
    // Constant frame rate: ffprobe decodes exactly the frames the answer counted, and its duration is theirs.
    expect(read.frames).toBe(file.frames)
    expect(read.durationS).toBeCloseTo(file.frames / fps, 0)
    expect(file.durationMs / 1000).toBeLessThanOrEqual(elapsedS)
    expect(file.durationMs / 1000).toBeGreaterThan(1)
    expect([read.width, read.height]).toEqual([file.width, file.height])
    const titles = read.chapters.map((c) => c.title)
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^#1 electron_launch$/),
        expect.stringMatching(/^#\d+ electron_click$/),
        expect.stringMatching(/^#\d+ electron_expect_text ASSERTION_FAILED$/)
      ])
    )
    // The chapters are in call order and inside the video.
    const starts = read.chapters.map((c) => c.startS)
    expect([...starts].sort((a, b) => a - b)).toEqual(starts)
    expect(Math.max(...read.chapters.map((c) => c.endS))).toBeLessThanOrEqual(read.durationS + 0.5)
    expect(existsSync(file.captions)).toBe(true)
  })

  it("finishes the file when the app is closed, and when the server stops while recording", { timeout: 120_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { fps } } })
    await launchApp(mcp)
    const start = await mcp.call("electron_video_control", { action: "start" })
    expect(start.isError, start.text).toBe(false)
    expect(start.structured.surfaces).toEqual(["w1"])
    await mcp.call("electron_click", { target: "testid=toggle-theme-button" })
    const closed = await mcp.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    const after = await mcp.call("electron_video_control", { action: "status" })
    const [ended] = after.structured.files
    expect(ended, after.text).toMatchObject({ surface: "w1", stoppedBy: "the app ended" })
    expect(probe(ended.file).frames).toBe(ended.frames)

    await launchApp(mcp)
    const again = await mcp.call("electron_video_control", { action: "start" })
    expect(again.isError, again.text).toBe(false)
    await mcp.call("electron_click", { target: "testid=toggle-theme-button" })
    await mcp.close()
    mcp = undefined
    const finished = readdirSync(outputDir).filter((f) => f.endsWith(".webm"))
    expect(finished).toHaveLength(2)
    expect(readdirSync(outputDir).filter((f) => f.includes(".part"))).toEqual([])
    const last = finished.find((f) => f !== ended.file.split("/").pop())!
    const read = probe(join(outputDir, last))
    expect(read.frames).toBeGreaterThan(0)
    expect(read.chapters.map((c) => c.title).join(" ")).toContain("electron_click")
  })

  it("with an operator-set ffmpeg that cannot run it records an animated PNG and says why, with the step for WebM", { timeout: 60_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { autoStart: true, ffmpeg: "/nonexistent/ffmpeg" } } })
    const launched = await launchApp(mcp)
    expect(launched.text).toMatch(
      /Note: recording video of app \(w1\) into \S+ as animated PNG \(no ffmpeg \(\/nonexistent\/ffmpeg could not be started \(ENOENT\)\): an animated PNG instead of WebM; for WebM: Install ffmpeg/
    )
    const status = await mcp.call("electron_video_control", { action: "status" })
    expect(status.text).toMatch(/^Recording: w1 \(app\)\.\nRecordings are animated PNG: no ffmpeg/)
    const stopped = await mcp.call("electron_video_control", { action: "stop" })
    expect(stopped.structured.files.map((f: any) => [f.format, f.file.endsWith(".png")])).toEqual([["apng", true]])
    expect(readdirSync(outputDir).filter((f) => f.endsWith(".webm"))).toEqual([])
  })

  it("records every view of a window made of WebContentsViews, each its own file", { timeout: 90_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { fps } } })
    const launched = await mcp.call("electron_launch", { app: samplePath("views"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
    expect(launched.isError, launched.text).toBe(false)
    // The second view's renderer may register a moment after the launch answers: look until both are listed.
    let windows = await mcp.call("electron_windows")
    const viewsIn = (text: string) => new Set([...text.matchAll(/\bv\d+\b/g)].map((m) => m[0]))
    for (let look = 0; look < 100 && viewsIn(windows.text).size < 2; look++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      windows = await mcp.call("electron_windows")
    }
    const views = [...viewsIn(windows.text)]
    expect(new Set(views).size, windows.text).toBe(2)
    const start = await mcp.call("electron_video_control", { action: "start" })
    expect(start.isError, start.text).toBe(false)
    expect([...start.structured.surfaces].sort()).toEqual([...new Set(views)].sort())
    // Both views repaint: the sidebar marks the section, the content view shows it.
    const sidebar = /\b(v\d+)\b[^\n]*sidebar\.html/.exec(windows.text)?.[1]
    expect((await mcp.call("electron_select_window", { window: sidebar })).isError).toBe(false)
    const clicked = await mcp.call("electron_click", { target: "text=Calendar" })
    expect(clicked.isError, clicked.text).toBe(false)
    expect((await mcp.call("electron_wait_for", { target: "text=Selected: Calendar" })).isError).toBe(false)
    const stopped = await mcp.call("electron_video_control", { action: "stop" })
    expect(stopped.structured.files.map((f: any) => f.surface).sort()).toEqual([...new Set(views)].sort())
    for (const f of stopped.structured.files) expect(probe(f.file).frames).toBe(f.frames)
  })
})
