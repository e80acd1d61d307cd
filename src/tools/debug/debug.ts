/**
 * Debug tools: console output of renderers and the main process, errors, network requests, process
 * and page metrics, one element's HTML/box/styles, and Playwright tracing.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"
import { Effect, Schema } from "effect"
import { AppLifecycle } from "../../layers/driver/ElectronDriver.js"
import { PASSWORD_MASK } from "../../layers/driver/ElectronDriver.js"
import { outputPath, timestampedName } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import type { RingBuffer } from "../../layers/driver/buffers.js"
import { existsSync, statSync } from "node:fs"
import { InvalidArgument, OperationFailed } from "../contract/errors.js"
import { defineTool } from "../contract/Tool.js"
import { DEFAULT_ACTION_TIMEOUT, Target, TimeoutMs } from "../contract/shapes.js"
import { answer, cut } from "../contract/respond.js"
import { mapperFor } from "./source-maps.js"
import { callHandle } from "../contract/handle.js"

const Cursor = Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())).annotations({
  description: "return only entries after this cursor (from the previous call)"
})
const Limit = (defaultLimit: number) =>
  Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 1_000))).annotations({ description: `newest entries to return, default ${defaultLimit}` })

const LEVELS = ["debug", "log", "info", "warning", "error"] as const
const levelRank = (level: string) => {
  const normalized = level === "warn" ? "warning" : level === "trace" || level === "verbose" ? "debug" : level
  const index = LEVELS.indexOf(normalized as (typeof LEVELS)[number])
  return index === -1 ? 1 : index
}

/** The newest `limit` entries after `cursor`, the next cursor, and how many were left out. */
const page = <T>(buffer: RingBuffer<T>, cursor: number | undefined, limit: number, keep: (value: T) => boolean) => {
  const matching = buffer.since(cursor ?? 0).filter((item) => keep(item.value))
  const shown = matching.slice(-limit)
  return { shown, omitted: matching.length - shown.length, cursor: buffer.cursor, dropped: buffer.dropped }
}

const time = (at: number) => new Date(at).toISOString().slice(11, 23)

export const consoleTool = defineTool({
  name: "electron_console",
  description:
    "Console messages of the windows (by surface) and the main process, oldest first. Filter by minimum level and source; pass the returned cursor next time to read only what is new.",
  type: "debug",
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({
    level: Schema.optional(Schema.Literal(...LEVELS)).annotations({ description: "minimum level, default debug (all)" }),
    source: Schema.optional(Schema.Literal("renderer", "main")),
    text: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "only messages containing this" }),
    cursor: Cursor,
    limit: Limit(50)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const min = levelRank(input.level ?? "debug")
      const result = page(
        session.console,
        input.cursor,
        input.limit ?? 50,
        (e) =>
          levelRank(e.level) >= min && (input.source === undefined || e.source === input.source) && (input.text === undefined || e.text.includes(input.text))
      )
      // Through the app's source maps: a stack in the text, and where the message was logged (./source-maps.ts).
      const mapper = yield* mapperFor(session.launch)
      const messages = yield* Effect.promise(() =>
        Promise.all(
          result.shown.map(async ({ seq, value: e }) => {
            const text = await mapper.map(e.text)
            const at = /^(.*):(\d+)$/.exec(e.location ?? "")
            const logged = at === null ? undefined : await mapper.map(`${at[1]}:${Number(at[2]) + 1}:${(e.column ?? 0) + 1}`)
            const original = logged !== undefined && logged.includes(" [") ? logged.slice(0, logged.indexOf(" [")) : undefined
            return { seq, ...e, text, ...(original !== undefined ? { original } : {}) }
          })
        )
      )
      const lines = messages.map(
        (e) =>
          `${time(e.at)} ${e.source === "main" ? "main" : (e.surface ?? e.window)} ${e.level}: ${e.text}${e.original !== undefined ? ` (at ${e.original})` : ""}`
      )
      if (result.omitted > 0) lines.unshift(`… ${result.omitted} older matching messages not shown`)
      return answer(`${lines.length > 0 ? lines.join("\n") : "No matching console messages."}\ncursor: ${result.cursor}`, {
        cursor: result.cursor,
        omitted: result.omitted,
        dropped: result.dropped,
        messages
      })
    })
})

