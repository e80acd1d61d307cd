/**
 * The reaper (src/layers/driver/reaper.ts): at the end of its stdin (the server gone, however it ended) it
 * ends what is still listed: a process group with SIGTERM, one that ignores SIGTERM with SIGKILL after the
 * grace, a single process; a process that already exited is off the list; with nothing listed it exits at once.
 * An inspector an attach opened: connected to and asked for the listed expression (the last one listed), nothing
 * when the session released it, malformed lines ignored.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawn, type ChildProcess } from "node:child_process"
import { createRequire } from "node:module"
import { reaperEnv, startReaper } from "../../src/layers/driver/reaper.js"
import { isAlive, waitAllGone } from "../support/processes.js"

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode })
    child.once("exit", (code, signal) => resolve({ code, signal }))
  })

/**
 * A Node process that waits to be killed; it prints, once ready (its SIGTERM handler installed), the pid of
 * a child of its own in its process group (with `withChild`) or its own pid.
 */
const sleeper = (options: { detached: boolean; ignoreTerm?: boolean; withChild?: boolean }) =>
  new Promise<{ child: ChildProcess; printed: number }>((resolve) => {
    const wait = "setInterval(() => {}, 1000);"
    const body = options.withChild
      ? `const c = require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(wait)}], { stdio: "ignore" }); ${wait} console.log(c.pid)`
      : `${wait} console.log(process.pid)`
    const child = spawn(process.execPath, ["-e", `${options.ignoreTerm ? "process.on('SIGTERM', () => {});" : ""} ${body}`], {
      detached: options.detached,
      stdio: ["ignore", "pipe", "ignore"]
    })
    child.stdout!.once("data", (chunk: Buffer) => resolve({ child, printed: Number(String(chunk).trim()) }))
  })

describe.skipIf(process.platform === "win32")("reaper", () => {
  it("ends a listed process group and a listed process when its stdin ends, then exits", async () => {
    const reaper = startReaper(300)
    // The leader's own child is in its group: the group is ended, not only its leader.
    const { child: group, printed: grandchild } = await sleeper({ detached: true, withChild: true })
    const { child: single } = await sleeper({ detached: false })
    reaper.watch(group, "group")
    reaper.watch(single, "process")
    expect(isAlive(grandchild)).toBe(true)
    reaper.process.stdin!.end()
    expect(await exitOf(group)).toEqual({ code: null, signal: "SIGTERM" })
    expect(await exitOf(single)).toEqual({ code: null, signal: "SIGTERM" })
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
    expect(await waitAllGone([grandchild])).toEqual([])
  })

  it("kills with SIGKILL what is left after the grace", async () => {
    const reaper = startReaper(200)
    const { child: stubborn } = await sleeper({ detached: true, ignoreTerm: true })
    reaper.watch(stubborn, "group")
    reaper.process.stdin!.end()
    expect(await exitOf(stubborn)).toEqual({ code: null, signal: "SIGKILL" })
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
  })

  it("leaves alone what was taken off the list, and exits at once with nothing listed", async () => {
    const reaper = startReaper(60_000)
    const { child: kept } = await sleeper({ detached: true })
    reaper.process.stdin!.write(`+g${kept.pid}\n-g${kept.pid}\n`)
    reaper.process.stdin!.end()
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
    expect(kept.exitCode === null && kept.signalCode === null).toBe(true)
    kept.kill("SIGKILL")
    expect(await exitOf(kept)).toEqual({ code: null, signal: "SIGKILL" })
  })

  it("writes the exit of a watched process, so a process that exited is not signalled", async () => {
    const reaper = startReaper(60_000)
    const lines: Array<string> = []
    const write = reaper.process.stdin!.write.bind(reaper.process.stdin!)
    reaper.process.stdin!.write = ((chunk: string, ...rest: Array<never>) => {
      lines.push(chunk)
      return write(chunk, ...rest)
    }) as typeof write
    const { child: gone } = await sleeper({ detached: true })
    reaper.watch(gone, "group")
    gone.kill("SIGKILL")
    await exitOf(gone)
    expect(lines).toEqual([`+g${gone.pid}\n`, `-g${gone.pid}\n`])
    reaper.process.stdin!.end()
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
  })

  it("ignores lines it does not understand (a negative or zero pid is never signalled)", async () => {
    const reaper = startReaper(60_000)
    reaper.process.stdin!.write("+g0\n+g-1\n+p\n+x12\n+g1 \ngarbage\n")
    reaper.process.stdin!.end()
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
  })
})

describe.skipIf(process.platform === "win32")("reaper: an inspector an attach opened", () => {
  it("connects at the end of its stdin, asks for the listed expression, and exits when the app closes the connection", async () => {
    const { WebSocketServer } = await import("ws")
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
    await new Promise((resolve) => server.once("listening", resolve))
    const received = new Promise<unknown>((resolve) =>
      server.on("connection", (socket) =>
        socket.once("message", (data) => {
          resolve(JSON.parse(String(data)))
          // As Node does when inspector.close() runs: every connection closes.
          socket.close()
        })
      )
    )
    const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/inspector`
    const reaper = startReaper(60_000)
    const ws = createRequire(import.meta.url).resolve("ws")
    const listed = reaper.watchInspector({ url, expression: "first()", ws })
    listed.update({ url, expression: "undo()", ws })
    reaper.process.stdin!.write('+iabc {"url": 1}\n+idef not json\n')
    reaper.process.stdin!.end()
    expect(await received).toEqual({ id: 1, method: "Runtime.evaluate", params: { expression: "undo()", includeCommandLineAPI: true } })
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
    server.close()
  })

  it("does nothing for an inspector the session released", async () => {
    const { WebSocketServer } = await import("ws")
    const server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
    await new Promise((resolve) => server.once("listening", resolve))
    let connections = 0
    server.on("connection", () => {
      connections += 1
    })
    const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/inspector`
    const reaper = startReaper(60_000)
    const listed = reaper.watchInspector({ url, expression: "undo()", ws: createRequire(import.meta.url).resolve("ws") })
    listed.release()
    reaper.process.stdin!.end()
    expect(await exitOf(reaper.process)).toEqual({ code: 0, signal: null })
    expect(connections).toBe(0)
    server.close()
  })
})

describe("reaper: the environment it runs in", () => {
  it("has none of the server's, but runs as Node under an Electron that runs the server as Node", () => {
    expect(reaperEnv({})).toEqual({})
    expect(reaperEnv({ electron: "38.1.0" })).toEqual({ ELECTRON_RUN_AS_NODE: "1" })
  })
})
