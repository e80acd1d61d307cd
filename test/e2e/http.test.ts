/**
 * Streamable HTTP transport: the built server with --port, checked by a real SDK client and by raw
 * requests with foreign Host/Origin headers and missing or wrong bearer tokens.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { spawn, type ChildProcess } from "node:child_process"
import { request } from "node:http"
import { createInterface } from "node:readline"
import { PROFILES } from "../../src/profile/profiles.js"
import { sampleAppPath } from "../../src/samples.js"
import { CLI } from "../support/cli.js"
import { freshUserData, stdioClient } from "../support/mcp.js"
import { descendants, waitAllGone } from "../support/processes.js"

const TOKEN = "s3cret-token-for-tests"
let server: ChildProcess
let url: URL

/** Starts the HTTP server; resolves once it listens, with the stderr lines it printed so far. */
const startServer = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ child: ChildProcess; url: URL; stderr: Array<string> }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", ...args], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } })
    const stderr: Array<string> = []
    const timer = setTimeout(() => reject(new Error("server did not start")), 30_000)
    createInterface({ input: child.stderr! }).on("line", (line) => {
      stderr.push(line)
      const found = /stagewright listening on (\S+)/.exec(line)?.[1]
      if (found) {
        clearTimeout(timer)
        resolve({ child, url: new URL(found), stderr })
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}: ${stderr.join("\n")}`))
    })
  })

const connect = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => {
  const client = new Client({ name: "http-test", version: "1" })
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
  await client.connect(transport)
  return { client, transport }
}

/** A raw initialize POST with chosen headers; resolves with the HTTP status. */
const rawPost = (headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    })
    const req = request(
      {
        host: "127.0.0.1",
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }
      },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      }
    )
    req.on("error", reject)
    req.end(body)
  })

beforeAll(async () => {
  const started = await startServer(["--port", "0", "--auth-token-env", "SW_TOKEN", "--tool-profile", "testing", "--allow-eval", "renderer"], {
    SW_TOKEN: TOKEN
  })
  server = started.child
  url = started.url
})

afterAll(() => {
  server?.kill("SIGKILL")
})

describe("HTTP transport", () => {
  it("binds loopback by default and lists the same tools as stdio for the same flags", async () => {
    expect(url.hostname).toBe("127.0.0.1")
    const { client } = await connect()
    const overHttp = (await client.listTools()).tools
    await client.close()
    const stdio = await stdioClient(["--tool-profile", "testing", "--allow-eval", "renderer"])
    const overStdio = (await stdio.client.listTools()).tools
    await stdio.close()
    expect(overHttp.map((t) => t.name)).toEqual(overStdio.map((t) => t.name))
    expect(JSON.stringify(overHttp)).toBe(JSON.stringify(overStdio))
    // --tool-profile testing --allow-eval renderer: the testing list and the renderer eval tool.
    expect(overHttp.map((t) => t.name)).toEqual([...PROFILES.testing, "electron_eval_renderer"].sort())
  })

  it("rejects a foreign Host, a foreign Origin, and a missing or wrong token", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` }
    expect(await rawPost({ ...auth, host: `evil.example:${url.port}` })).toBe(403)
    expect(await rawPost({ ...auth, host: `127.0.0.1:${url.port}`, origin: "http://evil.example" })).toBe(403)
    expect(await rawPost({ host: `127.0.0.1:${url.port}` })).toBe(401)
    expect(await rawPost({ authorization: "Bearer wrong", host: `127.0.0.1:${url.port}` })).toBe(401)
    expect(await rawPost({ ...auth, host: `localhost:${url.port}`, origin: `http://localhost:${url.port}` })).toBe(200)
    await expect(connect({})).rejects.toThrow()
  })

  it("gives each session its own app and closes it with the session; SIGTERM leaves nothing behind", async () => {
    const a = await connect()
    const b = await connect()
    const launch = (client: Client) =>
      client.callTool({ name: "electron_launch", arguments: { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } } }, undefined, {
        timeout: 120_000
      })
    const [ra, rb] = await Promise.all([launch(a.client), launch(b.client)])
    expect(ra.isError).not.toBe(true)
    expect(rb.isError).not.toBe(true)
    const pidOf = async (client: Client) => ((await client.callTool({ name: "electron_status", arguments: {} })).structuredContent as any).app.pid as number
    const [pa, pb] = [await pidOf(a.client), await pidOf(b.client)]
    expect(pa).not.toBe(pb)
    // Ending session a (HTTP DELETE) closes its app only.
    await a.transport.terminateSession()
    await a.client.close()
    expect(await waitAllGone([pa])).toEqual([])
    expect(((await b.client.callTool({ name: "electron_status", arguments: {} })).structuredContent as any).app.state).toBe("running")
    const tree = [server.pid!, ...descendants(server.pid!)]
    server.kill("SIGTERM")
    expect(await waitAllGone(tree)).toEqual([])
  })
})

describe("HTTP flags", () => {
  it("refuses --auth-token-env naming an unset variable, and warns for a non-loopback host", async () => {
    await expect(startServer(["--port", "0", "--auth-token-env", "SW_UNSET_TOKEN_VAR"])).rejects.toThrow(/exited/)
    const open = await startServer(["--port", "0", "--host", "0.0.0.0"])
    open.child.kill("SIGKILL")
    expect(open.url.hostname).toBe("0.0.0.0")
    expect(open.stderr.join("\n")).toContain("--host 0.0.0.0 is not a loopback address: other machines can reach this server and no --auth-token-env is set")
  })

  it("refuses a plugin that cannot load before listening, as stdio does", async () => {
    const refused = await startServer(["--port", "0", "--plugin", "nosuch"]).then(
      () => "started",
      (error: Error) => error.message
    )
    expect(refused).toMatch(/^server exited with [1-9]/)
    expect(refused).toMatch(/Plugin \\?"nosuch\\?" not found/)
    expect(refused).not.toContain("stagewright listening on")
  })
})
