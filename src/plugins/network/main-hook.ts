/**
 * The network plugin's main-process hook: the requests the main process makes itself — Node's global
 * `fetch`, `http`/`https` `request` and `get`, and Electron's `net.fetch` / `net.request` — recorded, while
 * a capture runs, on `globalThis.__stagewright_net` (bounded: 300 entries and 16 MiB of bodies, each body
 * cut at 1 MiB; the oldest are dropped and counted). It is serialized and run in the app's main process
 * with the `electron` module as its only input, so it is self-contained (no imports, no outer helpers).
 *
 * Observation never changes what the app gets:
 * - fetch: the response is cloned and the clone read (up to the cut, then cancelled); the app reads the
 *   original as before.
 * - http/https/net.request: the request's `write`/`end` and the `emit` of the request and its response are
 *   wrapped, so no listener is added (a `response` listener would keep Node from discarding an unread
 *   response); the body is what the app itself reads.
 * - Headers named in the redaction list are recorded as `<redacted>`, here, before they leave the process.
 *
 * What it cannot see: a `fetch`/`request` the app took a reference to before the hook ran (`const { request }
 * = require('http')` at start-up; ES module imports of node:http are resynchronised, see
 * syncBuiltinESMExports); requests made by Chromium on the app's behalf outside its pages.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"

/** A body as the hook keeps it: base64 of at most 1 MiB, the full size it saw, whether it was cut. */
export interface MainBody {
  readonly size: number
  readonly data: string
  readonly truncated: boolean
}

export interface MainRequest {
  readonly seq: number
  readonly at: number
  readonly via: "fetch" | "http" | "https" | "net.fetch" | "net.request"
  readonly method: string
  readonly url: string
  readonly requestHeaders: Record<string, string>
  readonly requestBody?: MainBody
  readonly status?: number
  readonly responseHeaders?: Record<string, string>
  readonly responseBody?: MainBody
  readonly failure?: string
  readonly durationMs?: number
  readonly done: boolean
}

export interface MainNetState {
  readonly start: (redact: ReadonlyArray<string>) => void
  readonly stop: () => void
  /** Removes and returns the finished entries (every entry with `all`), and the count dropped since the last take. */
  readonly take: (all: boolean) => { readonly entries: ReadonlyArray<MainRequest>; readonly dropped: number }
  /** What could be wrapped: fetch, http, https, net.fetch, net.request. */
  readonly hooked: ReadonlyArray<string>
}

