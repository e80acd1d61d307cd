/**
 * electron_network_capture: the content of the app's traffic — every window's requests (the context's
 * request events, public API) and the main process's own (the main-hook.ts recorder, drained at each read),
 * with headers (secret ones redacted) and bodies (capture-store.ts). One capture a session (sessionLocal);
 * a new start replaces the last one's entries (its files stay).
 */
import { Effect, Fiber, Schema } from "effect"
import type { Request } from "playwright-core"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { sessionLocal, type AppSession, type ElectronModule } from "../../layers/driver/ElectronDriver.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { answer, cut } from "../../tools/contract/respond.js"
import { details, listing, type Capture } from "./capture-listing.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { pluginSettings } from "../Plugin.js"
import { NetworkConfig } from "./config.js"
import {
  DEFAULT_REDACTED_HEADERS,
  ENTRIES_MAX,
  FILE_MAX,
  INLINE_MAX,
  keepBody,
  matches,
  redactHeaders,
  redactUrl,
  RESOURCE_TYPES,
  type Body,
  type Entry,
  type Filter
} from "./capture-store.js"
import type { MainBody, MainNetState, MainRequest } from "./main-hook.js"
import { matchesUrl, Pattern, toMatcher } from "./routes.js"
import { callHandle } from "../../tools/contract/handle.js"

/** Responses that may never end: their bodies are not read. */
const STREAMS = new Set(["media", "eventsource", "websocket"])

const captures = sessionLocal<{ current?: Capture | undefined }>("network/capture", () => ({}))

const push = (capture: Capture, entry: Entry) => {
  capture.entries.push(entry)
  if (capture.entries.length > ENTRIES_MAX) {
    capture.entries.shift()
    capture.dropped++
  }
}

const track = (capture: Capture, work: Effect.Effect<void, unknown>) => {
  const fiber = Effect.runFork(work.pipe(Effect.timeout("30 seconds"), Effect.ignore))
  capture.work.add(fiber)
  fiber.addObserver(() => capture.work.delete(fiber))
}

const attempt = <A>(what: () => Promise<A>) => Effect.tryPromise(what)

/** Listens to the context's requests; returns what removes the listeners. */
const listen = (session: AppSession, capture: Capture) => {
  const onRequest = (request: Request) => {
    const method = request.method()
    const type = request.resourceType()
    if (!capture.active || !matches(capture.filter, method, request.url(), type)) return
    let window: string | undefined
    try {
      window = session.windowOf(request.frame().page())?.id
    } catch {
      window = undefined // a service worker's request has no frame
    }
    const n = ++capture.n
    const posted = request.postDataBuffer()
    const headers = request.headers()
    const entry: Entry = {
      n,
      source: "window",
      ...(window !== undefined ? { window } : {}),
      method,
      url: redactUrl(request.url()),
      type,
      startedAt: Date.now(),
      requestHeaders: redactHeaders(headers, capture.redact),
      ...(posted !== null ? { requestBody: keepBody(capture.folder, n, "request", posted, headers["content-type"] ?? "") } : {})
    }
    capture.byRequest.set(request, entry)
    push(capture, entry)
  }
  const settle = (request: Request, failed: boolean) => {
    const entry = capture.byRequest.get(request)
    if (entry === undefined) return
    const ended = request.timing().responseEnd
    entry.durationMs = ended >= 0 ? Math.round(ended) : Date.now() - entry.startedAt
    if (failed) entry.failure = request.failure()?.errorText ?? "failed"
    track(
      capture,
      Effect.gen(function* () {
        const sent = yield* attempt(() => request.allHeaders()).pipe(Effect.timeout("5 seconds"), Effect.option)
        if (sent._tag === "Some") entry.requestHeaders = redactHeaders(sent.value, capture.redact)
        if (failed) return
        const response = yield* attempt(() => request.response())
        if (response === null) return
        entry.status = response.status()
        const got = yield* attempt(() => response.allHeaders()).pipe(
          Effect.timeout("5 seconds"),
          Effect.orElseSucceed(() => response.headers())
        )
        entry.responseHeaders = redactHeaders(got, capture.redact)
        const mimeType = got["content-type"] ?? ""
        if (STREAMS.has(entry.type)) {
          entry.responseBody = { size: 0, mimeType, note: "not kept: a stream" }
          return
        }
        const length = Number(got["content-length"])
        if (length > FILE_MAX) {
          entry.responseBody = { size: length, mimeType, note: `not kept: over ${FILE_MAX / 1024 / 1024} MiB` }
          return
        }
        const body = yield* attempt(() => response.body()).pipe(Effect.option)
        entry.responseBody =
          body._tag === "Some"
            ? keepBody(capture.folder, entry.n, "response", body.value, mimeType)
            : { size: 0, mimeType, note: "no body (a redirect, or not available)" }
      })
    )
  }
  const onFinished = (request: Request) => settle(request, false)
  const onFailed = (request: Request) => settle(request, true)
  const onClose = () => {
    capture.active = false
    Effect.runFork(Fiber.interruptAll(capture.work))
  }
  session.context.on("request", onRequest)
  session.context.on("requestfinished", onFinished)
  session.context.on("requestfailed", onFailed)
  session.context.once("close", onClose)
  return () => {
    session.context.off("request", onRequest)
    session.context.off("requestfinished", onFinished)
    session.context.off("requestfailed", onFailed)
    session.context.off("close", onClose)
  }
}

