/**
 * The profile benchmark's agent is an Effect program: a task cut by its timeout is interrupted, and the
 * interruption reaches the SDK call in flight (the request is aborted and the server is told to cancel it).
 * A stub MCP server on the in-memory pair lists two tools; its electron_wait_for never answers on its own.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Deferred, Duration, Effect } from "effect"
import { makeAgent } from "../../src/bench/profiles/agent.js"
import { runScript } from "../../src/bench/profiles/run.js"

/** A server whose electron_wait_for waits until the client cancels it; it records what it was asked and what was cancelled. */
const stubSession = Effect.gen(function* () {
  const started = yield* Deferred.make<string>()
  const cancelled = yield* Deferred.make<string>()
  const received: Array<string> = []
  const server = new Server({ name: "stub", version: "1.0.0" }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ["electron_wait_for", "electron_click"].map((name) => ({ name, inputSchema: { type: "object" as const } }))
  }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    received.push(request.params.name)
    if (request.params.name !== "electron_wait_for") return { content: [{ type: "text" as const, text: "done" }] }
    Deferred.unsafeDone(started, Effect.succeed(request.params.name))
    return new Promise((resolve) => {
      extra.signal.addEventListener("abort", () => {
        Deferred.unsafeDone(cancelled, Effect.succeed(String(extra.signal.reason)))
        resolve({ content: [{ type: "text" as const, text: "cancelled" }], isError: true })
      })
    })
  })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: "interrupt-test", version: "1.0.0" })
  yield* Effect.acquireRelease(
    Effect.promise(async () => {
      await server.connect(serverTransport)
      await client.connect(clientTransport)
    }),
    () => Effect.promise(() => client.close().then(() => server.close()))
  )
  const { tools } = yield* Effect.promise(() => client.listTools())
  return { client, tools, started, cancelled, received }
})

describe("profile benchmark: the agent under a task timeout", () => {
  it.live("a script stuck in a call ends as timed out and the request is cancelled at the server (the interruption reaches the SDK call)", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stubSession
        // The SDK's own per-call limit is far away: only the task's timeout can end the call.
        const agent = makeAgent({ client: session.client, tools: session.tools, perCallTimeoutMs: 600_000 })
        const script = Effect.gen(function* () {
          agent.step("wait for a text the page never shows")
          yield* agent.must("electron_wait_for", { text: "never shown" })
          agent.step("press the button")
          return yield* agent.must("electron_click", { target: "e1" })
        })
        const outcome = yield* runScript(script, 300)
        expect(outcome).toEqual({ timedOut: true, error: "timed out after 300 ms" })
        expect(yield* Deferred.await(session.started)).toBe("electron_wait_for")
        // The server saw the cancel (notifications/cancelled aborts its handler); a call left running would not.
        const reason = yield* Deferred.await(session.cancelled).pipe(Effect.timeout(Duration.seconds(5)))
        expect(reason).toMatch(/interrupt|abort/i)
        expect(agent.calls).toEqual([])
        // The client is still usable: a call made after the cancel is answered; the interrupted script made no other call.
        const after = yield* Effect.promise(() => session.client.callTool({ name: "electron_click", arguments: {} }))
        expect(after.content).toEqual([{ type: "text", text: "done" }])
        expect(session.received).toEqual(["electron_wait_for", "electron_click"])
      })
    )
  )

  it.live("a call the server answers is recorded, and giving up is the typed failure the run reports", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const session = yield* stubSession
        const agent = makeAgent({ client: session.client, tools: session.tools, perCallTimeoutMs: 10_000 })
        const script = Effect.gen(function* () {
          agent.step("press the button")
          yield* agent.must("electron_click", { target: "e1" })
          return yield* agent.pick("electron_drag")
        })
        const outcome = yield* runScript(script, 10_000)
        expect(outcome.timedOut).toBe(false)
        expect(outcome.gaveUp?.message).toBe("no tool for this step (missing electron_drag)")
        expect(outcome.gaveUp?.missingTool).toBe("electron_drag")
        expect(agent.calls.map((c) => c.tool)).toEqual(["electron_click"])
        expect(agent.steps()).toEqual([{ intent: "press the button", tool: "electron_click" }])
      })
    )
  )
})
