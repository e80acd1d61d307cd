/**
 * electron_attach by pid to an app started without any debug switch (a plain child process, as
 * `npm start` starts one): Stagewright opens its main-process inspector with SIGUSR1 (Node's
 * process._debugProcess), reaches its windows through webContents.debugger behind a loopback relay, and
 * on electron_close detaches and closes the inspector again; the app keeps running and can be attached
 * to again. Refused, with the reason, without --allow-eval main, for another user's process (a faked
 * owner), for processes that are not Electron (they survive: no SIGUSR1 was sent), and for a build whose
 * EnableNodeCliInspectArguments fuse is off.
 */
import { FuseV1Options } from "@electron/fuses"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { rmSync } from "node:fs"
import { createServer } from "node:net"
import { resolveElectronRuntime } from "../../src/index.js"
import { attachableProcess, inspectorOf } from "../../src/layers/driver/debug-process.js"
import { listeningSockets, ProcessProbe } from "../../src/layers/driver/process-facts.js"
import { sampleAppPath } from "../../src/samples.js"
import { stopApp } from "../support/debug-port.js"
import { callUntil, inMemoryClient, stdioClient, type TestClient } from "../support/mcp.js"
import { descendants, isAlive } from "../support/processes.js"
import { linuxBuild, RELEASE_FUSES, tempProject } from "../plugins/production-fixture.js"

const project = tempProject("attach-no-port")
const started: Array<ChildProcess> = []
let app: ChildProcess
let allowed: TestClient
let safe: TestClient

/** Starts `executable args` as a plain child process: no debug switch, its own process group. */
const plain = (executable: string, args: ReadonlyArray<string>) => {
  const child = spawn(executable, [...args], { stdio: ["pipe", "ignore", "pipe"], detached: true })
  child.on("error", () => undefined)
  // What an early exit says (a CI run once saw the app gone after its first detach): the exit and its stderr's tail.
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2_000)))
  child.once("exit", (code, signal) => exits.set(child.pid!, `exited (code ${code}, signal ${signal}); stderr ends: ${stderr.slice(-600)}`))
  started.push(child)
  return child
}
const exits = new Map<number, string>()
/** How the app is: running, or how it ended. */
const appState = (pid: number) => exits.get(pid) ?? "running"

/** Waits until the app's main process runs its Chromium (the stand-in) and has had a moment to open its window. */
const whenUp = (child: ChildProcess) =>
  Effect.runPromise(
    Effect.sync(() => descendants(child.pid!).length).pipe(
      Effect.filterOrFail(
        (n) => n > 0,
        () => "not yet"
      ),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout("30 seconds")
    )
  )

const inspectorGone = (pid: number) =>
  Effect.runPromise(
    inspectorOf(pid).pipe(
      Effect.filterOrFail(
        (found) => found === undefined,
        () => "still open"
      ),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout("10 seconds"),
      Effect.as(true),
      Effect.orElseSucceed(() => false)
    )
  )

beforeAll(async () => {
  app = plain(resolveElectronRuntime().executablePath, [sampleAppPath("hardened")])
  await whenUp(app)
  allowed = await inMemoryClient({ allowEval: ["main"] })
  safe = await inMemoryClient()
}, 120_000)

afterAll(async () => {
  await allowed?.close()
  await safe?.close()
  for (const child of started) await stopApp(child)
  rmSync(project, { recursive: true, force: true })
})

