/**
 * Streamable HTTP transport: `stagewright serve --port N`. Loopback by default; every request's Host
 * (and Origin, when sent) must be on the allow-list (DNS-rebinding protection); an optional bearer
 * token is compared in constant time. Each MCP session gets its own service graph (its own app), closed
 * with the session or the server. Bounds against a client that never lets go: at most `maxSessions`
 * sessions (an initialize over it closes the least recently used idle session, its app with it, and is
 * refused with 503 only when every session has a request in flight or an open stream) and `maxConnections` TCP
 * connections; a session idle for `sessionIdleTimeoutMs` is closed as a DELETE would close it; a session
 * is bound to the client that created it (./http-session.ts).
 */
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { Context, Data, Duration, Effect, ExecutionStrategy, Exit, Layer, Redacted, Runtime, Scope, SubscriptionRef } from "effect"
import { randomUUID, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { McpServer } from "./McpServer.js"
import { isLoopbackHost } from "../layers/config/loopback.js"
import type { ServerConfigShape } from "../layers/config/ServerConfig.js"
import { coreLayer, serverLayer } from "./Stagewright.js"
import { readJsonBody } from "./http-body.js"
import { peerProcess } from "./http-peer.js"
import { digest, httpDefaults, idleFor, presentedBearer, sameClient, sessionBinding } from "./http-session.js"

export { httpDefaults } from "./http-session.js"

export interface HttpOptions {
  readonly host: string
  /** 0 picks a free port. */
  readonly port: number
  /** Extra Host values (host:port) to accept besides the bound address and localhost aliases. */
  readonly allowedHosts?: ReadonlyArray<string>
  /** Origins (scheme://host:port) to accept besides the bound address and localhost aliases. */
  readonly allowedOrigins?: ReadonlyArray<string>
  readonly authToken?: Redacted.Redacted<string> | undefined
  /** Path of the MCP endpoint. */
  readonly path?: string
  /** Sessions open at once (default 16); an initialize over the cap is answered 503. */
  readonly maxSessions?: number
  /** A session with no request in flight and no open SSE stream this long is closed (default 10 minutes). */
  readonly sessionIdleTimeoutMs?: number
  /** TCP connections open at once (default 128); Node drops the connections over it. */
  readonly maxConnections?: number
}

/** The Host header values and origins accepted for a server bound at host:port. */
export const allowLists = (options: HttpOptions, port: number) => {
  const names = isLoopbackHost(options.host) ? ["127.0.0.1", "localhost", "[::1]"] : [options.host.includes(":") ? `[${options.host}]` : options.host]
  const hosts = new Set([...names.map((n) => `${n}:${port}`), ...(options.allowedHosts ?? []).map((h) => h.toLowerCase())])
  const origins = new Set([...names.map((n) => `http://${n}:${port}`), ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase())])
  return { hosts, origins }
}

/** Constant-time check of `Authorization: Bearer <token>` (hashing first so lengths do not leak). */
export const bearerMatches = (header: string | undefined, token: Redacted.Redacted<string>): boolean => {
  const presented = presentedBearer(header)
  return timingSafeEqual(digest(presented), digest(Redacted.value(token))) && presented.length > 0
}

const reject = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = -32000) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }))
}

interface Session {
  readonly transport: StreamableHTTPServerTransport
  readonly scope: Scope.CloseableScope
  /** Who created it (./http-session.ts): a request from anyone else is answered 404. */
  readonly binding: Buffer
  /** Its HTTP responses in flight (POSTs being answered, the GET SSE stream); at 0 the idle clock runs. */
  readonly open: SubscriptionRef.SubscriptionRef<number>
  /** When a response of it last started or ended (ms since the epoch): the least recent idle one is evicted first. */
  readonly activity: { last: number }
}

/** Compared against when no session has the id, so an unknown id and a foreign one take the same time. */
const NO_SESSION = digest("stagewright-no-session")

export interface HttpServerShape {
  readonly url: string
  readonly port: number
  readonly sessions: () => number
}

/** The HTTP server could not listen (the port is taken, the address is not this machine's...). */
export class HttpListenFailed extends Data.TaggedError("HttpListenFailed")<{ readonly host: string; readonly port: number; readonly cause: unknown }> {
  override get message() {
    return `Could not listen on ${this.host}:${this.port}: ${this.cause instanceof Error ? this.cause.message : String(this.cause)}`
  }
}