// ---- the main process ----

// These three run in the main process (serialized): self-contained.
const startMain = (_electron: ElectronModule, redact: ReadonlyArray<string>) => {
  const state = (globalThis as { __stagewright_net?: MainNetState }).__stagewright_net
  if (state === undefined) return "the network hook is not installed in the main process"
  state.start(redact)
  return state.hooked.length > 0 ? undefined : "nothing to wrap (no fetch, http or net found)"
}

const stopMain = (_electron: ElectronModule) => (globalThis as { __stagewright_net?: MainNetState }).__stagewright_net?.stop()

const takeMain = (_electron: ElectronModule, all: boolean) => (globalThis as { __stagewright_net?: MainNetState }).__stagewright_net?.take(all) ?? null

const mainBody = (
  capture: Capture,
  n: number,
  which: "request" | "response",
  body: MainBody | undefined,
  headers: Record<string, string> | undefined
): Body | undefined =>
  body === undefined ? undefined : keepBody(capture.folder, n, which, Buffer.from(body.data, "base64"), headers?.["content-type"] ?? "", body.truncated)

/** Moves the main process's finished requests (all of them with `all`) into the capture. */
const drainMain = (capture: Capture, all: boolean) =>
  Effect.gen(function* () {
    if (capture.main !== undefined) return
    const taken = yield* (yield* callHandle)
      .evaluateMain("read the main process's requests", takeMain, all)
      .pipe(Effect.catchAll((error) => Effect.sync(() => void (capture.main = error.message)).pipe(Effect.as(null))))
    if (taken === null) return
    capture.dropped += taken.dropped
    for (const r of taken.entries as ReadonlyArray<MainRequest>) {
      if (!matches(capture.filter, r.method, r.url, "main")) continue
      const n = ++capture.n
      const requestBody = mainBody(capture, n, "request", r.requestBody, r.requestHeaders)
      const responseBody = mainBody(capture, n, "response", r.responseBody, r.responseHeaders)
      push(capture, {
        n,
        source: "main",
        via: r.via,
        method: r.method,
        url: redactUrl(r.url),
        type: "main",
        startedAt: r.at,
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.failure !== undefined ? { failure: r.failure } : {}),
        ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
        requestHeaders: redactHeaders(r.requestHeaders, capture.redact),
        ...(r.responseHeaders !== undefined ? { responseHeaders: redactHeaders(r.responseHeaders, capture.redact) } : {}),
        ...(requestBody !== undefined ? { requestBody } : {}),
        ...(responseBody !== undefined ? { responseBody } : {})
      })
    }
  })

/** Lets the reads in flight finish (briefly) so the answer shows finished requests whole. */
const settleWork = (capture: Capture) =>
  Effect.gen(function* () {
    yield* Fiber.awaitAll([...capture.work]).pipe(Effect.timeout("5 seconds"), Effect.ignore)
    yield* Effect.promise(() => Promise.all([...capture.folder.pending])).pipe(Effect.timeout("5 seconds"), Effect.ignore)
  })

// ---- answers ----

const Count = Schema.Number.pipe(Schema.int(), Schema.positive())
// Items checked by the handler (filterOf): a bare string costs the host less than a described one.
const Names = Schema.Array(Schema.String).pipe(Schema.maxItems(14))

