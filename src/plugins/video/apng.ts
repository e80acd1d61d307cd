/**
 * The video plugin's encoder when there is no ffmpeg: an animated PNG (APNG, which browsers and most image
 * viewers play) assembled from the screencast's own PNG frames without decoding or re-encoding them: each
 * frame's compressed image data (its IDAT chunks) becomes one APNG frame (`fcTL` + `fdAT`), shown for as long as
 * the screen did not change (the screencast sends a frame only when the page repaints, so a still screen costs
 * one frame). The frames are streamed to a part file; `finish` writes the file's head (its frame count is known
 * only then), the frames, the session's timeline as an `iTXt` chunk ("Stagewright chapters", WebVTT) and the end.
 * Bounded in bytes: a frame that would pass the bound is refused and the caller stops the recording.
 * A frame of another format than the first (bit depth, colour type) or larger than it is left out (a canvas
 * cannot grow); a smaller one is drawn at the top left.
 */
import { createReadStream, createWriteStream, type WriteStream } from "node:fs"
import { rm } from "node:fs/promises"
import { pipeline } from "node:stream/promises"

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const CRC_TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

const crc32 = (parts: ReadonlyArray<Buffer>): number => {
  let c = -1
  for (const part of parts) for (let i = 0; i < part.length; i++) c = CRC_TABLE[(c ^ part[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

/** One PNG chunk, length and CRC included. */
export const chunk = (type: string, data: Buffer): Buffer => {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, "latin1")
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32([head.subarray(4), data]), 0)
  return Buffer.concat([head, data, crc])
}

/** A PNG's header fields and its compressed image data (undefined when it is not a PNG). */
export const parsePng = (
  png: Buffer
): { readonly width: number; readonly height: number; readonly format: string; readonly idat: ReadonlyArray<Buffer> } | undefined => {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return undefined
  let at = 8
  let header: Buffer | undefined
  const idat: Array<Buffer> = []
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString("latin1", at + 4, at + 8)
    const data = png.subarray(at + 8, at + 8 + length)
    if (data.length !== length) return undefined
    if (type === "IHDR") header = data
    else if (type === "IDAT") idat.push(data)
    else if (type === "IEND") break
    at += 12 + length
  }
  if (header === undefined || header.length !== 13 || idat.length === 0) return undefined
  // Bit depth, colour type, compression, filter and interlace: frames must share them with the first.
  return { width: header.readUInt32BE(0), height: header.readUInt32BE(4), format: header.subarray(8).toString("hex"), idat }
}

/** A frame's delay as APNG's fraction (16-bit numerator and denominator). */
const delayOf = (ms: number): [number, number] => {
  const t = Math.max(1, Math.round(ms))
  return t <= 0xffff ? [t, 1000] : [Math.min(0xffff, Math.round(t / 100)), 10]
}

export class ApngWriter {
  readonly #part: WriteStream
  #header: Buffer | undefined
  #width = 0
  #height = 0
  #format = ""
  #sequence = 0
  #frames = 0
  #bytes = 0
  #durationMs = 0
  #skipped = 0
  #broken: string | undefined

  constructor(
    /** Where the frames go until the file is finished (removed then). */
    readonly part: string,
    readonly maxBytes: number
  ) {
    this.#part = createWriteStream(part, { mode: 0o600 })
    this.#part.on("error", (error) => void (this.#broken ??= `the frames could not be written: ${error.message}`))
  }

  get frames(): number {
    return this.#frames
  }

  get durationMs(): number {
    return this.#durationMs
  }

  get size(): { readonly width: number; readonly height: number } {
    return { width: this.#width, height: this.#height }
  }

  /** Frames left out (another format, or larger than the first). */
  get skipped(): number {
    return this.#skipped
  }

  /**
   * Adds `png` shown for `delayMs`. Answers "full" (nothing added) when it would pass the byte bound, "skipped"
   * when the frame cannot be part of this image, "added" else.
   */
  add(png: Buffer, delayMs: number): "added" | "skipped" | "full" {
    const parsed = parsePng(png)
    if (parsed === undefined) {
      this.#skipped++
      return "skipped"
    }
    if (this.#header === undefined) {
      this.#width = parsed.width
      this.#height = parsed.height
      this.#format = parsed.format
      this.#header = png.subarray(16, 29)
    } else if (parsed.format !== this.#format || parsed.width > this.#width || parsed.height > this.#height) {
      this.#skipped++
      return "skipped"
    }
    const size = parsed.idat.reduce((n, d) => n + d.length + 16, 38)
    if (this.#bytes + size > this.maxBytes) return "full"
    const control = Buffer.alloc(26)
    const [num, den] = delayOf(delayMs)
    control.writeUInt32BE(this.#sequence++, 0)
    control.writeUInt32BE(parsed.width, 4)
    control.writeUInt32BE(parsed.height, 8)
    control.writeUInt16BE(num, 20)
    control.writeUInt16BE(den, 22)
    this.#part.write(chunk("fcTL", control))
    for (const data of parsed.idat) {
      if (this.#frames === 0) this.#part.write(chunk("IDAT", data))
      else {
        const numbered = Buffer.alloc(4 + data.length)
        numbered.writeUInt32BE(this.#sequence++, 0)
        data.copy(numbered, 4)
        this.#part.write(chunk("fdAT", numbered))
      }
    }
    this.#frames++
    this.#bytes += size
    this.#durationMs += (num * 1000) / den
    return "added"
  }

  /** Writes the finished image to `file` (the part is removed); why it could not be, when it could not. */
  async finish(file: string, chapters: string): Promise<string | undefined> {
    await new Promise<void>((resolve) => this.#part.end(() => resolve()))
    try {
      if (this.#broken !== undefined) return this.#broken
      if (this.#header === undefined || this.#frames === 0) return "no frame was shown"
      const animation = Buffer.alloc(8)
      animation.writeUInt32BE(this.#frames, 0) // num_plays 0: it loops
      const text = Buffer.concat([Buffer.from("Stagewright chapters\0\0\0\0\0", "latin1"), Buffer.from(chapters, "utf8")])
      const out = createWriteStream(file, { mode: 0o600 })
      out.write(Buffer.concat([SIGNATURE, chunk("IHDR", this.#header), chunk("acTL", animation)]))
      await pipeline(createReadStream(this.part), out, { end: false })
      await new Promise<void>((resolve, reject) => {
        out.on("error", reject)
        out.end(Buffer.concat([chunk("iTXt", text), chunk("IEND", Buffer.alloc(0))]), () => resolve())
      })
      return undefined
    } catch (error) {
      await rm(file, { force: true })
      return `the image could not be written: ${error instanceof Error ? error.message : String(error)}`
    } finally {
      await rm(this.part, { force: true })
    }
  }
}