export const errorsTool = defineTool({
  name: "electron_errors",
  description:
    "Uncaught page errors, crashed or unresponsive renderers, failed page loads (load failures: URL, error, window), and main-process uncaught exceptions, unhandled rejections and exits, oldest first; pass the returned cursor to read only new ones.",
  type: "debug",
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({ cursor: Cursor, limit: Limit(20) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const current = yield* call.current
      if (current === undefined) return yield* call.session.pipe(Effect.as(undefined as never))
      // A crashed app still has its error history: read it rather than failing.
      if (!current.exit) yield* call.pullMainErrors.pipe(Effect.orElseSucceed(() => undefined))
      const result = page(current.errors, input.cursor, input.limit ?? 20, () => true)
      // Stacks through the app's source maps: the original file:line first, the bundle's position kept (./source-maps.ts).
      const mapper = yield* mapperFor(current.launch)
      const errors = yield* Effect.promise(() =>
        Promise.all(
          result.shown.map(async ({ seq, value }) => ({
            seq,
            ...value,
            message: await mapper.map(value.message),
            ...(value.stack !== undefined ? { stack: await mapper.map(value.stack) } : {})
          }))
        )
      )
      const lines = errors.map(
        (e) =>
          `${time(e.at)} ${e.kind}${(e.surface ?? e.window) ? ` ${e.surface ?? e.window}` : ""}: ${e.message}${
            e.stack
              ? `\n  ${e.stack
                  .split("\n")
                  .slice(1, 4)
                  .map((l) => l.trim())
                  .join("\n  ")}`
              : ""
          }`
      )
      return answer(`${lines.length > 0 ? lines.join("\n") : "No errors."}\ncursor: ${result.cursor}`, {
        cursor: result.cursor,
        omitted: result.omitted,
        errors
      })
    })
})

export const requestsTool = defineTool({
  name: "electron_requests",
  description:
    "Network requests of the windows (method, URL, status, duration, failure), filtered by URL substring, method, status or failed; cursor reads only new ones.",
  type: "debug",
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({
    url: Schema.optional(Schema.String.pipe(Schema.maxLength(2_000))).annotations({ description: "URL contains" }),
    method: Schema.optional(Schema.String.pipe(Schema.maxLength(16))),
    status: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 599))),
    failed: Schema.optional(Schema.Boolean).annotations({ description: "true: failed or HTTP >= 400 only" }),
    cursor: Cursor,
    limit: Limit(30)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const result = page(
        session.requests,
        input.cursor,
        input.limit ?? 30,
        (r) =>
          (input.url === undefined || r.url.includes(input.url)) &&
          (input.method === undefined || r.method.toUpperCase() === input.method.toUpperCase()) &&
          (input.status === undefined || r.status === input.status) &&
          (input.failed === undefined || input.failed === (r.failure !== undefined || (r.status ?? 0) >= 400))
      )
      const lines = result.shown.map(({ value: r }) => {
        const outcome = r.failure ? `FAILED ${r.failure}` : r.status !== undefined ? String(r.status) : "pending"
        return `${r.method} ${cut(r.url, 200)} → ${outcome}${r.durationMs !== undefined ? ` ${r.durationMs} ms` : ""} (${r.resourceType}, ${r.surface ?? r.window})`
      })
      if (result.omitted > 0) lines.unshift(`… ${result.omitted} older matching requests not shown`)
      return answer(`${lines.length > 0 ? lines.join("\n") : "No matching requests."}\ncursor: ${result.cursor}`, {
        cursor: result.cursor,
        omitted: result.omitted,
        requests: result.shown.map((i) => ({ seq: i.seq, ...i.value }))
      })
    })
})

export const metricsTool = defineTool({
  name: "electron_metrics",
  description: "Process metrics from app.getAppMetrics (type, pid, CPU %, memory) and the active page's performance: load timings, DOM size, JS heap.",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "WINDOW_NOT_FOUND"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const processes = yield* call
        .evaluateMain(
          "read app metrics",
          ({ app }: ElectronModule) =>
            app.getAppMetrics().map((m: MainValue) => ({
              pid: m.pid,
              type: m.type,
              cpuPercent: Math.round((m.cpu?.percentCPUUsage ?? 0) * 10) / 10,
              workingSetKB: m.memory?.workingSetSize ?? null
            })) as Array<{ pid: number; type: string; cpuPercent: number; workingSetKB: number | null }>,
          undefined
        )
        .pipe(Effect.catchTag("NeedsMainProcess", () => Effect.succeed(undefined)))
      const pageMetrics = yield* call.evaluate(entry, "read page metrics", () => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined
        const memory = (performance as Performance & { memory?: { usedJSHeapSize: number; totalJSHeapSize: number; jsHeapSizeLimit: number } }).memory
        return {
          domContentLoadedMs: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
          loadMs: nav ? Math.round(nav.loadEventEnd) : null,
          domNodes: document.getElementsByTagName("*").length,
          jsHeapUsedKB: memory ? Math.round(memory.usedJSHeapSize / 1024) : null,
          resources: performance.getEntriesByType("resource").length
        }
      })
      const lines = [
        ...(processes ?? []).map((p) => `${p.type.padEnd(8)} pid ${p.pid}  cpu ${p.cpuPercent}%  mem ${p.workingSetKB ?? "?"} KB`),
        ...(processes === undefined ? ["process metrics need the main process (attach with inspectorUrl)"] : []),
        `${entry.id}: DOMContentLoaded ${pageMetrics.domContentLoadedMs ?? "?"} ms, load ${pageMetrics.loadMs ?? "?"} ms, ${pageMetrics.domNodes} elements, heap ${pageMetrics.jsHeapUsedKB ?? "?"} KB, ${pageMetrics.resources} resources`
      ]
      return answer(lines.join("\n"), { processes: processes ?? null, page: { window: entry.id, ...pageMetrics } })
    })
})

