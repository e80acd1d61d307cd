/**
 * What a network capture keeps: one entry a request (the windows' and the main process's), its headers
 * with the secret ones redacted, and its bodies — up to INLINE_MAX bytes of text in the entry, larger ones
 * (and binary ones) written to a file in the capture's folder under the output folder (at most FILE_MAX a
 * body, FILES_MAX a capture). Password-like fields of JSON and form bodies are redacted too.
 */
import { mkdirSync } from "node:fs"
import { writeFile } from "node:fs/promises"
import { outputPath } from "../../layers/config/paths.js"

export const INLINE_MAX = 8 * 1024
export const FILE_MAX = 10 * 1024 * 1024
const FILES_MAX = 200 * 1024 * 1024
/** Entries a capture keeps (the oldest are dropped, counted). */
export const ENTRIES_MAX = 1_000
/** Bodies over this size are stored as they are: redacting fields means parsing them. */
const FIELDS_MAX = 1024 * 1024

export const REDACTED = "<redacted>"
export const DEFAULT_REDACTED_HEADERS = ["authorization", "proxy-authorization", "cookie", "set-cookie"] as const
const SECRET_FIELD = /^(password|passwd|pass|pwd|secret|client_secret|token|access_token|refresh_token|id_token|api_key|apikey)$/i

export const RESOURCE_TYPES = ["document", "stylesheet", "image", "media", "font", "script", "texttrack", "xhr", "fetch", "eventsource", "websocket", "manifest", "other", "main"] as const

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

/** Header names lower-cased, the redacted ones' values replaced. */
export const redactHeaders = (headers: Readonly<Record<string, string>>, redact: ReadonlySet<string>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), redact.has(name.toLowerCase()) ? REDACTED : value]))

const isText = (mimeType: string) => /^(text\/|application\/(json|javascript|ecmascript|xml|x-www-form-urlencoded|graphql)|[^;]*\+(json|xml))/i.test(mimeType)

/** Password-like fields of a JSON or form body as <redacted>; the text unchanged when there are none. */
export const redactFields = (text: string, mimeType: string): string => {
  if (text.length > FIELDS_MAX) return text
  if (/json/i.test(mimeType)) {
    let found = false
    const walk = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(walk)
      if (value === null || typeof value !== "object") return value
      return Object.fromEntries(
        Object.entries(value).map(([key, v]) => {
          if (SECRET_FIELD.test(key) && (typeof v === "string" || typeof v === "number")) {
            found = true
            return [key, REDACTED]
          }
          return [key, walk(v)]
        })
      )
    }
    try {
      const redacted = walk(JSON.parse(text))
      return found ? JSON.stringify(redacted) : text
    } catch {
      return text
    }
  }
  if (/x-www-form-urlencoded/i.test(mimeType)) {
    const params = new URLSearchParams(text)
    const secret = [...params.keys()].filter((key) => SECRET_FIELD.test(key))
    for (const key of secret) params.set(key, REDACTED)
    return secret.length > 0 ? params.toString() : text
  }
  return text
}

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
export const keepBody = (folder: BodyFolder, n: number, which: "request" | "response", data: Buffer, mimeType: string, cut = false): Body => {
  const size = data.length
  const type = mimeType.split(";")[0]!.trim().toLowerCase()
  const base = { size, mimeType: type || "application/octet-stream", ...(cut ? { truncated: true } : {}) }
  if (size === 0) return base
  const text = isText(type) ? redactFields(data.toString("utf8"), type) : undefined
  if (text !== undefined && Buffer.byteLength(text) <= INLINE_MAX) return { ...base, text }
  const bytes = text !== undefined ? Buffer.from(text) : data
  const kept = bytes.length > FILE_MAX ? bytes.subarray(0, FILE_MAX) : bytes
  if (folder.written + kept.length > FILES_MAX) return { ...base, note: `not kept: the capture's ${FILES_MAX / 1024 / 1024} MiB for bodies are used` }
  const ext = /json/.test(type) ? ".json" : text !== undefined ? ".txt" : ".bin"
  mkdirSync(folder.path, { recursive: true })
  const file = outputPath(folder.path, `${n}-${which}${ext}`, ext)
  if (typeof file !== "string") return { ...base, note: "not kept: no file could be written" }
  folder.written += kept.length
  const write = writeFile(file, kept).catch(() => undefined)
  folder.pending.add(write)
  void write.then(() => folder.pending.delete(write))
  return { ...base, file, ...(kept.length < bytes.length || cut ? { truncated: true } : {}) }
}

/** An entry's compact line: #n METHOD url → status type size (window). */
export const entryLine = (e: Entry, cutUrl: (url: string) => string) => {
  const outcome = e.failure !== undefined ? `FAILED ${e.failure}` : e.status !== undefined ? String(e.status) : "pending"
  const size = e.responseBody !== undefined ? ` ${e.responseBody.size} B` : ""
  const where = e.source === "main" ? `main ${e.via ?? ""}`.trim() : `${e.type}, ${e.window ?? "?"}`
  return `#${e.n} ${e.method} ${cutUrl(e.url)} → ${outcome}${size} (${where})`
}
