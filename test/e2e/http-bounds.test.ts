/**
 * The Streamable HTTP transport against a client that does not let go: the session cap, the idle
 * timeout (its app closed with it), the binding of a session to its creator, and the TCP connection
 * cap. The server runs in-process (HttpServer.layer) with small bounds; clients are the SDK's and raw
 * node:http requests.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { connect as tcpConnect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { vi } from "vitest"
import { sampleAppPath } from "../../src/samples.js"
import { HttpServer, type HttpOptions } from "../../src/server/HttpServer.js"
import { freshUserData } from "../support/mcp.js"
import { waitAllGone } from "../support/processes.js"

const TOKEN = "bounds-token-for-tests"
const AUTH = { authorization: `Bearer ${TOKEN}` }
const stops: Array<() => Promise<void>> = []

afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
})

/** An in-process server with the given bounds (token required unless `authToken: undefined`); stopped after the test. */
const startHttp = async (options: Partial<HttpOptions>) => {
  const scope = Effect.runSync(Scope.make())
  const layer = HttpServer.layer(
    { host: "127.0.0.1", port: 0, authToken: Redacted.make(TOKEN), ...options },
    { toolProfile: "essential", outputDir: mkdtempSync(join(tmpdir(), "sw-http-bounds-")) }
  )
  const http = Context.get(await Effect.runPromise(Layer.buildWithScope(layer, scope)), HttpServer)
  stops.push(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  return { http, url: new URL(http.url) }
}

const connect = async (url: URL, headers: Record<string, string> = AUTH) => {
  const client = new Client({ name: "bounds-test", version: "1" })
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
  await client.connect(transport)
  return { client, transport }
}

interface Raw {
  readonly method?: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
  /** The client's source address (any 127/8 address reaches a loopback listener on Linux). */
  readonly localAddress?: string
}

/** One raw request; resolves with the status and the body (a GET's SSE stream is not waited for). */
const raw = (url: URL, { method = "POST", body, headers = {}, localAddress }: Raw) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        method,
        ...(localAddress !== undefined ? { localAddress } : {}),
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers }
      },
      (res) => {
        if (method === "GET" && res.statusCode === 200) {
          res.destroy()
          return resolve({ status: 200, body: "" })
        }
        let text = ""
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
        res.once("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on("error", reject)
    req.end(body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body))
  })

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}
const toolsList = { jsonrpc: "2.0", id: 7, method: "tools/list" }

/** A raw GET of a session's SSE stream, held open until `close` (a connected client's stream). */
const holdStream = (url: URL, id: string) =>
  new Promise<{ readonly close: () => void }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        method: "GET",
        headers: { accept: "text/event-stream", "mcp-protocol-version": "2025-06-18", "mcp-session-id": id, ...AUTH }
      },
      (res) => (res.statusCode === 200 ? resolve({ close: () => res.destroy() }) : reject(new Error(`GET answered ${res.statusCode}`)))
    )
    req.on("error", reject)
    req.end()
  })

/** A raw initialize that leaves without DELETE (as the Inspector CLI, mcp-remote and the conformance suite do); its session id. */
const abandon = async (url: URL) => {
  const answer = await new Promise<{ status: number; id: string | undefined }>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...AUTH }
      },
      (res) => {
        res.resume()
        res.once("end", () => resolve({ status: res.statusCode ?? 0, id: res.headers["mcp-session-id"] as string | undefined }))
      }
    )
    req.on("error", reject)
    req.end(JSON.stringify(initialize))
  })
  return answer
}