export const installNetRecorder = (electron: ElectronModule): void => {
  const g = globalThis as MainValue
  const BODY_MAX = 1_048_576
  const CAPACITY = 300
  const BYTES_MAX = 16 * 1_048_576
  const load = (name: string): MainValue => {
    try {
      return process.getBuiltinModule ? process.getBuiltinModule(name) : (process as MainValue).mainModule?.require(name)
    } catch {
      return undefined
    }
  }
  let active = false
  let redact: Array<string> = []
  let seq = 0
  let dropped = 0
  let bytes = 0
  // Set while net.fetch runs its synchronous part: the stand-in's net.fetch calls the global fetch there.
  let insideNet = 0
  const entries: Array<MainValue> = []
  const hooked: Array<string> = []

  const headersOf = (raw: MainValue): Record<string, string> => {
    const out: Record<string, string> = {}
    if (raw === null || raw === undefined) return out
    const put = (name: string, value: unknown) => {
      if (value === undefined || value === null) return
      const key = String(name).toLowerCase()
      const text = Array.isArray(value) ? value.map(String).join(key === "set-cookie" ? "\n" : ", ") : String(value)
      out[key] = redact.includes(key) ? "<redacted>" : out[key] !== undefined ? `${out[key]}, ${text}` : text
    }
    if (typeof raw.forEach === "function" && typeof raw.get === "function") raw.forEach((value: string, name: string) => put(name, value))
    else if (Array.isArray(raw)) for (const pair of raw) put(pair[0], pair[1])
    else for (const name of Object.keys(raw)) put(name, raw[name])
    return out
  }
  const newBody = () => ({ size: 0, kept: 0, chunks: [] as Array<Buffer>, truncated: false })
  const add = (body: ReturnType<typeof newBody>, chunk: MainValue, encoding?: string) => {
    if (chunk === null || chunk === undefined || typeof chunk === "function") return
    let buffer: Buffer | undefined
    if (typeof chunk === "string") buffer = Buffer.from(chunk, (encoding as BufferEncoding) || "utf8")
    else if (ArrayBuffer.isView(chunk)) buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    else if (chunk instanceof ArrayBuffer) buffer = Buffer.from(chunk)
    if (buffer === undefined) return
    body.size += buffer.length
    const room = BODY_MAX - body.kept
    if (room <= 0) {
      body.truncated = true
      return
    }
    const part = buffer.length > room ? buffer.subarray(0, room) : buffer
    body.chunks.push(Buffer.from(part))
    body.kept += part.length
    if (part.length < buffer.length) body.truncated = true
  }
  const seal = (body: ReturnType<typeof newBody>) => {
    const data = Buffer.concat(body.chunks)
    body.chunks = []
    bytes += data.length
    return { size: body.size, data: data.toString("base64"), truncated: body.truncated, kept: data.length }
  }
  const weight = (e: MainValue) => (e.requestBody?.kept ?? 0) + (e.responseBody?.kept ?? 0)
  const trim = () => {
    while (entries.length > CAPACITY || (bytes > BYTES_MAX && entries.length > 1)) {
      const old = entries.shift()
      bytes -= weight(old)
      dropped++
    }
  }
  const begin = (via: string, method: string, url: string, requestHeaders: Record<string, string>): MainValue => {
    const entry: MainValue = { seq: ++seq, at: Date.now(), via, method: String(method || "GET").toUpperCase(), url: String(url), requestHeaders, done: false }
    entries.push(entry)
    trim()
    return entry
  }
  const finish = (entry: MainValue, failure?: unknown) => {
    if (entry.done) return
    entry.done = true
    entry.durationMs = Date.now() - entry.at
    if (failure !== undefined) entry.failure = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure)
    trim()
  }

  // ---- fetch (Node's global fetch, Electron's net.fetch) ----
  const requestBody = (raw: unknown) => {
    const body = newBody()
    if (typeof raw === "string") add(body, raw)
    else if (raw instanceof URLSearchParams) add(body, raw.toString())
    else if (raw instanceof ArrayBuffer || ArrayBuffer.isView(raw)) add(body, raw)
    else if (raw !== undefined && raw !== null) return undefined // Blob, FormData, a stream: not read here
    return body.size > 0 ? seal(body) : undefined
  }
  const observeFetch = (entry: MainValue, response: MainValue) => {
    entry.status = response.status
    entry.responseHeaders = headersOf(response.headers)
    const body = newBody()
    let reader: MainValue
    try {
      reader = response.clone().body?.getReader()
    } catch {
      reader = undefined
    }
    if (!reader) {
      finish(entry)
      return
    }
    const done = (failure?: unknown) => {
      entry.responseBody = seal(body)
      finish(entry, failure)
    }
    const pump = (): Promise<void> =>
      reader.read().then(
        (step: { done: boolean; value?: Uint8Array }) => {
          if (step.done) return done()
          add(body, step.value)
          if (body.truncated || body.kept >= BODY_MAX) {
            body.truncated = body.truncated || body.kept >= BODY_MAX
            reader.cancel().catch(() => undefined)
            return done()
          }
          return pump()
        },
        (error: unknown) => done(error)
      )
    void pump()
  }
  const wrapFetch = (owner: MainValue, key: string, via: "fetch" | "net.fetch") => {
    const original = owner?.[key]
    if (typeof original !== "function" || original.__stagewrightNet) return
    const wrapped = function (this: unknown, ...args: Array<MainValue>) {
      if (!active || (via === "fetch" && insideNet > 0)) return Reflect.apply(original, this, args)
      const [input, init] = args
      let entry: MainValue
      try {
        const isRequest = typeof Request === "function" && input instanceof Request
        const url = isRequest ? input.url : input instanceof URL ? input.href : String(input)
        const method = init?.method ?? (isRequest ? input.method : "GET")
        entry = begin(via, method, url, headersOf(new Headers(init?.headers ?? (isRequest ? input.headers : undefined))))
        const body = requestBody(init?.body)
        if (body) entry.requestBody = body
      } catch {
        return Reflect.apply(original, this, args)
      }
      let result: MainValue
      if (via === "net.fetch") insideNet++
      try {
        result = Reflect.apply(original, this, args)
      } catch (error) {
        finish(entry, error)
        throw error
      } finally {
        if (via === "net.fetch") insideNet--
      }
      return Promise.resolve(result).then(
        (response: MainValue) => {
          try {
            observeFetch(entry, response)
          } catch {
            finish(entry)
          }
          return response
        },
        (error: unknown) => {
          finish(entry, error)
          throw error
        }
      )
    }
    Object.defineProperty(wrapped, "__stagewrightNet", { value: true })
    owner[key] = wrapped
    hooked.push(via)
  }

  // ---- http/https ClientRequest, Electron's net.request ----
  const observeIncoming = (entry: MainValue, res: MainValue) => {
    entry.status = res.statusCode
    entry.responseHeaders = headersOf(res.headers)
    const body = newBody()
    const emit = res.emit
    res.emit = function (this: unknown, event: string, ...rest: Array<MainValue>) {
      if (!entry.done) {
        if (event === "data") add(body, rest[0])
        else if (event === "end" || event === "close") {
          entry.responseBody = seal(body)
          finish(entry)
        } else if (event === "error" || event === "aborted") {
          entry.responseBody = seal(body)
          finish(entry, rest[0] ?? event)
        }
      }
      return Reflect.apply(emit, this, [event, ...rest])
    }
  }
  const observeClientRequest = (req: MainValue, via: string, described: { method: string; url: string; headers: MainValue } | undefined) => {
    const url = described?.url ?? `${req.protocol}//${req.getHeader?.("host") ?? req.host}${req.path}`
    const set: Record<string, unknown> = { ...(described?.headers ?? {}) }
    const entry = begin(via, described?.method ?? req.method, url, {})
    const body = newBody()
    let ending = false
    let sealed = false
    const sealRequest = () => {
      if (sealed) return
      sealed = true
      entry.requestHeaders = headersOf(typeof req.getHeaders === "function" ? req.getHeaders() : set)
      if (body.size > 0) entry.requestBody = seal(body)
    }
    if (typeof req.getHeaders !== "function" && typeof req.setHeader === "function") {
      const setHeader = req.setHeader
      req.setHeader = function (this: unknown, name: string, value: unknown) {
        set[name] = value
        return Reflect.apply(setHeader, this, [name, value])
      }
    }
    const write = req.write
    req.write = function (this: unknown, ...args: Array<MainValue>) {
      if (!ending) add(body, args[0], typeof args[1] === "string" ? args[1] : undefined)
      return Reflect.apply(write, this, args)
    }
    const end = req.end
    req.end = function (this: unknown, ...args: Array<MainValue>) {
      add(body, args[0], typeof args[1] === "string" ? args[1] : undefined)
      ending = true
      try {
        return Reflect.apply(end, this, args)
      } finally {
        ending = false
        sealRequest()
      }
    }
    const emit = req.emit
    req.emit = function (this: unknown, event: string, ...rest: Array<MainValue>) {
      if (event === "response") {
        sealRequest()
        try {
          observeIncoming(entry, rest[0])
        } catch {
          finish(entry)
        }
      } else if (event === "error" && !entry.done) {
        sealRequest()
        finish(entry, rest[0])
      } else if ((event === "close" || event === "abort") && entry.status === undefined && !entry.done) {
        sealRequest()
        finish(entry, "closed before a response")
      }
      return Reflect.apply(emit, this, [event, ...rest])
    }
  }
  const wrapHttp = (mod: MainValue, via: "http" | "https") => {
    if (!mod || typeof mod.request !== "function" || mod.request.__stagewrightNet) return
    const original = mod.request
    const request = function (this: unknown, ...args: Array<MainValue>) {
      const req = Reflect.apply(original, this, args)
      if (active) {
        try {
          observeClientRequest(req, via, undefined)
        } catch {
          // never in the app's way
        }
      }
      return req
    }
    Object.defineProperty(request, "__stagewrightNet", { value: true })
    mod.request = request
    // Node's own get: request(...) then end(); through the wrapped request.
    mod.get = function (this: unknown, ...args: Array<MainValue>) {
      const req: MainValue = Reflect.apply(request, this, args)
      req.end()
      return req
    }
    hooked.push(via)
  }
  const wrapNetRequest = (net: MainValue) => {
    if (!net || typeof net.request !== "function" || net.request.__stagewrightNet) return
    const original = net.request
    const request = function (this: unknown, ...args: Array<MainValue>) {
      const req = Reflect.apply(original, this, args)
      if (active) {
        try {
          const o = args[0]
          const described =
            typeof o === "string"
              ? { method: "GET", url: o, headers: {} }
              : {
                  method: String(o?.method ?? "GET"),
                  url:
                    o?.url ??
                    `${o?.protocol ?? "http:"}//${o?.hostname ?? o?.host ?? "localhost"}${o?.port !== undefined && o?.hostname !== undefined ? `:${o.port}` : ""}${o?.path ?? "/"}`,
                  headers: o?.headers ?? {}
                }
          observeClientRequest(req, "net.request", described)
        } catch {
          // never in the app's way
        }
      }
      return req
    }
    Object.defineProperty(request, "__stagewrightNet", { value: true })
    net.request = request
    hooked.push("net.request")
  }

  wrapFetch(globalThis, "fetch", "fetch")
  wrapHttp(load("node:http"), "http")
  wrapHttp(load("node:https"), "https")
  wrapFetch(electron.net, "fetch", "net.fetch")
  wrapNetRequest(electron.net)
  try {
    load("node:module")?.syncBuiltinESMExports?.()
  } catch {
    // CommonJS apps need nothing more
  }

  const state: MainNetState = {
    hooked,
    start: (names) => {
      active = true
      redact = names.map((n) => String(n).toLowerCase())
      entries.length = 0
      bytes = 0
      dropped = 0
    },
    stop: () => {
      active = false
    },
    take: (all) => {
      const taken = entries.filter((e) => all || e.done)
      for (const e of taken) {
        entries.splice(entries.indexOf(e), 1)
        bytes -= weight(e)
      }
      const lost = dropped
      dropped = 0
      return {
        entries: taken.map(({ requestBody, responseBody, ...rest }) => ({
          ...rest,
          ...(requestBody ? { requestBody } : {}),
          ...(responseBody ? { responseBody } : {})
        })),
        dropped: lost
      }
    }
  }
  g.__stagewright_net = state
}
