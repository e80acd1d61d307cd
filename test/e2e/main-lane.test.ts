/**
 * Issue 42: the main-process read every action's answer waits on (the modal states) goes over the driver's own
 * session on the launched app's Node inspector (src/layers/driver/main-lane.ts), not through playwright-core's
 * electronApplication.evaluate. The lane reads the app's live state, closes with the session, connects only to a
 * loopback address, lets go at once of a main process that ends itself (Node holds an ending process for its
 * inspector's clients), and an action whose IPC opens a native dialog still answers with the dialog's rows.
 */
import { Effect, Exit, Scope } from "effect"
import type { ElectronApplication } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { InspectorClient } from "../../src/layers/driver/inspector-client.js"
import { laneOf, loopbackInspector, openLane } from "../../src/layers/driver/main-lane.js"
import { installHeldDialogs, readHeld } from "../../src/layers/driver/main-modals.js"
import { mainSource, toFunction } from "../../src/layers/driver/selectors.js"
import { AppSession } from "../../src/layers/driver/session.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient } from "../support/mcp.js"
import { fixture, launch, runtime } from "../standin/helpers.js"

/** A function of ours, built to run in the main process through playwright-core (as the driver does). */
const inMain = <A>(fn: (electron: never, arg: A) => unknown) => toFunction(mainSource(fn)) as Parameters<ElectronApplication["evaluate"]>[0]

describe("loopbackInspector", () => {
  it("takes a ws:// address on the loopback only", () => {
    expect(loopbackInspector("ws://127.0.0.1:9229/4b1c")).toBe("ws://127.0.0.1:9229/4b1c")
    expect(loopbackInspector("ws://localhost:9229/4b1c")).toBe("ws://localhost:9229/4b1c")
    expect(loopbackInspector("ws://[::1]:9229/4b1c")).toBe("ws://[::1]:9229/4b1c")
    for (const refused of [
      "ws://192.0.2.1:9229/x",
      "ws://127.0.0.1.example.com:9229/x",
      "wss://127.0.0.1:9229/x",
      "http://127.0.0.1:9229",
      "9229",
      "",
      "ws://",
      9229,
      undefined
    ])
      expect(loopbackInspector(refused), String(refused)).toBeUndefined()
  })
})

describe(`the driver's own line to a launched main process (${runtime.kind})`, () => {
  let app: ElectronApplication
  let session: AppSession

  beforeAll(async () => {
    app = await launch(fixture("cjs-app"))
    await app.evaluate(inMain(installHeldDialogs), 60_000)
    session = new AppSession({ kind: "launched", context: app.context(), electronApp: app })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
  })

  it("reads the app's live modal state over its own inspector session, and closes with the session's scope", async () => {
    const scope = Effect.runSync(Scope.make())
    await Effect.runPromise(openLane(session, app, 5_000).pipe(Scope.extend(scope)))
    const lane = laneOf(session)
    expect(lane).toBeDefined()
    // A message box the app is waiting on is held in the main process: the lane sees it.
    await app.evaluate(({ dialog }) => void dialog.showMessageBox({ message: "Over the lane?", buttons: ["Yes", "No"] }))
    const read = await lane!.evaluate<{ held: Array<{ message?: string }> }, undefined>(mainSource(readHeld), undefined)
    expect(read.held.map((h) => h.message)).toEqual(["Over the lane?"])
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(lane!.closed).toBe(true)
    expect(laneOf(session)).toBeUndefined()
  })

  it("does not connect to an address the main process gives off the loopback", async () => {
    const connect = vi.spyOn(InspectorClient, "connect")
    const other = new AppSession({ kind: "launched", context: app.context(), electronApp: app })
    await app.evaluate(() => {
      const p = process as unknown as {
        getBuiltinModule?: (id: string) => { url: () => string }
        mainModule?: { require: (id: string) => { url: () => string } }
      }
      const inspector = p.getBuiltinModule ? p.getBuiltinModule("node:inspector") : p.mainModule!.require("inspector")
      inspector.url = () => "ws://192.0.2.1:9229/elsewhere"
    })
    await Effect.runPromise(Effect.scoped(openLane(other, app, 5_000)))
    expect(connect).not.toHaveBeenCalled()
    expect(laneOf(other)).toBeUndefined()
    connect.mockRestore()
  })
})

describe(`a launched app that ends itself with the lane open (${runtime.kind})`, () => {
  it("ends at once: the lane lets go when the main process says it waits for its clients, and playwright-core sees the close", async () => {
    const app = await launch(fixture("cjs-app"))
    try {
      const session = new AppSession({ kind: "launched", context: app.context(), electronApp: app })
      const scope = Effect.runSync(Scope.make())
      await Effect.runPromise(openLane(session, app, 5_000).pipe(Scope.extend(scope)))
      const lane = laneOf(session)
      expect(lane).toBeDefined()
      const closed = new Promise<string>((resolve) => app.once("close", () => resolve("closed")))
      await app.evaluate(() => void setTimeout(() => process.kill(process.pid, "SIGKILL"), 50))
      // Without letting go, the app stays in "Waiting for the debugger to disconnect" until the lane's scope closes.
      const within = await Promise.race([closed, new Promise<string>((resolve) => setTimeout(() => resolve("still running after 10 s"), 10_000))])
      expect(within).toBe("closed")
      expect(lane!.ending).toBe(true)
      expect(laneOf(session)).toBeUndefined()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    } finally {
      await app.close().catch(() => undefined)
    }
  }, 60_000)
})

describe("through the server", () => {
  it("an action's modal read goes over the lane, and a message box its IPC opened is in the click's answer", async () => {
    const overLane = vi.spyOn(InspectorClient.prototype, "evaluate")
    const mcp = await inMemoryClient()
    try {
      const launched = await mcp.call("electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.isError, launched.text).toBe(false)
      overLane.mockClear()
      const clicked = await mcp.call("electron_click", { target: "testid=about-button" })
      expect(clicked.isError, clicked.text).toBe(false)
      expect(clicked.text, `over the lane: ${overLane.mock.calls.length} call(s)`).toMatch(/- dialog "message box: About [^"]+" \[modal\]/)
      const reads = overLane.mock.calls.filter(([source]) => String(source).includes("__stagewrightReadHeld"))
      // Said on failure: what went over the lane (nothing when the lane did not open), and the click's answer.
      const sent = overLane.mock.calls.map(([source]) => String(source).slice(0, 80))
      expect(reads.length, `over the lane: ${JSON.stringify(sent)}\n${clicked.text}`).toBeGreaterThanOrEqual(1)
    } finally {
      overLane.mockRestore()
      await mcp.close()
    }
  }, 60_000)
})