export const capture = defineTool({
  name: "electron_network_capture",
  description:
    "Capture window and main-process HTTP requests with headers (Authorization, cookies, configured ones redacted) and bodies (large ones to files): start (url, methods, types filters), read (list, or entry: one in full), stop.",
  type: "debug",
  readOnly: false,
  touchesPage: false,
  errors: ["APP_NOT_RUNNING", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    action: Schema.Literal("start", "read", "stop"),
    url: Schema.optional(Pattern),
    methods: Schema.optional(Names).annotations({ description: "GET, POST…" }),
    types: Schema.optional(Names).annotations({ description: "fetch, xhr, document, script, image…; main: the main process's" }),
    entry: Schema.optional(Count).annotations({ description: "read: this entry's headers and bodies" }),
    from: Schema.optional(Count).annotations({ description: "read: list from this entry" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const state = captures.of(session)
      const current = state.current
      const filter = (yield* filterOf(input)) ?? {}
      if (input.action === "start") {
        if (current?.active === true)
          return yield* new InvalidArgument({ message: "action: a capture is already running", hint: 'Read it ({ "action": "read" }) or stop it first.' })
        const config = yield* ServerConfig
        const folder = outputPath(config.outputDir, timestampedName("network-capture", ""), "")
        if (typeof folder !== "string") return yield* folder
        const settings = yield* pluginSettings("network", NetworkConfig)
        const redact = new Set<string>([...DEFAULT_REDACTED_HEADERS, ...settings.redactHeaders.map((h) => h.toLowerCase())])
        const next: Capture = {
          active: true,
          startedAt: Date.now(),
          filter,
          redact,
          folder: { path: folder, written: 0, pending: new Set() },
          entries: [],
          byRequest: new WeakMap(),
          work: new Set(),
          n: 0,
          dropped: 0,
          main: filter.types !== undefined && !filter.types.has("main") ? "not asked for (types)" : undefined,
          detach: () => undefined
        }
        if (next.main === undefined) {
          next.main = yield* (yield* callHandle)
            .evaluateMain("start capturing main-process requests", startMain, [...redact])
            .pipe(Effect.catchAll((error) => Effect.succeed(error.message)))
        }
        current?.detach()
        next.detach = listen(session, next)
        state.current = next
        return answer(
          [
            `Capturing HTTP requests${input.url !== undefined ? ` matching ${input.url}` : ""}${input.methods !== undefined ? `, methods ${input.methods.join(", ")}` : ""}${input.types !== undefined ? `, types ${input.types.join(", ")}` : ""}.`,
            `Redacted headers: ${[...redact].join(", ")}.`,
            next.main === undefined ? "The main process's own requests are captured too." : `Main-process requests are not captured: ${next.main}.`,
            `Read with { "action": "read" }; bodies over ${INLINE_MAX / 1024} KiB go to ${folder}.`
          ],
          { capturing: true, redacted: [...redact], mainProcess: next.main ?? "seen", folder }
        )
      }
      if (current === undefined)
        return yield* new InvalidArgument({ message: `action: no capture has been started`, hint: 'Start one with { "action": "start" }.' })
      const c = state.current!
      if (input.action === "stop") {
        if (!c.active)
          return yield* new InvalidArgument({
            message: "action: the capture is already stopped",
            hint: 'Read it with { "action": "read" }, or start a new one.'
          })
        c.detach()
        if (c.main === undefined) yield* (yield* callHandle).evaluateMain("stop capturing main-process requests", stopMain, undefined).pipe(Effect.ignore)
        yield* drainMain(c, true)
        c.active = false
        yield* settleWork(c)
        return listing(
          c,
          c.entries,
          1,
          `Stopped. ${c.entries.length} request(s) captured (${c.entries.filter((e) => e.source === "main").length} from the main process).`
        )
      }
      if (c.active) yield* drainMain(c, false)
      yield* settleWork(c)
      if (input.entry !== undefined) {
        const found = c.entries.find((e) => e.n === input.entry)
        if (found === undefined) {
          return yield* new InvalidArgument({
            message: `entry: no entry ${input.entry} in this capture`,
            hint: c.entries.length > 0 ? `Entries run from ${c.entries[0]!.n} to ${c.n}.` : "Nothing was captured yet."
          })
        }
        return details(found)
      }
      const shown = c.entries.filter((e) => matches(filter, e.method, e.url, e.type))
      return listing(c, shown, input.from ?? 1, `${shown.length} request(s)${c.active ? " so far (capturing)" : " (stopped)"}:`)
    })
})

const filterOf = (input: {
  readonly url?: string | undefined
  readonly methods?: ReadonlyArray<string> | undefined
  readonly types?: ReadonlyArray<string> | undefined
}) =>
  Effect.gen(function* () {
    const badMethod = input.methods?.find((m) => !/^[A-Za-z]{1,16}$/.test(m))
    if (badMethod !== undefined)
      return yield* new InvalidArgument({ message: `methods: ${JSON.stringify(cut(badMethod, 40))} is not an HTTP method`, hint: 'Example: ["GET", "POST"].' })
    const badType = input.types?.find((t) => !(RESOURCE_TYPES as ReadonlyArray<string>).includes(t))
    if (badType !== undefined)
      return yield* new InvalidArgument({
        message: `types: ${JSON.stringify(cut(badType, 40))} is not a resource type`,
        hint: `One of ${RESOURCE_TYPES.join(", ")}.`
      })
    const matcher = input.url !== undefined ? yield* toMatcher(input.url, "url") : undefined
    const filter: Filter = {
      ...(matcher !== undefined ? { url: (url: string) => matchesUrl(matcher, url) } : {}),
      ...(input.methods !== undefined ? { methods: new Set(input.methods.map((m) => m.toUpperCase())) } : {}),
      ...(input.types !== undefined ? { types: new Set<string>(input.types) } : {})
    }
    return filter
  })