export class HttpServer extends Context.Tag("stagewright/HttpServer")<HttpServer, HttpServerShape>() {
  /** Serves MCP over Streamable HTTP with `config` for every session, until the layer's scope closes. */
  static readonly layer = (options: HttpOptions, config: Partial<ServerConfigShape>) =>
    Layer.scoped(
      HttpServer,
      Effect.gen(function* () {
        const outer = yield* Effect.scope
        // HTTP and SDK callbacks run Effects with the layer's runtime (its context, logger and interruption).
        const runtime = yield* Effect.runtime<never>()
        const maxSessions = options.maxSessions ?? httpDefaults.maxSessions
        const idleTimeout = Duration.millis(options.sessionIdleTimeoutMs ?? httpDefaults.sessionIdleTimeoutMs)
        const sessions = new Map<string, Session>()
        // Sessions being opened (not in `sessions` yet) count against the cap too: concurrent initializes
        // cannot overshoot it.
        let opening = 0
        const path = options.path ?? "/mcp"
        let lists: ReturnType<typeof allowLists> | undefined
        // Every session is built from the same configuration: check it once, before listening, so a bad
        // --plugin or --plugin-config stops the server at start-up instead of failing each session.
        yield* Effect.scoped(Layer.build(coreLayer(config))).pipe(
          Effect.tapError((error) => Effect.logError(`the server configuration is refused: ${error.message}`))
        )

        /** Counts `res` as in flight on the session until it closes (answered, or the client went away). */
        const track = (open: SubscriptionRef.SubscriptionRef<number>, activity: { last: number }, res: ServerResponse) => {
          activity.last = Date.now()
          Runtime.runSync(runtime)(SubscriptionRef.update(open, (n) => n + 1))
          res.once("close", () => {
            activity.last = Date.now()
            Runtime.runSync(runtime)(SubscriptionRef.update(open, (n) => n - 1))
          })
        }

        /**
         * Makes room for a new session at the cap: the idle session (no response in flight, no open
         * stream) used least recently is taken out of the table at once (a concurrent initialize cannot
         * pick it too) and closed as a DELETE closes it, its app with it. None idle: no room.
         */
        const evictIdle = (): Effect.Effect<boolean> =>
          Effect.gen(function* () {
            let victim: readonly [string, Session] | undefined
            for (const entry of sessions) {
              if ((yield* SubscriptionRef.get(entry[1].open)) > 0) continue
              if (victim === undefined || entry[1].activity.last < victim[1].activity.last) victim = entry
            }
            if (victim === undefined) return false
            const [id, session] = victim
            sessions.delete(id)
            yield* Effect.logInfo(
              `closing the least recently used idle HTTP session (idle ${Duration.format(Duration.millis(Date.now() - session.activity.last))}, its app with it): ${maxSessions} sessions are open and a new client initializes`
            )
            yield* Effect.promise(() => session.transport.close().catch(() => undefined))
            yield* Scope.close(session.scope, Exit.void)
            return true
          })

        const openSession = (binding: Buffer, open: SubscriptionRef.SubscriptionRef<number>, activity: { last: number }, initialized: () => void) =>
          Effect.gen(function* () {
            const scope = yield* Scope.fork(outer, ExecutionStrategy.sequential)
            const context = yield* Layer.buildWithScope(serverLayer(config), scope).pipe(Effect.tapErrorCause(() => Scope.close(scope, Exit.void)))
            const mcp = Context.get(context, McpServer)
            const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              onsessioninitialized: (id) => {
                sessions.set(id, { transport, scope, binding, open, activity })
                initialized()
              }
            })
            transport.onclose = () => {
              const id = transport.sessionId
              if (id !== undefined) sessions.delete(id)
              Runtime.runFork(runtime)(Scope.close(scope, Exit.void))
            }
            yield* mcp.connect(transport).pipe(
              Scope.extend(scope),
              Effect.tapErrorCause(() => Scope.close(scope, Exit.void))
            )
            // Idle: closed exactly as a DELETE closes it (transport.close(), whose onclose releases the
            // scope: the app, the service graph and this fiber, which lives in that scope).
            yield* idleFor(open, idleTimeout).pipe(
              Effect.zipRight(Effect.logInfo(`closing an HTTP session idle for ${Duration.format(idleTimeout)}`)),
              Effect.zipRight(Effect.promise(() => transport.close().catch(() => undefined))),
              Effect.forkIn(scope)
            )
            return transport
          })

        const handle = async (req: IncomingMessage, res: ServerResponse) => {
          const url = new URL(req.url ?? "/", "http://placeholder")
          if (url.pathname !== path) return reject(res, 404, `Not found: the MCP endpoint is ${path}`)
          const host = (req.headers.host ?? "").toLowerCase()
          if (!lists!.hosts.has(host)) return reject(res, 403, `Forbidden: Host "${host}" is not allowed`)
          const origin = req.headers.origin
          if (origin !== undefined && !lists!.origins.has(origin.toLowerCase())) return reject(res, 403, `Forbidden: Origin "${origin}" is not allowed`)
          if (options.authToken !== undefined && !bearerMatches(req.headers.authorization, options.authToken)) {
            return reject(res, 401, "Unauthorized: a valid bearer token is required", { "www-authenticate": "Bearer" })
          }
          const binding = sessionBinding(req, options.authToken, await peerProcess(req.socket))
          // A POST's body is read and bounded here (./http-body.ts): the transport gets it parsed.
          let body: unknown
          if (req.method === "POST" && (req.headers["content-type"] ?? "").trim().toLowerCase().startsWith("application/json")) {
            const read = await readJsonBody(req)
            if (read._tag === "Refused") return reject(res, read.status, read.message, {}, read.code)
            body = read.value
          }
          const id = req.headers["mcp-session-id"]
          if (typeof id === "string") {
            const existing = sessions.get(id)
            // A session bound to another client is answered as one that does not exist, after the same
            // constant-time comparison either way.
            const same = sameClient(existing?.binding ?? NO_SESSION, binding)
            if (existing === undefined || !same) return reject(res, 404, "Unknown or closed session: initialize a new one")
            track(existing.open, existing.activity, res)
            return existing.transport.handleRequest(req, res, body)
          }
          if (req.method !== "POST") return reject(res, 400, "Start a session with an initialize POST")
          // The slot is reserved before any wait, so concurrent initializes cannot overshoot the cap.
          const full = sessions.size + opening >= maxSessions
          opening++
          let counted = true
          const settle = () => {
            if (counted) opening--
            counted = false
          }
          if (full && !(await Runtime.runPromise(runtime)(evictIdle()))) {
            settle()
            return reject(
              res,
              503,
              `Too many sessions: this server serves at most ${maxSessions} at once and every one has a request in flight or an open stream; end one (HTTP DELETE) or retry when one is idle`
            )
          }
          // Its responses in flight, from this one (tracked now: a client gone before the session is built
          // leaves it idle, not counted as busy forever).
          const open = Runtime.runSync(runtime)(SubscriptionRef.make(0))
          const activity = { last: Date.now() }
          track(open, activity, res)
          try {
            const opened = await Runtime.runPromiseExit(runtime)(openSession(binding, open, activity, settle))
            if (Exit.isFailure(opened)) {
              Runtime.runFork(runtime)(Effect.logError("could not start an HTTP session", opened.cause))
              return reject(res, 500, "Could not start a session")
            }
            await opened.value.handleRequest(req, res, body)
            if (opened.value.sessionId === undefined) {
              // Not an initialize request: nothing will ever use this session.
              await opened.value.close()
            }
          } finally {
            settle()
          }
        }

        const server: Server = yield* Effect.acquireRelease(
          Effect.async<Server, HttpListenFailed>((resume) => {
            const http = createServer((req, res) => {
              handle(req, res).catch((error) => {
                if (!res.headersSent) reject(res, 500, `Internal error: ${(error as Error).message}`)
              })
            })
            http.maxConnections = options.maxConnections ?? httpDefaults.maxConnections
            http.once("error", (cause) => resume(Effect.fail(new HttpListenFailed({ host: options.host, port: options.port, cause }))))
            http.listen(options.port, options.host, () => resume(Effect.succeed(http)))
          }),
          (http) =>
            Effect.gen(function* () {
              // Close every session and wait for its scope (its app) to be released before the server goes.
              for (const { transport, scope } of [...sessions.values()]) {
                yield* Effect.promise(() => transport.close().catch(() => undefined))
                yield* Scope.close(scope, Exit.void)
              }
              yield* Effect.promise(
                () =>
                  new Promise<void>((resolve) => {
                    http.close(() => resolve())
                    http.closeAllConnections()
                  })
              )
            })
        )
        const port = (server.address() as AddressInfo).port
        lists = allowLists(options, port)
        const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host
        return HttpServer.of({ url: `http://${shownHost}:${port}${path}`, port, sessions: () => sessions.size })
      })
    )
}
