/**
 * An app Stagewright attached to by pid ends when it ends itself. Node keeps a process that exits, or signals
 * itself, until the inspector's WebSocket clients disconnect ("Waiting for the debugger to disconnect"): the
 * attached session's inspector connection must let go when the main process says it is waiting for that.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { resolveElectronRuntime } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { exitOf, stopApp } from "../support/debug-port.js"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { descendants } from "../support/processes.js"

const started: Array<ChildProcess> = []
let mcp: TestClient

/** The hardened sample app as `npm start` starts it (no debug switch), once its Chromium runs. */
const startPlain = async () => {
  const child = spawn(resolveElectronRuntime().executablePath, [sampleAppPath("hardened")], { stdio: ["pipe", "ignore", "ignore"], detached: true })
  child.on("error", () => undefined)
  started.push(child)
  await Effect.runPromise(
    Effect.sync(() => descendants(child.pid!).length).pipe(
      Effect.filterOrFail((n) => n > 0),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout("30 seconds")
    )
  )
  return child
}

/** How the child ended, or "running" when it has not within `ms`. */
const endOf = (child: ChildProcess, ms: number) =>
  Effect.runPromise(
    exitOf(child, ms).pipe(
      Effect.map(() => `ended (code ${child.exitCode}, signal ${child.signalCode})`),
      Effect.orElseSucceed(() => "running")
    )
  )

/** electron_status once it no longer says running (undefined when it still does after 10 s). */
const statusOnceEnded = () =>
  Effect.runPromise(
    Effect.promise(() => mcp.call("electron_status")).pipe(
      Effect.filterOrFail((r) => r.structured?.app?.state !== "running"),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout("10 seconds"),
      Effect.orElseSucceed(() => undefined)
    )
  )

beforeAll(async () => {
  mcp = await inMemoryClient({ allowEval: ["main"] })
}, 60_000)

afterAll(async () => {
  await mcp?.close()
  for (const child of started) await stopApp(child)
})

describe("an attached app that ends itself", () => {
  for (const [how, code, ending] of [
    ["process.exit()", "() => { setTimeout(() => process.exit(3), 100); return 'bye' }", "ended (code 3, signal null)"],
    ["a SIGKILL it sends itself", "() => { setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100); return 'bye' }", "ended (code null, signal SIGKILL)"]
  ] as const) {
    it(`ends at once on ${how} while attached, and the session says it is gone`, async () => {
      const app = await startPlain()
      const attached = await mcp.call("electron_attach", { pid: app.pid })
      expect(attached.isError, attached.text).toBe(false)
      const asked = await mcp.call("electron_eval_main", { function: code })
      expect(asked.text).toContain("bye")
      // Without letting go, the app stays in "Waiting for the debugger to disconnect" for as long as the session lasts.
      expect(await endOf(app, 10_000)).toBe(ending)
      const status = await statusOnceEnded()
      expect(status, "electron_status still says running").toBeDefined()
      expect(status?.structured?.app?.state, status?.text).not.toBe("running")
      expect(status?.text).toContain("its main process ended")
      await mcp.call("electron_close")
    })
  }

  it("killed from outside while attached, the session says the app closed its connection, and a call answers APP_CRASHED", async () => {
    const app = await startPlain()
    const attached = await mcp.call("electron_attach", { pid: app.pid })
    expect(attached.isError, attached.text).toBe(false)
    process.kill(-app.pid!, "SIGKILL")
    expect(await endOf(app, 10_000)).toBe("ended (code null, signal SIGKILL)")
    const status = await statusOnceEnded()
    expect(status, "electron_status still says running").toBeDefined()
    expect(status?.text).toContain("the app closed its debugging connection")
    const read = await mcp.call("electron_get_text", { target: "role=heading[level=1]" })
    expect(read.code, read.text).toBe("APP_CRASHED")
    await mcp.call("electron_close")
  })
})
