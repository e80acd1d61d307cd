/**
 * The video plugin without ffmpeg (hidden from PATH: this file's PATH holds only node, Xvfb and xauth): a session
 * is recorded as an animated PNG whose frames, delays and chapters are read back from the file (and decoded
 * by ffprobe, named by its full path), with a WebVTT file beside it; a failed assertion links a clip of its own;
 * the byte bound stops a recording with a complete file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp } from "./support.js"

let mcp: TestClient | undefined
const path = process.env.PATH
beforeAll(() => {
  const bin = mkdtempSync(join(tmpdir(), "sw-noffmpeg-"))
  for (const tool of ["node", "Xvfb", "xauth"]) symlinkSync(execFileSync("which", [tool], { encoding: "utf8" }).trim(), join(bin, tool))
  process.env.PATH = bin
})
afterAll(() => {
  process.env.PATH = path
})
afterEach(async () => {
  await mcp?.close()
  mcp = undefined
})

/** The APNG's chunks as written: frame count, each frame's delay (ms), its size, and the chapters text. */
const readApng = (file: string) => {
  const png = readFileSync(file)
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
  let at = 8
  const delays: Array<number> = []
  let declared = -1
  let chapters = ""
  let size = { width: 0, height: 0 }
  while (at < png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString("latin1", at + 4, at + 8)
    const data = png.subarray(at + 8, at + 8 + length)
    if (type === "IHDR") size = { width: data.readUInt32BE(0), height: data.readUInt32BE(4) }
    if (type === "acTL") declared = data.readUInt32BE(0)
    if (type === "fcTL") delays.push((data.readUInt16BE(20) * 1000) / data.readUInt16BE(22))
    if (type === "iTXt") chapters = data.subarray(data.indexOf(0) + 5).toString("utf8")
    at += 12 + length
  }
  return { declared, delays, chapters, size, durationMs: delays.reduce((a, b) => a + b, 0) }
}

/** Frames ffprobe decodes (its apng decoder: an independent reader). */
const decodedFrames = (file: string) =>
  Number(
    JSON.parse(
      execFileSync(
        "/usr/bin/ffprobe",
        ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,nb_read_frames", "-of", "json", file],
        { encoding: "utf8" }
      )
    ).streams[0].nb_read_frames
  )

describe("the video plugin without ffmpeg", () => {
  it("records an animated PNG: frames, delays and chapters read back; a failed assertion links a clip", { timeout: 120_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { autoStart: true, fps: 5, clipSeconds: 2 } } })
    const started = Date.now()
    const launched = await launchApp(mcp)
    expect(launched.text).toMatch(/Note: recording video of app \(w1\) into \S+ as animated PNG \(no ffmpeg \(ffmpeg could not be started \(ENOENT\)\)/)
    expect((await mcp.call("electron_click", { target: "testid=toggle-theme-button" })).isError).toBe(false)
    expect((await mcp.call("electron_expect_text", { target: "testid=theme-indicator", text: "Theme: dark" })).isError).toBe(false)
    const failed = await mcp.call("electron_expect_text", { target: "testid=board-name", text: "Not the name", timeoutMs: 1_500 })
    expect(failed.code).toBe("ASSERTION_FAILED")
    const clipFile = /video of the last 2 s: (\S+\.png) \(w1, /.exec(failed.text)?.[1]
    expect(clipFile, failed.text).toBeDefined()
    const clip = readApng(clipFile!)
    expect(clip.declared).toBe(clip.delays.length)
    expect(clip.durationMs).toBeGreaterThan(1_000)
    expect(clip.durationMs).toBeLessThanOrEqual(2_100)
    expect(clip.chapters).toContain("electron_expect_text")

    const stopped = await mcp.call("electron_video_control", { action: "stop" })
    const elapsedMs = Date.now() - started
    expect(stopped.isError, stopped.text).toBe(false)
    const [file] = stopped.structured.files
    expect(file, stopped.text).toMatchObject({ surface: "w1", session: "app", format: "apng", stoppedBy: "stopped on request" })
    expect(stopped.text).toContain(`${file.file} — `)
    expect(stopped.text).toContain("animated PNG: a frame per screen change, at most 5 a second")
    const read = readApng(file.file)
    // The theme change repainted: more than one frame, each declared, and the delays add up to the answer's duration.
    expect(read.delays.length).toBe(file.frames)
    expect(read.declared).toBe(file.frames)
    expect(file.frames).toBeGreaterThan(1)
    expect(decodedFrames(file.file)).toBe(file.frames)
    expect(Math.abs(read.durationMs - file.durationMs)).toBeLessThanOrEqual(file.frames)
    expect(file.durationMs).toBeGreaterThan(1_000)
    expect(file.durationMs).toBeLessThanOrEqual(elapsedMs)
    // No frame comes sooner than 1/fps after the one before (the rate bound).
    expect(Math.min(...read.delays.slice(0, -1))).toBeGreaterThanOrEqual(200)
    expect(read.size).toEqual({ width: file.width, height: file.height })
    expect(read.chapters).toMatch(/^WEBVTT/)
    expect(read.chapters).toMatch(/#1 electron_launch/)
    expect(read.chapters).toMatch(/#\d+ electron_click/)
    expect(read.chapters).toMatch(/#\d+ electron_expect_text ASSERTION_FAILED/)
    expect(readFileSync(file.captions, "utf8")).toBe(read.chapters)
    expect(readdirSync(outputDir).filter((f) => f.includes(".part"))).toEqual([])
  })

  it("stops at the byte bound with a complete file, and start says it records an animated PNG", { timeout: 90_000 }, async () => {
    const outputDir = mkdtempSync(join(tmpdir(), "sw-video-"))
    mcp = await inMemoryClient({ plugins: ["video"], outputDir, pluginConfig: { video: { fps: 10, maxImageMB: 1 } } })
    await launchApp(mcp)
    const start = await mcp.call("electron_video_control", { action: "start" })
    expect(start.isError, start.text).toBe(false)
    expect(start.structured).toMatchObject({ format: "apng", surfaces: ["w1"] })
    expect(start.text).toContain("As an animated PNG: no ffmpeg")
    // Each toggle repaints the whole board: frames of ~100 KB or more until the 1 MB bound stops the recording.
    let status = await mcp.call("electron_video_control", { action: "status" })
    for (let i = 0; i < 120 && status.structured.files.length === 0; i++) {
      await mcp.call("electron_click", { target: "testid=toggle-theme-button" })
      status = await mcp.call("electron_video_control", { action: "status" })
    }
    const [file] = status.structured.files
    expect(file, status.text).toMatchObject({ format: "apng", stoppedBy: "the 1 MB bound" })
    const read = readApng(file.file)
    expect(read.declared).toBe(file.frames)
    expect(decodedFrames(file.file)).toBe(file.frames)
    expect(readFileSync(file.file).length).toBeLessThanOrEqual(1024 * 1024 + 64 * 1024)
  })
})
