/**
 * HAR: record the traffic of every window to a HAR 1.2 file under the output folder, and replay a HAR
 * so the app runs without its backend. Recording listens to the context's finished requests (public
 * API): playwright-core 1.65's own recorders do not fit an Electron context that already exists —
 * `recordHar` is a context-creation option, and `routeFromHAR(…, { update: true })` writes its file only
 * when the context closes, i.e. when the app quits. Replay is `BrowserContext.routeFromHAR`.
 */
import { Effect, Schema } from "effect"
import { existsSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import type { Request } from "playwright-core"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { readRegularFile } from "../../layers/config/read-file.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { sessionLocal } from "../../layers/driver/ElectronDriver.js"
import { confine } from "../../tools/policy/confine.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { matchesUrl, Pattern, routesOf, toMatcher } from "./routes.js"
import { answer, bounded, moreLine } from "../../tools/contract/respond.js"
import { callHandle } from "../../tools/contract/handle.js"

const MAX_ENTRIES = 2_000
const MAX_BODY = 5_000_000

interface Recording {
  readonly startedAt: number
  readonly entries: Array<Promise<unknown>>
  readonly stop: () => void
  readonly matches: (url: string) => boolean
}

/** The session's running recording and the HAR it replays, if any. */
const harState = sessionLocal<{ recording?: Recording | undefined; replaying?: string | undefined }>("network/har", () => ({}))

const headerList = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }))

/** One HAR entry (Playwright's HAR router reads url, method, status, headers and content). */
const toEntry = async (request: Request) => {
  const response = await request.response()
  if (!response) return undefined
  const body = await response.body().catch(() => Buffer.alloc(0))
  const timing = request.timing()
  const mimeType = response.headers()["content-type"] ?? "application/octet-stream"
  const text = /^(text\/|application\/(json|javascript|xml)|.*\+json)/i.test(mimeType)
  const url = new URL(request.url())
  const postData = request.postData()
  return {
    startedDateTime: new Date(timing.startTime > 0 ? timing.startTime : Date.now()).toISOString(),
    time: Math.max(0, timing.responseEnd),
    request: {
      method: request.method(),
      url: request.url(),
      httpVersion: "HTTP/1.1",
      headers: headerList(request.headers()),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: postData?.length ?? 0,
      ...(postData !== null ? { postData: { mimeType: request.headers()["content-type"] ?? "", text: postData } } : {})
    },
    response: {
      status: response.status(),
      statusText: response.statusText(),
      httpVersion: "HTTP/1.1",
      headers: headerList(response.headers()),
      cookies: [],
      content:
        body.length > MAX_BODY
          ? { size: body.length, mimeType, text: "" }
          : { size: body.length, mimeType, ...(text ? { text: body.toString("utf8") } : { text: body.toString("base64"), encoding: "base64" }) },
      redirectURL: response.headers()["location"] ?? "",
      headersSize: -1,
      bodySize: body.length
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, timing.responseStart), receive: Math.max(0, timing.responseEnd - timing.responseStart) }
  }
}

export const harRecord = defineTool({
  name: "electron_network_har_record",
  description:
    "start recording every window's HTTP traffic (only URLs matching url, if given); stop writes a HAR under the output folder and returns its path.",
  type: "debug",
  readOnly: false,
  errors: ["APP_NOT_RUNNING", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    action: Schema.Literal("start", "stop"),
    url: Schema.optional(Pattern),
    name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "file name at stop, default network-<time>.har" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const current = harState.of(session).recording
      if (input.action === "start") {
        if (current) return yield* new InvalidArgument({ message: "action: a recording is already running", hint: 'Stop it first: { "action": "stop" }.' })
        const matcher = input.url !== undefined ? yield* toMatcher(input.url, "url") : undefined
        const entries: Array<Promise<unknown>> = []
        const onFinished = (request: Request) => {
          if (entries.length >= MAX_ENTRIES || !recording.matches(request.url())) return
          entries.push(toEntry(request).catch(() => undefined))
        }
        const recording: Recording = {
          startedAt: Date.now(),
          entries,
          matches: (url) => matcher === undefined || matchesUrl(matcher, url),
          stop: () => session.context.off("requestfinished", onFinished)
        }
        session.context.on("requestfinished", onFinished)
        harState.of(session).recording = recording
        return answer(`Recording HTTP traffic${input.url !== undefined ? ` matching ${input.url}` : ""}. Stop with { "action": "stop" }.`, { recording: true })
      }
      if (!current) return yield* new InvalidArgument({ message: "action: no recording is running", hint: 'Start one with { "action": "start" }.' })
      const config = yield* ServerConfig
      const path = outputPath(config.outputDir, input.name ?? timestampedName("network", ".har"), ".har")
      if (typeof path !== "string") return yield* path
      current.stop()
      harState.of(session).recording = undefined
      const entries = (yield* Effect.promise(() => Promise.all(current.entries)).pipe(
        Effect.timeout(10_000),
        Effect.orElseSucceed(() => [])
      )).filter((e) => e !== undefined)
      const har = { log: { version: "1.2", creator: { name: "stagewright", version: "1" }, pages: [], entries } }
      yield* Effect.sync(() => writeFileSync(path, JSON.stringify(har, null, 1)))
      const urls = [...new Set(entries.map((e) => (e as { request: { url: string } }).request.url))]
      const listed = bounded(urls, 20)
      return answer([`Wrote ${entries.length} request(s) to ${path}`, ...listed.shown, moreLine(listed)], { path, entries: entries.length })
    })
})