describe("HTTP session cap", () => {
  it("on default flags: 24 clients that leave without DELETE, then a new one, all answered 200; 16 sessions held", async () => {
    const { http, url } = await startHttp({})
    const rows: Array<{ client: number; status: number; sessions: number }> = []
    for (let client = 1; client <= 25; client++) {
      const { status } = await abandon(url)
      rows.push({ client, status, sessions: http.sessions() })
    }
    process.stderr.write(`[http-cap] client | status | sessions open\n${rows.map((r) => `${r.client} | ${r.status} | ${r.sessions}`).join("\n")}\n`)
    expect(rows.map((r) => r.status)).toEqual(Array(25).fill(200))
    expect(rows.map((r) => r.sessions)).toEqual([...Array.from({ length: 16 }, (_, i) => i + 1), ...Array(9).fill(16)])
    // The newest is served; the oldest (evicted first) is gone.
    const c = await connect(url)
    expect((await c.client.listTools()).tools.length).toBeGreaterThan(0)
    await c.client.close()
  })

  it("evicts the least recently used idle session, never a live one; all live: 503, opening nothing", async () => {
    const { http, url } = await startHttp({ maxSessions: 2 })
    const a = (await abandon(url)).id!
    const b = (await abandon(url)).id!
    // a is older but has a stream open (a connected client): b, idle, is the one closed.
    const streamA = await holdStream(url, a)
    expect((await abandon(url)).status).toBe(200)
    expect(http.sessions()).toBe(2)
    expect((await raw(url, { body: toolsList, headers: { ...AUTH, "mcp-session-id": b } })).status).toBe(404)
    expect((await raw(url, { body: toolsList, headers: { ...AUTH, "mcp-session-id": a } })).status).toBe(200)
    streamA.close()
    await vi.waitFor(
      async () => {
        // a is idle again once its stream is gone: the next newcomer takes its place.
        expect((await abandon(url)).status).toBe(200)
      },
      { timeout: 10_000, interval: 100 }
    )
    // Both sessions live (two SDK clients, their streams open): no room, and the newcomer opens nothing.
    const [x, y] = [await connect(url), await connect(url)]
    await vi.waitFor(
      async () => {
        const refused = await raw(url, { body: initialize, headers: AUTH })
        expect(refused.status).toBe(503)
        expect(JSON.parse(refused.body)).toMatchObject({ error: { message: expect.stringContaining("every one has a request in flight or an open stream") } })
      },
      { timeout: 10_000, interval: 100 }
    )
    expect(http.sessions()).toBe(2)
    expect((await x.client.listTools()).tools.length).toBeGreaterThan(0)
    expect((await y.client.listTools()).tools.length).toBeGreaterThan(0)
    // Ending one (DELETE) makes room again.
    await x.transport.terminateSession()
    await x.client.close()
    await vi.waitFor(() => expect(http.sessions()).toBe(1), { timeout: 10_000, interval: 50 })
    const z = await connect(url)
    expect((await z.client.listTools()).tools.length).toBeGreaterThan(0)
    await Promise.all([y.client.close(), z.client.close()])
  })

  it("closes an evicted session's app", async () => {
    const { http, url } = await startHttp({ maxSessions: 1 })
    const a = await connect(url)
    const launched = await a.client.callTool(
      { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } } },
      undefined,
      { timeout: 120_000 }
    )
    expect(launched.isError, JSON.stringify(launched.content)).not.toBe(true)
    const pid = ((await a.client.callTool({ name: "electron_status", arguments: {} })).structuredContent as any).app.pid as number
    // The client goes away without DELETE; its stream closes, the session is idle.
    await a.client.close()
    await vi.waitFor(async () => expect((await abandon(url)).status).toBe(200), { timeout: 10_000, interval: 100 })
    expect(http.sessions()).toBe(1)
    expect(await waitAllGone([pid])).toEqual([])
  })
})

describe("HTTP idle timeout", () => {
  it("closes a session its client left without DELETE, and its app, while a connected session stays", async () => {
    const { http, url } = await startHttp({ sessionIdleTimeoutMs: 2_000 })
    const a = await connect(url)
    const b = await connect(url)
    const launched = await a.client.callTool(
      { name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } } },
      undefined,
      { timeout: 120_000 }
    )
    expect(launched.isError, JSON.stringify(launched.content)).not.toBe(true)
    const status = await a.client.callTool({ name: "electron_status", arguments: {} })
    const pid = (status.structuredContent as any).app.pid as number
    expect(pid).toBeGreaterThan(0)
    const id = a.transport.sessionId!
    // The client goes away (its fetches and SSE stream aborted) without a DELETE.
    await a.client.close()
    await vi.waitFor(() => expect(http.sessions()).toBe(1), { timeout: 30_000, interval: 100 })
    expect(await waitAllGone([pid])).toEqual([])
    const later = await raw(url, { body: toolsList, headers: { ...AUTH, "mcp-session-id": id } })
    expect(later.status).toBe(404)
    // b was connected for longer than the timeout, its GET stream open: it was never idle.
    expect((await b.client.listTools()).tools.length).toBeGreaterThan(0)
    await b.client.close()
  })
})