describe("electron_attach to an app started without a debug port", () => {
  it("is refused without --allow-eval main, and opens nothing", async () => {
    const refused = await safe.call("electron_attach", { pid: app.pid })
    expect(refused.code, refused.text).toBe("EVAL_NOT_AUTHORIZED")
    expect(refused.text).toMatch(new RegExp(`pid ${app.pid} \\(electron\\) has no debug port: attaching opens its main-process inspector`))
    expect(refused.text).toContain("--allow-eval main")
    expect(await Effect.runPromise(listeningSockets(app.pid!))).toEqual([])
  })

  it("attaches by pid, drives the window, and electron_close leaves the app running with no inspector port", async () => {
    const attached = await allowed.call("electron_attach", { pid: app.pid })
    expect(attached.isError, attached.text).toBe(false)
    expect(attached.text).toMatch(
      new RegExp(
        `^Attached to pid ${app.pid} \\(electron\\) through its main process: windows .* and main process; its inspector was opened on 127\\.0\\.0\\.1:\\d+ and closes when the session ends`
      )
    )
    expect(attached.structured).toMatchObject({ pid: app.pid, mainProcess: true, viaMainProcess: true, openedInspector: true })

    const snapshot = await Effect.runPromise(callUntil(allowed, "electron_snapshot", {}, (r) => /heading "Hardened Demo"/.test(r.text)))
    expect(snapshot.text).toMatch(/heading "Hardened Demo"/)
    // The button asks the app's main process (its IPC) to switch the theme; the page shows the answer.
    const clicked = await allowed.call("electron_click", { target: "testid=toggle-theme-button" })
    expect(clicked.isError, clicked.text).toBe(false)
    const notice = await Effect.runPromise(callUntil(allowed, "electron_get_text", { target: "testid=notice" }, (r) => r.text !== "Ready"))
    expect(notice.text).toMatch(/^Theme set to (dark|light)$/)
    // The main process is there too.
    const info = await allowed.call("electron_app_info")
    expect(info.isError, info.text).toBe(false)
    expect(info.text).toContain("Hardened Demo")

    const closed = await allowed.call("electron_close")
    expect(closed.isError, closed.text).toBe(false)
    expect(isAlive(app.pid!), appState(app.pid!)).toBe(true)
    expect(await inspectorGone(app.pid!)).toBe(true)
    expect(await Effect.runPromise(listeningSockets(app.pid!))).toEqual([])

    // Still running and usable: attached again, it shows what the click did.
    const again = await allowed.call("electron_attach", { pid: app.pid })
    expect(again.isError, `${again.text}\napp: ${appState(app.pid!)}`).toBe(false)
    expect((await allowed.call("electron_get_text", { target: "testid=notice" })).text).toBe(notice.text)
    expect((await allowed.call("electron_close")).isError).toBe(false)
    expect(isAlive(app.pid!), appState(app.pid!)).toBe(true)
    expect(await inspectorGone(app.pid!)).toBe(true)
  })

  it("a server SIGKILLed while attached: its reaper closes the inspector and detaches the debuggers; the app keeps running", async () => {
    const server = await stdioClient(["--allow-eval", "main"])
    try {
      const attached = await server.call("electron_attach", { pid: app.pid })
      expect(attached.isError, attached.text).toBe(false)
      expect(attached.structured).toMatchObject({ openedInspector: true })
      const snapshot = await Effect.runPromise(callUntil(server, "electron_snapshot", {}, (r) => /heading "Hardened Demo"/.test(r.text)))
      expect(snapshot.text).toMatch(/heading "Hardened Demo"/)
      expect(await Effect.runPromise(inspectorOf(app.pid!))).toBeDefined()
      process.kill(server.pid!, "SIGKILL")
      expect(await inspectorGone(app.pid!)).toBe(true)
      expect(isAlive(app.pid!), appState(app.pid!)).toBe(true)
    } finally {
      await server.close().catch(() => undefined)
    }
    // Every window's debugger was detached: another attach reaches the window again.
    const again = await allowed.call("electron_attach", { pid: app.pid })
    expect(again.isError, `${again.text}\napp: ${appState(app.pid!)}`).toBe(false)
    const heading = await Effect.runPromise(callUntil(allowed, "electron_snapshot", {}, (r) => /heading "Hardened Demo"/.test(r.text)))
    expect(heading.text).toMatch(/heading "Hardened Demo"/)
    expect((await allowed.call("electron_close")).isError).toBe(false)
    expect(await inspectorGone(app.pid!)).toBe(true)
  })

  it("with 127.0.0.1:9229 held by another process: refuses an app whose inspector would open there, attaches one started with --inspect-port=0 on the port it took", async () => {
    const holder = createServer()
    // Held by this test, or already by someone else: either way Node could not open the inspector there.
    await new Promise<void>((resolve) => holder.once("error", () => resolve()).listen(9229, "127.0.0.1", () => resolve()))
    try {
      const refused = await allowed.call("electron_attach", { pid: app.pid })
      expect(refused.code, refused.text).toBe("LAUNCH_FAILED")
      expect(refused.text).toContain(
        `Cannot attach to pid ${app.pid} (electron): its inspector opens on 127.0.0.1:9229, which another process already listens on`
      )
      expect(refused.text).toMatch(/Hint: .*--inspect-port=0/)

      // --inspect-port opens nothing by itself: it is where SIGUSR1 opens the inspector later.
      const other = plain(resolveElectronRuntime().executablePath, ["--inspect-port=0", sampleAppPath("hardened")])
      await whenUp(other)
      expect(await Effect.runPromise(listeningSockets(other.pid!))).toEqual([])
      const attached = await allowed.call("electron_attach", { pid: other.pid })
      expect(attached.isError, attached.text).toBe(false)
      const port = attached.structured.inspectorPort as number
      expect(port).not.toBe(9229)
      expect((await Effect.runPromise(listeningSockets(other.pid!))).map((socket) => socket.port)).toContain(port)
      expect(
        (await Effect.runPromise(callUntil(allowed, "electron_get_text", { target: "role=heading[level=1]" }, (r) => r.text === "Hardened Demo"))).text
      ).toBe("Hardened Demo")
      expect((await allowed.call("electron_close")).isError).toBe(false)
      expect(await inspectorGone(other.pid!)).toBe(true)
      expect(isAlive(other.pid!)).toBe(true)
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()))
    }
  })

  it("refuses an app whose inspector would listen on a host that only looks like loopback (no signal sent)", async () => {
    const lookalike = plain(resolveElectronRuntime().executablePath, ["--inspect-port=127.0.0.1.example.com:0", sampleAppPath("hardened")])
    await whenUp(lookalike)
    const refused = await allowed.call("electron_attach", { pid: lookalike.pid })
    expect(refused.code, refused.text).toBe("LAUNCH_FAILED")
    expect(refused.text).toContain(`its inspector would listen on 127.0.0.1.example.com:0, not on loopback`)
    expect(isAlive(lookalike.pid!), appState(lookalike.pid!)).toBe(true)
    expect(await Effect.runPromise(listeningSockets(lookalike.pid!))).toEqual([])
  })

  it("refuses processes that are not Electron (no signal sent: they keep running)", async () => {
    const sleeper = plain("sleep", ["60"])
    const node = plain(process.execPath, ["-e", "setInterval(() => {}, 1000)"])
    for (const child of [sleeper, node]) {
      const refused = await allowed.call("electron_attach", { pid: child.pid })
      expect(refused.code, refused.text).toBe("LAUNCH_FAILED")
      expect(refused.text).toMatch(new RegExp(`Cannot attach to pid ${child.pid} \\(.+\\): it is not an Electron app`))
      expect(isAlive(child.pid!)).toBe(true)
      expect(await Effect.runPromise(listeningSockets(child.pid!))).toEqual([])
    }
  })

  it("refuses a build whose EnableNodeCliInspectArguments fuse is off, naming the fuse", async () => {
    const { executable } = await linuxBuild(project, "hardened", { ...RELEASE_FUSES, [FuseV1Options.EnableNodeCliInspectArguments]: false })
    const build = plain(executable, [])
    await whenUp(build)
    const refused = await allowed.call("electron_attach", { pid: build.pid })
    expect(refused.code, refused.text).toBe("LAUNCH_FAILED")
    expect(refused.text).toContain("its EnableNodeCliInspectArguments fuse is off, so its main-process inspector cannot be opened")
    expect(refused.text).toMatch(/Hint: .*--remote-debugging-port/)
    expect(isAlive(build.pid!)).toBe(true)
  }, 60_000)

  it("discovery lists the apps without a debug port and what attaching to them needs (not node or sleep)", async () => {
    const build = started[started.length - 1]!
    const listing = await safe.call("electron_attach", {})
    expect(listing.isError, listing.text).toBe(false)
    expect(listing.text).toContain(`pid ${app.pid} electron (no debug port: attach needs --allow-eval main)`)
    expect(listing.text).toContain(
      `pid ${build.pid} hardened (no debug port: its EnableNodeCliInspectArguments fuse is off, restart it with --remote-debugging-port)`
    )
    const listed = (listing.structured.withoutPort as Array<{ pid: number }>).map((entry) => entry.pid)
    for (const other of started.filter((child) => child.spawnfile !== resolveElectronRuntime().executablePath && child !== build))
      expect(listed).not.toContain(other.pid)
    // Its Chromium is not an app of its own.
    for (const helper of descendants(app.pid!)) expect(listed).not.toContain(helper)
    expect((await allowed.call("electron_attach", {})).text).toContain(
      `pid ${app.pid} electron (no debug port: attach by pid opens its main-process inspector)`
    )
  })

  it("refuses another user's process (the owner faked through ProcessProbe)", async () => {
    const probe = { ownerOf: () => Effect.succeed(4242), myUid: 1000 }
    const refused = await Effect.runPromise(Effect.flip(attachableProcess(app.pid!).pipe(Effect.provideService(ProcessProbe, probe))))
    expect(refused.message).toBe(
      `Cannot attach to pid ${app.pid}: it belongs to another user (uid 4242); Stagewright opens the inspector only of its own user's processes (uid 1000)`
    )
    // The same process, as its real owner sees it, is attachable.
    expect((await Effect.runPromise(attachableProcess(app.pid!))).name).toBe("electron")
  })
})
