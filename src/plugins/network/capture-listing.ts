/**
 * How a network capture reads to the agent: the listing of its requests and one request's details (headers,
 * bodies), text and structured facts alike (capture.ts runs the tool).
 */
import type { Fiber } from "effect"
import type { Request } from "playwright-core"
import { answer, bounded, cut, moreLine } from "../../tools/contract/respond.js"
import { ENTRIES_MAX, entryLine, type Body, type BodyFolder, type Entry, type Filter } from "./capture-store.js"

/** A session's capture: its settings, its entries and what it is still reading. */
export interface Capture {
  active: boolean
  readonly startedAt: number
  readonly filter: Filter
  readonly redact: ReadonlySet<string>
  readonly folder: BodyFolder
  readonly entries: Array<Entry>
  readonly byRequest: WeakMap<Request, Entry>
  /** Header and body reads still running (interrupted when the app goes away). */
  readonly work: Set<Fiber.RuntimeFiber<unknown, unknown>>
  n: number
  dropped: number
  /** Undefined when the main process's requests are seen; else why not. */
  main: string | undefined
  detach: () => void
}

const shortUrl = (url: string) => cut(url, 160)

const headerLines = (headers: Record<string, string> | undefined) => {
  const list = bounded(Object.entries(headers ?? {}), 40)
  if (list.total === 0) return ["  (none)"]
  return [...list.shown.map(([name, value]) => `  ${name}: ${cut(value, 300)}`), moreLine(list)]
}

const bodyLines = (label: string, body: Body | undefined) => {
  if (body === undefined) return [`${label}: none`]
  const head = `${label} (${body.size} B, ${body.mimeType}${body.truncated === true ? ", cut" : ""})`
  if (body.text !== undefined) return [`${head}:`, body.text]
  if (body.file !== undefined) return [`${head}: written to ${body.file}`]
  return [body.note !== undefined ? `${head}: ${body.note}` : `${head}: empty`]
}

export const details = (e: Entry) =>
  answer(
    [
      `${entryLine(e, (u) => u)}${e.durationMs !== undefined ? `, ${e.durationMs} ms` : ""}`,
      "Request headers:",
      ...headerLines(e.requestHeaders),
      ...bodyLines("Request body", e.requestBody),
      ...(e.responseHeaders !== undefined ? ["Response headers:", ...headerLines(e.responseHeaders)] : []),
      ...(e.status !== undefined ? bodyLines("Response body", e.responseBody) : [])
    ],
    { entry: e }
  )

const compact = (e: Entry) => ({
  n: e.n,
  source: e.source,
  method: e.method,
  url: e.url,
  type: e.type,
  ...(e.window !== undefined ? { window: e.window } : {}),
  ...(e.via !== undefined ? { via: e.via } : {}),
  ...(e.status !== undefined ? { status: e.status } : {}),
  ...(e.failure !== undefined ? { failure: e.failure } : {}),
  ...(e.responseBody !== undefined ? { size: e.responseBody.size } : {})
})

export const listing = (capture: Capture, shown: ReadonlyArray<Entry>, from: number, heading: string) => {
  const ordered = [...shown].sort((a, b) => a.startedAt - b.startedAt || a.n - b.n).filter((e) => e.n >= from)
  const list = bounded(ordered, 50)
  const mainLine = capture.main === undefined ? "Main-process requests: seen." : `Main-process requests: not seen (${capture.main}).`
  return answer(
    [
      heading,
      ...list.shown.map((e) => entryLine(e, shortUrl)),
      moreLine(list, `read with from: ${list.shown.at(-1)?.n ?? 0}`),
      capture.dropped > 0 ? `${capture.dropped} older requests were dropped (a capture keeps ${ENTRIES_MAX}).` : undefined,
      mainLine,
      list.shown.length > 0 ? `Details: { "action": "read", "entry": ${list.shown[0]!.n} }. Bodies: ${capture.folder.path}` : undefined
    ],
    {
      capturing: capture.active,
      entries: list.shown.map(compact),
      total: list.total,
      ...(list.omitted > 0 ? { omitted: list.omitted } : {}),
      dropped: capture.dropped,
      mainProcess: capture.main ?? "seen",
      folder: capture.folder.path
    }
  )
}
