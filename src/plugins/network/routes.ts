/**
 * Mocked routes: requests of every window whose URL matches a pattern (and method, if given) get a canned
 * response (or fail), possibly after a delay, through playwright-core's BrowserContext.route. The route
 * table lives in the Playwright context; the list shown to the agent (pattern, response, hits) is the
 * session's (sessionLocal). A delay is a fiber sleeping inside the route's handler: removing the route
 * or the app going away interrupts it, and the request then goes on (to older routes or the network).
 */
import { Duration, Effect, Exit, Fiber, Schema } from "effect"
import { existsSync } from "node:fs"
import type { BrowserContext, Route } from "playwright-core"
import { sessionLocal, type AppSession } from "../../layers/driver/ElectronDriver.js"
import { classifyServedBody } from "../../eval-policy/code-paths.js"
import { allowsCode } from "../../tools/policy/code-gate.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { compileGlob, compileSafePattern } from "../../tools/policy/patterns.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export const ABORT_REASONS = [
  "failed",
  "aborted",
  "timedout",
  "accessdenied",
  "connectionrefused",
  "connectionreset",
  "namenotresolved",
  "internetdisconnected",
  "blockedbyclient"
] as const

export interface MockedRoute {
  readonly pattern: string
  readonly matcher: UrlMatcher
  readonly handler: (route: Route) => Promise<void>
  readonly summary: string
  readonly method?: string | undefined
  readonly delayMs?: number | undefined
  hits: number
  /** Requests refused because the body would have run as a document or script without --allow-eval renderer. */
  blocked: number
  /** Set once the route is removed: a request still waiting out its delay goes on. */
  removed: boolean
  /** Delays running now. */
  readonly waiting: Set<Fiber.RuntimeFiber<void>>
}

const routes = sessionLocal<Array<MockedRoute>>("network/routes", () => [])

/** Every delay running in the session (of routes removed or used up too): the app going away ends them. */
const delays = sessionLocal<Set<Fiber.RuntimeFiber<void>>>("network/route-delays", (session) => {
  const running = new Set<Fiber.RuntimeFiber<void>>()
  session.context.once("close", () => Effect.runFork(Fiber.interruptAll(running)))
  return running
})

/** Waits out a route's delay; removing the route (or the app closing) interrupts the wait. */
const delay = (session: AppSession, entry: MockedRoute, ms: number) => {
  const fiber = Effect.runFork(Effect.sleep(Duration.millis(ms)))
  const running = delays.of(session)
  entry.waiting.add(fiber)
  running.add(fiber)
  return Effect.runPromise(Fiber.await(fiber)).finally(() => {
    entry.waiting.delete(fiber)
    running.delete(fiber)
  })
}
const drop = <A>(list: Array<A>, item: A) => {
  const i = list.indexOf(item)
  if (i >= 0) list.splice(i, 1)
}

export const routesOf = (session: AppSession): Array<MockedRoute> => routes.of(session)

/**
 * Whether a request URL matches a route's pattern. Always a function, so playwright-core never builds a
 * RegExp of its own from a caller's glob (its glob regex backtracks in this process): the pattern runs on
 * RE2 (tools/policy/patterns.ts); a URL too long for the pattern's matching bound does not match.
 */
export type UrlMatcher = (url: URL) => boolean

/** A request URL against a route matcher (false for a URL that does not parse). */
export const matchesUrl = (matcher: UrlMatcher, url: string): boolean => {
  try {
    return matcher(new URL(url))
  } catch {
    return false
  }
}

/** "/re/flags" is a regular expression; anything else a Playwright glob. Both compiled for linear-time matching. */
export const toMatcher = (pattern: string, field: string): Effect.Effect<UrlMatcher, InvalidArgument> => {
  const re = /^\/(.+)\/([dgimsuy]*)$/s.exec(pattern)
  const compiled = re ? compileSafePattern(re[1]!, re[2]!.replace(/[gy]/g, "")) : compileGlob(pattern)
  return compiled.pipe(
    Effect.map(
      (safe): UrlMatcher =>
        (url) =>
          safe.test(url.href)
    ),
    Effect.mapError((error) => new InvalidArgument({ message: `${field}: ${error.message}`, hint: error.hint }))
  )
}