const MAX_HAR_BYTES = 256 * 1024 * 1024

/**
 * A HAR is JSON with log.entries. Checked here so that a file that is not one is answered with its name
 * only: parse errors (ours and playwright-core's) quote the file's first bytes, and the file may be anything.
 */
const checkHar = (file: string, given: string) =>
  Effect.try({
    try: () => {
      // A regular file only, bounded, opened non-blocking: a FIFO or a device named as a HAR cannot stall the server.
      const text = readRegularFile(file, MAX_HAR_BYTES)
      if (typeof text !== "string") return false
      const parsed = JSON.parse(text) as { log?: { entries?: unknown } } | null
      return Array.isArray(parsed?.log?.entries)
    },
    catch: () => false as const
  }).pipe(
    Effect.orElseSucceed(() => false),
    Effect.filterOrFail(
      (ok) => ok,
      () =>
        new InvalidArgument({
          message: `file: ${given} is not a HAR file (JSON with log.entries, at most 256 MiB)`,
          hint: "Give the path electron_network_har_record returned."
        })
    ),
    Effect.asVoid
  )

export const harReplay = defineTool({
  name: "electron_network_har_replay",
  description:
    "Answer every window's requests from a HAR (from electron_network_har_record) so the app runs without its backend; unmatched ones abort, or reach the network with notFound fallback. stop ends it.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    file: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096))).annotations({
      description: "HAR path; a bare name is looked up in the output folder"
    }),
    url: Schema.optional(Pattern),
    notFound: Schema.optional(Schema.Literal("abort", "fallback")),
    stop: Schema.optional(Schema.Boolean)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const config = yield* ServerConfig
      // The file is vetted before anything else (with no app running too): procfs, devices, --app-root.
      const inOutput = input.file === undefined ? undefined : outputPath(config.outputDir, input.file, ".har")
      const file = input.file === undefined ? undefined : typeof inOutput === "string" && existsSync(inOutput) ? inOutput : resolve(input.file)
      if (file !== undefined && file !== inOutput) yield* confine([[file, "file"]])
      const session = yield* call.session
      if (input.stop === true) {
        if (input.file !== undefined) return yield* new InvalidArgument({ message: "stop takes no file", hint: '{ "stop": true } ends the replay.' })
        const was = harState.of(session).replaying
        if (was === undefined) return yield* new InvalidArgument({ message: "stop: no HAR is being replayed", hint: 'Start one with { "file": "…har" }.' })
        // unrouteAll is the only public way to drop a HAR router: put the mocked routes back afterwards.
        yield* call.run("stop the replay", async () => {
          await session.context.unrouteAll({ behavior: "ignoreErrors" })
          for (const r of routesOf(session)) await session.context.route(r.matcher, r.handler)
        })
        harState.of(session).replaying = undefined
        return answer(`Stopped replaying ${was}; requests reach the network (mocked routes kept).`, { replaying: null })
      }
      if (input.file === undefined || file === undefined)
        return yield* new InvalidArgument({ message: "file is required", hint: "Give the path electron_network_har_record returned." })
      if (!existsSync(file))
        return yield* new InvalidArgument({ message: `file: ${input.file} does not exist`, hint: "Give the path electron_network_har_record returned." })
      yield* checkHar(file, input.file)
      const matcher = input.url !== undefined ? yield* toMatcher(input.url, "url") : undefined
      yield* call.run("replay the HAR", () =>
        // playwright-core hands `url` to context.route, which takes a function matcher (its types say string | RegExp only).
        session.context.routeFromHAR(file, { notFound: input.notFound ?? "abort", ...(matcher !== undefined ? { url: matcher as unknown as RegExp } : {}) })
      )
      harState.of(session).replaying = file
      return answer(
        `Replaying ${file}${input.url !== undefined ? ` for ${input.url}` : ""}; unmatched requests ${input.notFound === "fallback" ? "go to the network" : "abort"}. Stop with { "stop": true }.`,
        { replaying: file }
      )
    })
})
