/**
 * MCP progress (src/server/progress.ts): a call given a progress sink beats every HEARTBEAT with a strictly
 * increasing progress and a message naming the tool, what it waits for and the elapsed time; the heartbeat
 * ends with the call, cancelled or not; without a progress token nothing is sent. The mechanism tests run
 * on the TestClock; the MCP tests run the SDK client on the in-memory pair with the sample plugin.
 */
import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Deferred, Duration, Effect, Fiber, Ref, TestClock } from "effect"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createServer } from "../../src/index.js"
import { describing } from "../../src/layers/driver/waits.js"
import { Dispatcher } from "../../src/server/Dispatcher.js"
import { callLimitMs, describeCall, HEARTBEAT, withProgress, type ProgressUpdate } from "../../src/server/progress.js"
import { coreLayer } from "../../src/server/Stagewright.js"

const samplePlugin = fileURLToPath(new URL("../fixtures/plugins/sample-plugin.mjs", import.meta.url))
const marker = () => join(mkdtempSync(join(tmpdir(), "sw-progress-")), "marker")

/** A sink that records every update. */
const recorder = Effect.map(Ref.make<ReadonlyArray<ProgressUpdate>>([]), (updates) => ({
  updates,
  sink: (update: ProgressUpdate) => Ref.update(updates, (all) => [...all, update])
}))

describe("withProgress", () => {
  it.effect("beats every period after the first, with increasing progress and the call's message, and stops with the call", () =>
    Effect.gen(function* () {
      const { updates, sink } = yield* recorder
      const call = Effect.sleep("7 seconds").pipe(Effect.as("done"))
      const fiber = yield* Effect.fork(withProgress(call, { tool: "electron_wait_for", limitMs: 90_000, activity: "waiting for testid=x", sink }))
      yield* TestClock.adjust("1 second")
      expect(yield* Ref.get(updates)).toEqual([])
      yield* TestClock.adjust("6 seconds")
      expect(yield* Fiber.join(fiber)).toBe("done")
      const seen = yield* Ref.get(updates)
      expect(seen.map((u) => u.progress)).toEqual([2_000, 4_000, 6_000])
      expect(seen[0]!.message).toBe("electron_wait_for: waiting for testid=x (2 s of 90 s)")
      yield* TestClock.adjust("30 seconds")
      expect(yield* Ref.get(updates)).toHaveLength(3)
    })
  )

  it.effect("code inside the call names what it waits for with describing, restored after", () =>
    Effect.gen(function* () {
      const { updates, sink } = yield* recorder
      const call = Effect.zipRight(describing("waiting for the first window", Effect.sleep("3 seconds")), Effect.sleep("2 seconds"))
      const fiber = yield* Effect.fork(withProgress(call, { tool: "electron_launch", limitMs: 60_000, activity: "running", sink }))
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(fiber)
      expect((yield* Ref.get(updates)).map((u) => u.message)).toEqual([
        "electron_launch: waiting for the first window (2 s of 60 s)",
        "electron_launch: running (4 s of 60 s)"
      ])
      // Outside a call with progress, describing just runs the effect.
      expect(yield* describing("nothing", Effect.succeed(1))).toBe(1)
    })
  )

  it.effect("an interrupted call sends no further progress", () =>
    Effect.gen(function* () {
      const { updates, sink } = yield* recorder
      const fiber = yield* Effect.fork(withProgress(Effect.never, { tool: "sample_hang", limitMs: 60_000, activity: "running", sink }))
      yield* TestClock.adjust("2 seconds")
      expect(yield* Ref.get(updates)).toHaveLength(1)
      yield* Fiber.interrupt(fiber)
      yield* TestClock.adjust("60 seconds")
      expect(yield* Ref.get(updates)).toHaveLength(1)
    })
  )

  it("describes a call by its wait terms (read-only tools only) and bounds it by the operation timeout", () => {
    expect(describeCall({ target: "testid=x", state: "visible", timeoutMs: 9 }, true)).toBe("waiting for testid=x")
    expect(describeCall({ text: "Saved", url: "/done" }, true)).toBe('waiting for text "Saved", url "/done"')
    expect(describeCall({ text: "typed secret" }, false)).toBe("running")
    expect(describeCall({}, true)).toBe("running")
    expect(callLimitMs({ timeoutMs: 90_000 }, 120_000)).toBe(90_000)
    expect(callLimitMs({ timeoutMs: 600_000 }, 120_000)).toBe(120_000)
    expect(callLimitMs({}, 60_000)).toBe(60_000)
  })
})