export const describeRoutes = (list: ReadonlyArray<MockedRoute>) =>
  list.length === 0
    ? "No mocked routes."
    : `Routes (first match wins, newest first):\n${[...list]
        .reverse()
        .map(
          (r) =>
            `${r.pattern} -> ${r.summary} (${r.hits} hit${r.hits === 1 ? "" : "s"}${r.blocked > 0 ? `, ${r.blocked} refused: a document or script body needs --allow-eval renderer` : ""})`
        )
        .join("\n")}`

const routeList = (list: ReadonlyArray<MockedRoute>) =>
  list.map((r) => ({
    pattern: r.pattern,
    ...(r.method !== undefined ? { method: r.method } : {}),
    ...(r.delayMs !== undefined ? { delayMs: r.delayMs } : {}),
    response: r.summary,
    hits: r.hits,
    blocked: r.blocked
  }))

export const Pattern = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1_000)).annotations({
  description: "URL glob (**/api/quote*) or /regex/flags"
})

/** Removes routes from the context and the registry. */
export const removeRoutes = (context: BrowserContext, list: Array<MockedRoute>, which: ReadonlyArray<MockedRoute>) =>
  Promise.all(
    which.map(async (r) => {
      drop(list, r)
      r.removed = true
      await Effect.runPromise(Fiber.interruptAll(r.waiting))
      await context.unroute(r.matcher, r.handler)
    })
  )