describe("HTTP session binding", () => {
  for (const token of [true, false]) {
    it(`answers another client's use of a session id as an unknown session (${token ? "same bearer token, another address" : "no token, another address"})`, async () => {
      const auth = token ? AUTH : {}
      const { http, url } = await startHttp(token ? {} : { authToken: undefined })
      const a = await connect(url, auth)
      const id = a.transport.sessionId!
      const withId = { ...auth, "mcp-session-id": id }
      // The creator's own raw request with the id is served: the refusals below are the binding's.
      expect((await raw(url, { body: toolsList, headers: withId })).status).toBe(200)
      const unknown = await raw(url, { body: toolsList, headers: { ...auth, "mcp-session-id": randomUUID() }, localAddress: "127.0.0.2" })
      expect(unknown.status).toBe(404)
      const post = await raw(url, { body: toolsList, headers: withId, localAddress: "127.0.0.2" })
      const get = await raw(url, { method: "GET", headers: withId, localAddress: "127.0.0.2" })
      const del = await raw(url, { method: "DELETE", headers: withId, localAddress: "127.0.0.2" })
      expect([post.status, get.status, del.status]).toEqual([404, 404, 404])
      for (const refused of [post, del]) expect(refused.body).toBe(unknown.body)
      expect(http.sessions()).toBe(1)
      expect((await a.client.listTools()).tools.length).toBeGreaterThan(0)
      await a.client.close()
    })
  }
})

/** Raw requests with `headers` from another process on this host (same address): their statuses in order. */
const fromAnotherProcess = (url: URL, headers: Record<string, string>, methods: ReadonlyArray<string>) =>
  new Promise<Array<number>>((resolve, reject) => {
    const script = `
      const http = require("node:http")
      const one = (method) => new Promise((done) => {
        const req = http.request({ host: "127.0.0.1", port: ${url.port}, path: ${JSON.stringify(url.pathname)}, method, headers: ${JSON.stringify({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers })} }, (res) => { res.destroy(); done(res.statusCode) })
        req.on("error", () => done(0))
        req.end(method === "POST" ? ${JSON.stringify(JSON.stringify(toolsList))} : undefined)
      })
      ;(async () => { const out = []; for (const m of ${JSON.stringify(methods)}) out.push(await one(m)); process.stdout.write(JSON.stringify(out)) })()`
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk))
    child.once("error", reject)
    child.once("exit", () => resolve(JSON.parse(out) as Array<number>))
  })

describe("HTTP session binding to the client's process", () => {
  it("answers another process's use of a session id as an unknown session (same bearer token, same address)", async () => {
    const { http, url } = await startHttp({})
    const a = await connect(url)
    const withId = { ...AUTH, "mcp-session-id": a.transport.sessionId! }
    expect(await fromAnotherProcess(url, withId, ["POST", "GET", "DELETE"])).toEqual([404, 404, 404])
    // The creator's process (new connections included) is still served, and the session is still there.
    expect((await raw(url, { body: toolsList, headers: { ...withId, connection: "close" } })).status).toBe(200)
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0)
    expect(http.sessions()).toBe(1)
    await a.client.close()
  })
})

describe("HTTP request bodies", () => {
  it("answers a 100,000-deep JSON body with a JSON-RPC error, with or without a session, and keeps serving", async () => {
    const { http, url } = await startHttp({})
    const a = await connect(url)
    const deep = (method: string) =>
      `{"jsonrpc":"2.0","id":3,"method":"${method}","params":{"name":"electron_status","arguments":{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}}`
    for (const headers of [AUTH, { ...AUTH, "mcp-session-id": a.transport.sessionId! }]) {
      const answer = await raw(url, { body: deep(headers === AUTH ? "initialize" : "tools/call"), headers })
      expect(answer.status).toBe(400)
      const error = JSON.parse(answer.body) as { jsonrpc: string; error: { code: number; message: string } }
      expect(error.jsonrpc).toBe("2.0")
      expect(error.error.code).toBe(-32700)
      expect(error.error.message).toContain("nested deeper than")
    }
    // Not JSON at all, and JSON of ordinary depth, still get the transport's own answers.
    expect((await raw(url, { body: "{not json", headers: AUTH })).status).toBe(400)
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0)
    expect(http.sessions()).toBe(1)
    await a.client.close()
  })
})

describe("HTTP connection cap", () => {
  const open = (url: URL) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = tcpConnect(Number(url.port), "127.0.0.1", () => resolve(socket))
      socket.once("error", reject)
    })

  it("drops a TCP connection over the cap without an answer, and serves again once one closes", async () => {
    const { url } = await startHttp({ maxConnections: 2 })
    const held = [await open(url), await open(url)]
    const extra = await open(url)
    const answer = await new Promise<string>((resolve) => {
      let data = ""
      extra.on("data", (chunk) => (data += String(chunk)))
      extra.once("close", () => resolve(data))
      extra.once("error", () => undefined)
      extra.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\n\r\n`)
    })
    expect(answer).toBe("")
    for (const socket of held) socket.destroy()
    await vi.waitFor(async () => expect((await raw(url, { body: initialize, headers: { ...AUTH, connection: "close" } })).status).toBe(200), {
      timeout: 10_000,
      interval: 100
    })
  })
})
