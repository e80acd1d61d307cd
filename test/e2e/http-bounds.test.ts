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
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }
const toolsList = { jsonrpc: "2.0", id: 7, method: "tools/list" }

describe("HTTP session cap", () => {
  it("refuses an initialize over the cap with 503 and opens nothing; the open sessions keep working", async () => {
    const { http, url } = await startHttp({ maxSessions: 2 })
    const a = await connect(url)
    const b = await connect(url)
    expect(http.sessions()).toBe(2)
    const refused = await raw(url, { body: initialize, headers: AUTH })
    expect(refused.status).toBe(503)
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("Too many sessions: this server serves at most 2") } })
    await expect(connect(url)).rejects.toThrow(/503|Too many sessions/)
    expect(http.sessions()).toBe(2)
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0)
    expect((await b.client.listTools()).tools.length).toBeGreaterThan(0)
    // Ending one (DELETE) makes room again.
    await a.transport.terminateSession()
    await a.client.close()
    await vi.waitFor(() => expect(http.sessions()).toBe(1), { timeout: 10_000, interval: 50 })
    const c = await connect(url)
    expect((await c.client.listTools()).tools.length).toBeGreaterThan(0)
    await Promise.all([b.client.close(), c.client.close()])
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
    await vi.waitFor(async () => expect((await raw(url, { body: initialize, headers: { ...AUTH, connection: "close" } })).status).toBe(200), { timeout: 10_000, interval: 100 })
  })
})
