/**
 * What a network capture keeps: one entry a request (the windows' and the main process's), its headers
 * with the secret ones redacted, and its bodies — up to INLINE_MAX bytes of text in the entry, larger ones
 * (and binary ones) written to a file in the capture's folder under the output folder (at most FILE_MAX a
 * body, FILES_MAX a capture). Secret-named fields of any body are redacted too, inline and in files (redact.ts).
 */
import { mkdirSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import { outputPath } from "../../layers/config/paths.js"
import { redactText } from "./redact.js"

export const INLINE_MAX = 8 * 1024
export const FILE_MAX = 10 * 1024 * 1024
const FILES_MAX = 200 * 1024 * 1024
/** Entries a capture keeps (the oldest are dropped, counted). */
export const ENTRIES_MAX = 1_000

export { REDACTED, redactHeaders, redactUrl } from "./redact.js"
export const DEFAULT_REDACTED_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie"] as const

export const RESOURCE_TYPES = [
  "document",
  "stylesheet",
  "image",
  "media",
  "font",
  "script",
  "texttrack",
  "xhr",
  "fetch",
  "eventsource",
  "websocket",
  "manifest",
  "other",
  "main"
] as const

export interface Body {
  /** Bytes the app sent or got. */
  readonly size: number
  readonly mimeType: string
  /** The body's text, when it is text of at most INLINE_MAX bytes. */
  readonly text?: string
  /** Where the body was written, when it is larger or binary. */
  readonly file?: string
  /** Only the first bytes were kept (the file or the main process's cut). */
  readonly truncated?: boolean
  /** Why nothing was kept. */
  readonly note?: string
}

export interface Entry {
  readonly n: number
  readonly source: "window" | "main"
  /** The window (w1) of a window's request. */
  readonly window?: string
  /** How the main process sent it: fetch, http, https, net.fetch, net.request. */
  readonly via?: string
  readonly method: string
  readonly url: string
  /** Playwright's resource type; "main" for the main process's requests. */
  readonly type: string
  readonly startedAt: number
  status?: number
  failure?: string
  durationMs?: number
  requestHeaders: Record<string, string>
  responseHeaders?: Record<string, string>
  requestBody?: Body
  responseBody?: Body
}

export interface Filter {
  readonly url?: (url: string) => boolean
  readonly methods?: ReadonlySet<string>
  readonly types?: ReadonlySet<string>
}

export const matches = (filter: Filter, method: string, url: string, type: string) =>
  (filter.methods === undefined || filter.methods.has(method.toUpperCase())) &&
  (filter.types === undefined || filter.types.has(type)) &&
  (filter.url === undefined || filter.url(url))

const isText = (mimeType: string) =>
  /^(text\/|multipart\/|application\/(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql)|[^;]*\+(json|xml))/i.test(mimeType)

/** Where a capture writes its large bodies, and how much it wrote. */
export interface BodyFolder {
  readonly path: string
  written: number
  /** Writes not finished yet. */
  readonly pending: Set<Promise<void>>
}

/**
 * A body as the entry keeps it: text inline when short, else written to `<folder>/<n>-<which>.json|txt|bin`.
 * `folder` is a folder inside the output folder; the file name is ours.
 */
export const keepBody = (folder: BodyFolder, n: number, which: "request" | "response", data: Buffer, mimeType: string, truncated = false): Body => {
  const size = data.length
  const type = mimeType.split(";")[0]!.trim().toLowerCase()
  const base = { size, mimeType: type || "application/octet-stream", ...(truncated ? { truncated: true } : {}) }
  if (size === 0) return base
  // Redacted by what the body parses as, whatever its type says: a body that decodes as text (no NUL, no
  // invalid UTF-8) is text; only the kept part is redacted and kept (a cut body is scrubbed, not parsed).
  const cut = data.length > FILE_MAX ? data.subarray(0, FILE_MAX) : data
  const decoded = cut.toString("utf8")
  // eslint-disable-next-line no-control-regex
  const text = isText(type) || !/[\u0000\ufffd]/.test(decoded) ? redactText(decoded, type) : undefined
  if (text !== undefined && Buffer.byteLength(text) <= INLINE_MAX) return { ...base, text }
  const kept = text !== undefined ? Buffer.from(text) : cut
  const bytes = data
  if (folder.written + kept.length > FILES_MAX) return { ...base, note: `not kept: the capture's ${FILES_MAX / 1024 / 1024} MiB for bodies are used` }
  const ext = /json/.test(type) ? ".json" : text !== undefined ? ".txt" : ".bin"
  mkdirSync(folder.path, { recursive: true })
  const file = outputPath(folder.path, `${n}-${which}${ext}`, ext)
  if (typeof file !== "string") return { ...base, note: "not kept: no file could be written" }
  folder.written += kept.length
  const write = writeFile(file, kept).catch(() => undefined)
  folder.pending.add(write)
  void write.then(() => folder.pending.delete(write))
  return { ...base, file, ...(cut.length < bytes.length || truncated ? { truncated: true } : {}) }
}

/** An entry's compact line: #n METHOD url → status type size (window). */
export const entryLine = (e: Entry, cutUrl: (url: string) => string) => {
  const outcome = e.failure !== undefined ? `FAILED ${e.failure}` : e.status !== undefined ? String(e.status) : "pending"
  const size = e.responseBody !== undefined ? ` ${e.responseBody.size} B` : ""
  const where = e.source === "main" ? `main ${e.via ?? ""}`.trim() : `${e.type}, ${e.window ?? "?"}`
  return `#${e.n} ${e.method} ${cutUrl(e.url)} → ${outcome}${size} (${where})`
}
