/**
 * The stdio transport's bound on one message. The SDK's StdioServerTransport closes itself (and so the
 * server) when its read buffer passes 10 MiB, and offers no hook to do otherwise. So stdin goes through
 * this Transform first: a line (one JSON-RPC message) longer than the limit is discarded up to its
 * newline, never buffered whole, and reported (with the request id when it can be read from the line's
 * first or last bytes); every other line passes through unchanged, whole, so the SDK's buffer never holds
 * more than one line and a chunk.
 */
import { Transform, type TransformCallback } from "node:stream"

/** The longest stdio message accepted, in bytes of UTF-8 without its newline: 10 MiB, the SDK's own limit. */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024

export interface OversizedMessage {
  /** Bytes of the discarded line (without its newline). */
  readonly bytes: number
  /** The JSON-RPC id of the request, when it could be read; otherwise absent. */
  readonly id: string | number | undefined
}

/** Bytes kept from each end of a discarded line, to find its id. */
const EDGE = 512
const NEWLINE = Buffer.from("\n")
const ID = String.raw`"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`
/** `{"id": ...` or `{"jsonrpc":"2.0","id": ...` at the start of the line. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?` + ID)
/** `..., "id": ...}` at the end (where the SDK's clients put it): the last member of the top-level object. */
const ID_LAST = new RegExp(String.raw`,\s*` + ID + String.raw`\s*\}\s*$`)

const readId = (head: Buffer, tail: Buffer): string | number | undefined => {
  const found = ID_FIRST.exec(head.toString("utf8"))?.[1] ?? ID_LAST.exec(tail.toString("utf8"))?.[1]
  if (found === undefined) return undefined
  try {
    const id: unknown = JSON.parse(found)
    return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined
  } catch {
    return undefined
  }
}

export class LineLimiter extends Transform {
  private pending: Array<Buffer> = []
  private pendingBytes = 0
  private discarding = false
  private discarded = 0
  private head = Buffer.alloc(0)
  private tail = Buffer.alloc(0)

  constructor(
    private readonly maxBytes: number,
    private readonly onOversized: (message: OversizedMessage) => void
  ) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const out: Array<Buffer> = []
    let start = 0
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start)
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline)
      if (!this.discarding && this.pendingBytes + piece.length > this.maxBytes) {
        this.discarding = true
        for (const kept of this.pending) this.keepEdges(kept)
        this.pending = []
        this.pendingBytes = 0
      }
      if (this.discarding) this.keepEdges(piece)
      else {
        this.pending.push(piece)
        this.pendingBytes += piece.length
      }
      if (newline === -1) break
      if (this.discarding) this.reportDiscarded()
      else out.push(...this.pending, NEWLINE)
      this.pending = []
      this.pendingBytes = 0
      start = newline + 1
    }
    if (out.length > 0) this.push(Buffer.concat(out))
    done()
  }

  override _flush(done: TransformCallback): void {
    if (this.discarding) this.reportDiscarded()
    else if (this.pendingBytes > 0) this.push(Buffer.concat(this.pending))
    done()
  }

  private keepEdges(piece: Buffer) {
    this.discarded += piece.length
    if (this.head.length < EDGE) this.head = Buffer.concat([this.head, piece.subarray(0, EDGE - this.head.length)])
    const tail = Buffer.concat([this.tail, piece.subarray(Math.max(0, piece.length - EDGE))])
    this.tail = tail.subarray(Math.max(0, tail.length - EDGE))
  }

  private reportDiscarded() {
    const message = { bytes: this.discarded, id: readId(this.head, this.tail) }
    this.discarding = false
    this.discarded = 0
    this.head = Buffer.alloc(0)
    this.tail = Buffer.alloc(0)
    this.onOversized(message)
  }
}