describe("Dispatcher progress", () => {
  it.live(
    "a cancelled call stops calling its sink",
    () =>
      Effect.gen(function* () {
        const dispatcher = yield* Dispatcher
        const first = yield* Deferred.make<void>()
        const after = yield* Deferred.make<ProgressUpdate>()
        const cancelled = yield* Ref.make(false)
        const sink = (update: ProgressUpdate) =>
          Effect.flatMap(Ref.get(cancelled), (done) => (done ? Deferred.succeed(after, update) : Deferred.succeed(first, undefined)))
        const fiber = yield* Effect.fork(dispatcher.call("sample_wait", { ms: 30_000, marker: marker() }, { progress: sink }))
        yield* Deferred.await(first).pipe(Effect.timeoutFail({ duration: "5 seconds", onTimeout: () => "no progress before the cancel" }))
        yield* Ref.set(cancelled, true)
        yield* Fiber.interrupt(fiber)
        // One heartbeat period and a margin: a heartbeat still running would have beaten by then.
        const late = yield* Deferred.await(after).pipe(Effect.timeout(Duration.sum(HEARTBEAT, "1500 millis")), Effect.option)
        expect(late._tag, "progress after the cancel").toBe("None")
      }).pipe(Effect.provide(coreLayer({ plugins: [samplePlugin], outputDir: mkdtempSync(join(tmpdir(), "sw-progress-out-")) }))),
    15_000
  )
})

/** An SDK client on the in-memory pair, with every progress notification it receives recorded (with its time). */
const withClient = async (f: (client: Client, progress: Array<{ readonly at: number; readonly params: any }>) => Promise<void>) => {
  const server = await createServer({ plugins: [samplePlugin], outputDir: mkdtempSync(join(tmpdir(), "sw-progress-out-")) })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "progress-test", version: "1" })
  await client.connect(clientTransport)
  const progress: Array<{ readonly at: number; readonly params: any }> = []
  const deliver = clientTransport.onmessage!
  clientTransport.onmessage = (message: JSONRPCMessage, extra) => {
    if ("method" in message && message.method === "notifications/progress") progress.push({ at: Date.now(), params: message.params })
    deliver(message, extra)
  }
  try {
    await f(client, progress)
  } finally {
    await client.close()
    await server.close()
  }
}

describe("MCP progress", () => {
  it("is sent only for a request with a progress token", async () => {
    await withClient(async (client, progress) => {
      const ms = Duration.toMillis(HEARTBEAT) + 700
      const plain = await client.callTool({ name: "sample_wait", arguments: { ms, marker: marker() } })
      expect((plain.content as any)[0].text).toBe("waited")
      expect(progress).toEqual([])
      const seen: Array<unknown> = []
      const tracked = await client.callTool({ name: "sample_wait", arguments: { ms, marker: marker() } }, undefined, { onprogress: (p) => seen.push(p) })
      expect((tracked.content as any)[0].text).toBe("waited")
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ message: expect.stringMatching(/^sample_wait: running \(2 s of 60 s\)$/) })
    })
  }, 15_000)

  it("a cancelled request receives no progress after the cancel", async () => {
    await withClient(async (client, progress) => {
      const file = marker()
      const controller = new AbortController()
      let firstProgress!: () => void
      const first = new Promise<void>((resolve) => (firstProgress = resolve))
      const pending = client.callTool({ name: "sample_wait", arguments: { ms: 30_000, marker: file } }, undefined, {
        signal: controller.signal,
        onprogress: () => firstProgress()
      })
      pending.catch(() => undefined)
      await first
      controller.abort("test cancels")
      await expect(pending).rejects.toThrow()
      await expect.poll(() => existsSync(file) && readFileSync(file, "utf8"), { timeout: 5_000 }).toBe("interrupted")
      const atCancel = progress.length
      // Resolves on any later progress notification, or after one heartbeat period and a margin.
      const late = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), Duration.toMillis(HEARTBEAT) + 1_500)
        const deliver = (client.transport as InMemoryTransport).onmessage!
        ;(client.transport as InMemoryTransport).onmessage = (message, extra) => {
          if ("method" in message && message.method === "notifications/progress") {
            clearTimeout(timer)
            resolve(true)
          }
          deliver(message, extra)
        }
      })
      expect(late, "progress after the cancel").toBe(false)
      expect(progress.length).toBe(atCancel)
    })
  }, 15_000)
})
