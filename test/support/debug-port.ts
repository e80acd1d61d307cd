/**
 * Apps started outside Stagewright with Chromium's remote debugging port, as a developer starts one for
 * electron_attach, and stopped again (their whole process group). Waiting is Effect: for the DevTools
 * line on stderr, for the exit event.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { createServer } from "node:net"
import { Effect } from "effect"

/** Whether `port` on 127.0.0.1 can be listened on now (released at once). */
const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/**
 * A TCP port nothing listens on right now, below Linux's ephemeral range (32768–60999): between this check and the
 * app's bind, the apps and relays other test files start bind port 0, and the kernel picks theirs from that range,
 * where its own pick of a free port would be too.
 */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await canListen(port)) return port
  }
  throw new Error("no free port between 20000 and 32000")
}

/** Resolves with the port of the first `DevTools listening on ws://127.0.0.1:PORT/…` line the process prints. */
const devtoolsPort = (child: ChildProcess, timeoutMs: number) =>
  Effect.async<number, Error>((resume) => {
    let pending = ""
    const onData = (chunk: Buffer) => {
      pending += chunk.toString("utf8")
      const match = /^DevTools listening on ws:\/\/[^:]+:(\d+)\//m.exec(pending)
      if (match) {
        cleanup()
        resume(Effect.succeed(Number(match[1])))
      }
    }
    const onExit = () => {
      cleanup()
      resume(Effect.fail(new Error(`the app exited before its DevTools line: ${pending.slice(-500)}`)))
    }
    const cleanup = () => {
      child.stderr?.off("data", onData)
      child.off("exit", onExit)
    }
    child.stderr?.on("data", onData)
    child.once("exit", onExit)
    return Effect.sync(cleanup)
  }).pipe(Effect.timeoutFail({ duration: timeoutMs, onTimeout: () => new Error(`no DevTools line within ${timeoutMs} ms`) }))

/** Starts `executable args` in its own process group and waits for Chromium's DevTools line. */
export const startWithDebugPort = (executable: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const child = spawn(executable, [...args], { stdio: ["pipe", "ignore", "pipe"], env: { ...process.env, ...env }, detached: true })
      child.on("error", () => undefined)
      const port = yield* devtoolsPort(child, 30_000).pipe(Effect.tapError(() => Effect.sync(() => killGroup(child))))
      child.stderr?.resume()
      return { child, port }
    })
  )

const killGroup = (child: ChildProcess) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
  } catch {
    // gone
  }
}

/** The exit of `child` (at once when it has exited), bounded. */
export const exitOf = (child: ChildProcess, timeoutMs = 10_000) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    const done = () => resume(Effect.void)
    child.once("exit", done)
    return Effect.sync(() => child.off("exit", done))
  }).pipe(Effect.timeout(timeoutMs))

/** SIGTERM (the app quits as on a logout), the exit awaited, then SIGKILL for whatever is left of its group. */
export const stopApp = (child: ChildProcess) =>
  Effect.runPromise(
    Effect.gen(function* () {
      child.kill("SIGTERM")
      yield* exitOf(child).pipe(Effect.ignore)
      killGroup(child)
    })
  )