const DEFAULT_STYLES = ["display", "visibility", "opacity", "position", "z-index", "color", "background-color", "font-size", "pointer-events", "overflow"]

export const inspectTool = defineTool({
  name: "electron_inspect",
  description: "One element's outer HTML (cut at maxHtml chars), bounding box, and computed styles (a default set, or the properties you name).",
  type: "debug",
  errors: ["APP_NOT_RUNNING", "ELEMENT_NOT_FOUND", "AMBIGUOUS_LOCATOR", "REF_STALE"],
  input: Schema.Struct({
    target: Target,
    styles: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(64))).pipe(Schema.maxItems(50))).annotations({ description: "CSS properties" }),
    maxHtml: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 20_000))).annotations({ description: "default 1500" }),
    timeoutMs: TimeoutMs(DEFAULT_ACTION_TIMEOUT)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const entry = yield* call.surface()
      const locator = yield* call.locate(entry, input.target)
      const props = input.styles ?? DEFAULT_STYLES
      const maxHtml = input.maxHtml ?? 1_500
      const details = yield* call.run(`inspect ${input.target}`, () =>
        locator.evaluate(
          (el, args) => {
            const rect = el.getBoundingClientRect()
            const computed = getComputedStyle(el)
            let html = el.outerHTML
            // A password field's value attribute (frameworks keep it in sync with what was typed) is masked,
            // in a copy made in an inert document: nothing of the page runs or changes.
            const secrets = [el, ...Array.from(el.querySelectorAll("input"))].filter(
              (e) => e.tagName === "INPUT" && (e as HTMLInputElement).type === "password" && (e.getAttribute("value") ?? "") !== ""
            )
            if (secrets.length > 0) {
              const template = document.implementation.createHTMLDocument("").createElement("template")
              for (const field of secrets) {
                template.innerHTML = field.outerHTML
                template.content.firstElementChild?.setAttribute("value", args.mask)
                html = html.split(field.outerHTML).join(template.innerHTML)
              }
            }
            return {
              html: html.length > args.maxHtml ? html.slice(0, args.maxHtml) + `… (${html.length} chars)` : html,
              box: { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) },
              styles: Object.fromEntries(args.props.map((p) => [p, computed.getPropertyValue(p)]))
            }
          },
          { props: [...props], maxHtml, mask: PASSWORD_MASK },
          { timeout: input.timeoutMs ?? DEFAULT_ACTION_TIMEOUT }
        )
      )
      const text = [
        details.html,
        `box: ${details.box.width}x${details.box.height} at ${details.box.x},${details.box.y}`,
        `styles: ${Object.entries(details.styles)
          .map(([k, v]) => `${k}: ${v}`)
          .join("; ")}`
      ].join("\n")
      return answer(text, details)
    })
})

export const traceStart = defineTool({
  name: "electron_trace_start",
  description: "Start Playwright tracing of every window (actions, DOM snapshots, screenshots) until electron_trace_stop writes the trace.zip.",
  type: "debug",
  readOnly: false,
  errors: ["APP_NOT_RUNNING", "OPERATION_FAILED"],
  input: Schema.Struct({
    screenshots: Schema.optional(Schema.Boolean).annotations({ description: "default true" }),
    snapshots: Schema.optional(Schema.Boolean).annotations({ description: "default true" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const call = yield* callHandle
      const session = yield* call.session
      if (session.tracing) return yield* new OperationFailed({ message: "Tracing is already running", hint: "Stop it with electron_trace_stop first." })
      yield* call.run("start tracing", () =>
        session.context.tracing.start({ screenshots: input.screenshots ?? true, snapshots: input.snapshots ?? true, sources: false })
      )
      yield* lifecycle.setTracing(true)
      return answer("Tracing started; electron_trace_stop writes the trace.zip.", { tracing: true })
    })
})

export const traceStop = defineTool({
  name: "electron_trace_stop",
  description: "Stop tracing and write the trace.zip under the output folder; returns its path (open it with `npx playwright show-trace PATH`).",
  type: "debug",
  readOnly: false,
  errors: ["APP_NOT_RUNNING", "INVALID_ARGUMENT", "PATH_NOT_ALLOWED"],
  input: Schema.Struct({
    name: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({ description: "file name, default trace-<time>.zip" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const call = yield* callHandle
      const config = yield* ServerConfig
      const session = yield* call.session
      if (!session.tracing) return yield* new InvalidArgument({ message: "Tracing is not running", hint: "Start it with electron_trace_start." })
      const path = outputPath(config.outputDir, input.name ?? timestampedName("trace", ".zip"), ".zip")
      if (typeof path !== "string") return yield* path
      yield* call.run("stop tracing", () => session.context.tracing.stop({ path }))
      yield* lifecycle.setTracing(false)
      const bytes = yield* Effect.sync(() => (existsSync(path) ? statSync(path).size : 0))
      return answer(`Trace written to ${path} (${bytes} bytes)`, { path, bytes })
    })
})

export const debugTools = [consoleTool, errorsTool, requestsTool, metricsTool, inspectTool, traceStart, traceStop]
