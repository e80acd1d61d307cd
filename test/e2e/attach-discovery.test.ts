/**
 * electron_attach without a target lists this user's running apps with an open remote debugging port
 * (Linux /proc; a port-0 app through its Chromium's DevToolsActivePort), and attaches by pid or by port
 * on 127.0.0.1. Apps are started here, outside Stagewright, as a developer starts them, and stopped after.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { ChildProcess } from "node:child_process"
import { spawnSync } from "node:child_process"
import { resolveElectronRuntime } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { freePort, startWithDebugPort, stopApp } from "../support/debug-port.js"
import { callUntil, freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let fixed: { child: ChildProcess; port: number }
let zero: { child: ChildProcess; port: number }

beforeAll(async () => {
  const executable = resolveElectronRuntime().executablePath
  const port = await freePort()
  fixed = await startWithDebugPort(executable, [`--remote-debugging-port=${port}`, sampleAppPath("tasks")], { SAMPLE_APP_USER_DATA: freshUserData() })
  zero = await startWithDebugPort(executable, ["--remote-debugging-port=0", sampleAppPath("hardened")])
  mcp = await inMemoryClient()
}, 120_000)

afterAll(async () => {
  await mcp?.close()
  for (const app of [fixed, zero]) if (app) await stopApp(app.child)
})

type Listed = { pid: number; name: string; port: number; title?: string }
const listed = (result: { structured: any }, pid: number | undefined): Listed | undefined =>
  (result.structured?.apps as Array<Listed> | undefined)?.find((app) => app.pid === pid)

describe("electron_attach discovery", () => {
  it("lists running apps with their pid, name, port and first page title, without attaching", async () => {
    // The apps' windows load after Chromium opens its port: list until both titles are there (two apps starting
    // beside another test file's on two cores can take longer than 20 s to show their first page).
    const listing = await Effect.runPromise(
      callUntil(
        mcp,
        "electron_attach",
        {},
        (r) => /^Tasks/.test(listed(r, fixed.child.pid)?.title ?? "") && listed(r, zero.child.pid)?.title === "Hardened Demo",
        45_000
      )
    )
    expect(listing.isError, listing.text).toBe(false)
    expect(listed(listing, fixed.child.pid), listing.text).toMatchObject({
      pid: fixed.child.pid,
      name: "electron",
      port: fixed.port,
      title: expect.stringMatching(/^Tasks/)
    })
    // Started with port 0: the port Chromium picked, read from its DevToolsActivePort, under the app's own pid.
    expect(listed(listing, zero.child.pid), listing.text).toMatchObject({ pid: zero.child.pid, port: zero.port, title: "Hardened Demo" })
    expect(listing.text).toContain(`pid ${fixed.child.pid} electron port ${fixed.port} "Tasks`)
    expect(listing.text).toMatch(/Next: electron_attach with pid or port/)
    expect((await mcp.call("electron_status")).structured.app.state).toBe("none")
  })

  it("attaches by pid and reads the app's window", async () => {
    const attached = await mcp.call("electron_attach", { pid: fixed.child.pid })
    expect(attached.isError, attached.text).toBe(false)
    expect(attached.text).toMatch(new RegExp(`^Attached to pid ${fixed.child.pid}, port ${fixed.port} \\(windows only`))
    expect(attached.structured).toMatchObject({ pid: fixed.child.pid, port: fixed.port, mainProcess: false })
    const snapshot = await Effect.runPromise(callUntil(mcp, "electron_snapshot", {}, (r) => /heading "Task Board"/.test(r.text)))
    expect(snapshot.text).toMatch(/heading "Task Board"/)
    expect((await mcp.call("electron_close")).isError).toBe(false)
    // Detaching leaves the app running.
    expect(fixed.child.exitCode).toBeNull()
  })

  it("attaches by port on 127.0.0.1", async () => {
    const attached = await mcp.call("electron_attach", { port: zero.port })
    expect(attached.isError, attached.text).toBe(false)
    expect((await mcp.call("electron_get_text", { target: "role=heading[level=1]" })).text).toBe("Hardened Demo")
    expect((await mcp.call("electron_close")).isError).toBe(false)
  })

  it("fails with a clear error for a port where nothing listens, a pid that is not running or has no port, and two targets", async () => {
    const closedPort = await freePort()
    const none = await mcp.call("electron_attach", { port: closedPort })
    expect(none.code, none.text).toBe("LAUNCH_FAILED")
    expect(none.text).toContain(`Nothing answers as a remote debugging port on 127.0.0.1:${closedPort} (ECONNREFUSED)`)
    expect(none.text).toMatch(/Hint: Call electron_attach with no arguments to list running apps/)
    const gone = spawnSync(process.execPath, ["-e", ""]).pid
    const notRunning = await mcp.call("electron_attach", { pid: gone })
    expect(notRunning.code, notRunning.text).toBe("LAUNCH_FAILED")
    expect(notRunning.text).toContain(`no process ${gone} is running`)
    const noPort = await mcp.call("electron_attach", { pid: process.pid })
    expect(noPort.code, noPort.text).toBe("LAUNCH_FAILED")
    // No port, and not an Electron app (the test process): nothing to open its inspector for.
    expect(noPort.text).toMatch(new RegExp(`Cannot attach to pid ${process.pid} \\(.+\\): it is not an Electron app`))
    const both = await mcp.call("electron_attach", { pid: fixed.child.pid, port: fixed.port })
    expect(both.code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_status")).structured.app.state).not.toBe("running")
  })
})
