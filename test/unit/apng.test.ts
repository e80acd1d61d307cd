/**
 * The video plugin's animated PNG (src/plugins/video/apng.ts) from PNG frames made here: ffprobe decodes every
 * frame, a delay beyond APNG's 16-bit milliseconds is kept (in tenths of a second), a frame larger than the first
 * is left out, and the byte bound refuses a frame without breaking the file.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { deflateSync } from "node:zlib"
import { ApngWriter, chunk } from "../../src/plugins/video/apng.js"

/** A width×height RGB PNG of one colour. */
const png = (width: number, height: number, rgb: [number, number, number]) => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())])
  const raw = Buffer.concat(Array.from({ length: height }, () => row))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0))
  ])
}

const delays = (file: string) => {
  const data = readFileSync(file)
  const out: Array<number> = []
  for (let at = 8; at < data.length; at += 12 + data.readUInt32BE(at)) {
    if (data.toString("latin1", at + 4, at + 8) === "fcTL") out.push((data.readUInt16BE(at + 28) * 1000) / data.readUInt16BE(at + 30))
  }
  return out
}

const decoded = (file: string) =>
  Number(
    JSON.parse(
      execFileSync(
        "ffprobe",
        ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,nb_read_frames", "-of", "json", file],
        { encoding: "utf8" }
      )
    ).streams[0].nb_read_frames
  )

describe("the animated PNG writer", () => {
  it("writes frames ffprobe decodes, with their delays; a larger frame is left out", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-apng-"))
    const writer = new ApngWriter(join(dir, "part"), 1024 * 1024)
    expect(writer.add(png(40, 30, [255, 0, 0]), 250)).toBe("added")
    expect(writer.add(png(80, 30, [0, 0, 255]), 100)).toBe("skipped")
    expect(writer.add(png(20, 30, [0, 255, 0]), 70_000)).toBe("added")
    expect(writer.add(png(40, 30, [0, 0, 255]), 1)).toBe("added")
    const file = join(dir, "out.png")
    expect(await writer.finish(file, "WEBVTT\n")).toBeUndefined()
    expect(writer.frames).toBe(3)
    expect(writer.skipped).toBe(1)
    expect(delays(file)).toEqual([250, 70_000, 1])
    expect(writer.durationMs).toBe(70_251)
    expect(decoded(file)).toBe(3)
  })

  it("refuses a frame past the byte bound, and what it has is a complete file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sw-apng-"))
    const frame = png(64, 64, [10, 20, 30])
    const writer = new ApngWriter(join(dir, "part"), frame.length)
    expect(writer.add(frame, 100)).toBe("added")
    expect(writer.add(png(64, 64, [200, 20, 30]), 100)).toBe("full")
    const file = join(dir, "out.png")
    expect(await writer.finish(file, "")).toBeUndefined()
    expect(decoded(file)).toBe(1)
  })
})
