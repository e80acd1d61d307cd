/**
 * Bounded ring buffers of what an app prints, throws and requests. Every entry gets a sequence
 * number, so a reader can ask for "what is new since cursor N" and never re-read old entries.
 */
import { clipText } from "./clip.js"

export class RingBuffer<T> {
  private readonly items: Array<{ readonly seq: number; readonly value: T }> = []
  private nextSeq = 1
  private droppedCount = 0

  constructor(readonly capacity: number) {}

  push(value: T): number {
    const seq = this.nextSeq++
    this.items.push({ seq, value })
    if (this.items.length > this.capacity) {
      this.items.shift()
      this.droppedCount++
    }
    return seq
  }

  /**
   * Entries with a sequence number above `cursor` (all kept entries when omitted). Read on every answer, so it
   * does not walk the buffer: the kept entries' numbers run on by one from the oldest, so the first new one's
   * index is known.
   */
  since(cursor = 0): ReadonlyArray<{ readonly seq: number; readonly value: T }> {
    const oldest = this.items[0]
    if (oldest === undefined) return []
    return this.items.slice(Math.max(0, cursor - oldest.seq + 1))
  }

  /** The cursor a reader passes next time to see only newer entries. */
  get cursor(): number {
    return this.nextSeq - 1
  }

  get dropped(): number {
    return this.droppedCount
  }

  get size(): number {
    return this.items.length
  }

  clear(): void {
    this.items.length = 0
  }
}

export interface ConsoleEntry {
  readonly at: number
  readonly source: "renderer" | "main"
  readonly window?: string
  /** The surface it came from: the window's page, or a frame / view / guest surface in it. */
  surface?: string
  readonly level: string
  readonly text: string
  /** `url:line` of the call that logged it (the line counted from 0, as Chromium gives it). */
  readonly location?: string
  /** Its column, counted from 0 (with `location`: where a source map finds the original line). */
  readonly column?: number
}

export interface ErrorEntry {
  readonly at: number
  /** "rejection": an unhandled promise rejection in the main process; "load-failed": a main-frame load that failed. */
  readonly kind: "pageerror" | "crash" | "unresponsive" | "main" | "rejection" | "load-failed"
  /** The window's id; a failed load's window is filled in once the driver has matched its URL to a window. */
  window?: string
  /** The surface it came from (a frame's, when its stack says so). */
  surface?: string
  readonly message: string
  readonly stack?: string
  /** A failed load: the URL that failed and Chromium's error name (ERR_CONNECTION_REFUSED) and number (-102). */
  readonly url?: string
  readonly error?: string
  readonly code?: number
}

export interface RequestEntry {
  readonly at: number
  readonly window?: string
  /** The surface that made it (the frame's, for a frame's request). */
  readonly surface?: string
  readonly method: string
  readonly url: string
  readonly resourceType: string
  status?: number
  failure?: string
  durationMs?: number
}

export const BUFFER_CAPACITY = { console: 1000, errors: 200, requests: 500 } as const

/**
 * The most characters of one console message or error message kept: the app writes them, and a thousand kept
 * messages of a megabyte each would hold a gigabyte in the server. What was cut says how long it was.
 */
export const MAX_ENTRY_CHARS = 10_000

/** A console message's or error's text as kept. */
export const keptText = (text: string): string => clipText(text, MAX_ENTRY_CHARS)

/**
 * An error's stack as kept: its message comes first and its frames (what source maps and the surface of the
 * script are read from) last, so a stack over the bound keeps its beginning and its end.
 */
export const keptStack = (stack: string): string => {
  if (stack.length <= MAX_ENTRY_CHARS) return stack
  const head = stack.slice(0, MAX_ENTRY_CHARS / 4)
  const tail = stack.slice(stack.length - (MAX_ENTRY_CHARS * 3) / 4)
  return `${head}… (${stack.length - head.length - tail.length} of ${stack.length} chars cut) …${tail}`
}