export const route = defineTool({
  name: "electron_network_route",
  description:
    "Mock every window's requests whose URL (and method) matches: answer with status/headers/body or file, or abort, after delayMs (alone: delay, then the network). No url: list routes. Adds CORS allow-origin * if missing. A body served to a document or script needs --allow-eval renderer.",
  type: "interact",
  files: ["file"],
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({
    url: Schema.optional(Pattern),
    status: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 599))).annotations({ description: "default 200" }),
    headers: Schema.optional(Schema.Record({ key: Schema.String.pipe(Schema.maxLength(200)), value: Schema.String.pipe(Schema.maxLength(4_000)) })),
    body: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000_000))),
    file: Schema.optional(Schema.String.pipe(Schema.maxLength(4_096))).annotations({ description: "body from this file" }),
    abort: Schema.optional(Schema.Literal(...ABORT_REASONS)),
    times: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000))).annotations({ description: "then the route is removed" }),
    method: Schema.optional(Schema.String.pipe(Schema.maxLength(16))).annotations({ description: "only this method" }),
    delayMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 120_000))).annotations({ description: "wait before answering" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const list = routesOf(session)
      if (input.url === undefined) {
        if (Object.keys(input).length > 0)
          return yield* new InvalidArgument({
            message: "url is required to add a route",
            hint: 'Example: { "url": "**/api/quote*", "body": "{...}" }; without arguments the routes are listed.'
          })
        return answer(describeRoutes(list), { routes: routeList(list) })
      }
      if (input.abort !== undefined && (input.body !== undefined || input.file !== undefined || input.status !== undefined || input.headers !== undefined)) {
        return yield* new InvalidArgument({
          message: "abort cannot be combined with status, headers, body or file",
          hint: 'Either fail the request ({ abort: "failed" }) or answer it.'
        })
      }
      if (input.body !== undefined && input.file !== undefined)
        return yield* new InvalidArgument({ message: "give body or file, not both", hint: "file reads the body from a file." })
      if (input.file !== undefined && !existsSync(input.file))
        return yield* new InvalidArgument({
          message: `file: ${input.file} does not exist`,
          hint: "Give the path of an existing file, or the response text as body."
        })
      if (input.method !== undefined && !/^[A-Za-z]+$/.test(input.method))
        return yield* new InvalidArgument({ message: `method: ${JSON.stringify(input.method)} is not an HTTP method`, hint: 'Example: "POST".' })
      const matcher = yield* toMatcher(input.url, "url")
      const status = input.status ?? 200
      const headers = Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
      const method = input.method?.toUpperCase()
      const delayMs = input.delayMs !== undefined && input.delayMs > 0 ? input.delayMs : undefined
      // A delay alone slows the request down and lets it go on.
      const passOn = delayMs !== undefined && [input.abort, input.status, input.headers, input.body, input.file].every((v) => v === undefined)
      const outcome = passOn
        ? "then the network"
        : input.abort !== undefined
          ? `abort ${input.abort}`
          : `${status}${input.file !== undefined ? ` file ${input.file}` : input.body !== undefined ? ` body ${input.body.length} chars` : ""}`
      const summary = [method !== undefined ? `${method} only` : undefined, delayMs !== undefined ? `delay ${delayMs} ms` : undefined, outcome]
        .filter(Boolean)
        .join(", ")
      const mayServeCode = yield* allowsCode({ kind: "eval", target: "renderer", what: "a mocked document or script" })
      const answerRoute = async (r: Route) => {
        // Interrupted (the route removed, the app gone): the request goes on to older routes or the network.
        if (delayMs !== undefined && !Exit.isSuccess(await delay(session, entry, delayMs))) return r.fallback().catch(() => undefined)
        if (passOn) return r.fallback()
        if (input.abort !== undefined) return r.abort(input.abort)
        // A made-up body served where the page would run it is the caller's code: only with --allow-eval renderer.
        const served = classifyServedBody(r.request().resourceType(), headers["content-type"])
        if (served.kind !== "safe" && !mayServeCode) {
          entry.blocked++
          return r.abort("blockedbyclient")
        }
        const origin = r.request().headers()["origin"]
        const cors: Record<string, string> =
          origin !== undefined && headers["access-control-allow-origin"] === undefined ? { "access-control-allow-origin": "*" } : {}
        return r.fulfill({
          status,
          headers: { ...cors, ...headers },
          ...(input.file !== undefined ? { path: input.file } : { body: input.body ?? "" })
        })
      }
      const entry: MockedRoute = {
        pattern: input.url,
        matcher,
        summary: input.times !== undefined ? `${summary}, ${input.times} time(s)` : summary,
        method,
        delayMs,
        hits: 0,
        blocked: 0,
        removed: false,
        waiting: new Set(),
        handler: async (r: Route) => {
          // `times` is counted here, not by playwright-core (which would count the requests passed on for their method too).
          if (entry.removed || (input.times !== undefined && entry.hits >= input.times) || (method !== undefined && r.request().method() !== method))
            return r.fallback()
          entry.hits++
          const last = input.times !== undefined && entry.hits >= input.times
          if (last) drop(list, entry)
          try {
            await answerRoute(r)
          } finally {
            // Only once answered: removing the last route turns interception off, which lets a held request go.
            if (last) await session.context.unroute(matcher, entry.handler).catch(() => undefined)
          }
        }
      }
      yield* call.run("add the route", () => session.context.route(matcher, entry.handler))
      list.push(entry)
      return answer(`Routed ${input.url} -> ${entry.summary}.\n${describeRoutes(list)}`, { routes: routeList(list) })
    })
})

export const unroute = defineTool({
  name: "electron_network_unroute",
  description: "Remove the mocked route(s) added for url (no url: all); requests reach the network again. Lists what remains.",
  type: "interact",
  idempotent: true,
  errors: ["APP_NOT_RUNNING"],
  input: Schema.Struct({ url: Schema.optional(Pattern) }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      const list = routesOf(session)
      const which = list.filter((r) => input.url === undefined || r.pattern === input.url)
      if (input.url !== undefined && which.length === 0) {
        return yield* new InvalidArgument({
          message: `url: no route was added for ${input.url}`,
          hint: list.length > 0 ? `Routes: ${list.map((r) => r.pattern).join(", ")}` : "There are no mocked routes."
        })
      }
      yield* call.run("remove the route", () => removeRoutes(session.context, list, which))
      return answer(`Removed ${which.length} route(s).\n${describeRoutes(list)}`, { removed: which.map((r) => r.pattern), routes: routeList(list) })
    })
})
