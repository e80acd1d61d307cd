/**
 * Launching a build whose EnableNodeCliInspectArguments fuse is off (fuses.ts): Electron ignores --inspect
 * there, so playwright-core's `_electron.launch` would wait for Node's "Debugger listening" line forever.
 * The driver starts the process itself with Chromium's `--remote-debugging-port=0`, reads the
 * `DevTools listening on ws://…` line from its stderr (bounded by the launch timeout), and connects with
 * playwright-core's `chromium.connectOverCDP`. The session has the app's windows and no main process,
 * like an attach without the Node inspector; main-process tools answer NEEDS_MAIN_PROCESS with the reason.
 *
 * The process runs in a process group of its own: the session's scope (a failed or interrupted start,
 * a close, the server's end) kills the whole group, helpers included.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { resolve } from "node:path"
import { Effect, Scope } from "effect"
import { LaunchFailed } from "./errors.js"
import { OVER_CDP_REASON } from "./fuses.js"
import { firstLine, playwright, wireSession, type Prepared } from "./launch.js"
import { describeExit, killGroupLeftovers, killProcessGroup } from "./process.js"
import { AppSession, type LaunchOptions } from "./session.js"
import type { XvfbMode } from "./display.js"
import { displayForLaunch } from "./xvfb.js"
import { reapOnExit } from "./reaper.js"

const DEVTOOLS_LINE = /^DevTools listening on (ws:\/\/\S+)\s*$/
/** Bounds on what is kept of the app's stderr before the DevTools line (for the error of a failed start). */
const MAX_PENDING = 64 * 1024
const TAIL_LINES = 5

// eslint-disable-next-line no-control-regex
const printable = (line: string) =>
  line
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
    .trim()
    .slice(0, 200)

/** Waits for Chromium's DevTools line on the process's stderr; fails when the process ends or cannot start first. */
const devtoolsEndpoint = (child: ChildProcess, what: string, timeout: number): Effect.Effect<string, LaunchFailed> =>
  Effect.async<string, LaunchFailed>((resume) => {
    const tail: Array<string> = []
    let pending = ""
    const lastOutput = () => (tail.length > 0 ? `; its last output: ${tail.join(" | ")}` : "")
    const cleanup = () => {
      child.stderr?.off("data", onData)
      child.off("exit", onExit)
      child.off("error", onError)
    }
    function onData(chunk: Buffer) {
      pending = (pending + chunk.toString("utf8")).slice(-MAX_PENDING)
      const lines = pending.split(/\r?\n/)
      pending = lines.pop() ?? ""
      for (const line of lines) {
        const match = DEVTOOLS_LINE.exec(line)
        if (match) {
          cleanup()
          return resume(Effect.succeed(match[1]!))
        }
        const shown = printable(line)
        if (shown !== "") tail.push(shown)
        if (tail.length > TAIL_LINES) tail.shift()
      }
    }
    function onExit() {
      cleanup()
      resume(Effect.fail(new LaunchFailed({ message: `${what} ended (${describeExit(child)}) before Chromium's remote debugging port opened${lastOutput()}` })))
    }
    function onError(error: Error) {
      cleanup()
      resume(Effect.fail(new LaunchFailed({ message: `Could not start ${what}: ${error.message}`, cause: error })))
    }
    child.stderr?.on("data", onData)
    child.once("exit", onExit)
    child.once("error", onError)
    return Effect.sync(cleanup)
  }).pipe(
    Effect.timeoutFail({
      duration: timeout,
      onTimeout: () =>
        new LaunchFailed({
          message: `${what} printed no "DevTools listening on ws://…" line within ${timeout} ms (it was started with --remote-debugging-port=0, as its EnableNodeCliInspectArguments fuse is off)`,
          hint: "Check that the executable is an Electron app; pass a larger timeoutMs for slow apps."
        })
    })
  )

/**
 * Starts the prepared build with Chromium's debugging port in `scope`, connects over CDP and waits for its
 * first window. Its display is chosen as for every launch (xvfb.ts, per the --xvfb mode).
 */
export const launchOverCdp =
  (options: LaunchOptions, { runtime, app, timeout }: Prepared, xvfb: XvfbMode = "auto") =>
  (scope: Scope.Scope) =>
    Effect.gen(function* () {
      const { env: displayEnv, display } = yield* displayForLaunch(xvfb, runtime.kind, {
        ...(process.env as Record<string, string>),
        ...(options.env ?? {})
      }).pipe(Scope.extend(scope))
      const { chromium } = yield* playwright
      const what = app ?? runtime.executablePath
      const userArgs = options.args ?? []
      // The same switches playwright-core's launch passes, but --remote-debugging-port instead of --inspect.
      const args = [
        ...(process.platform === "linux" && !userArgs.includes("--no-sandbox") ? ["--no-sandbox"] : []),
        "--remote-debugging-port=0",
        ...(app !== undefined ? [app] : []),
        ...userArgs
      ]
      // As playwright-core's launch: NODE_OPTIONS is not passed on.
      const { NODE_OPTIONS: _nodeOptions, ...env } = displayEnv
      const child = yield* Effect.acquireRelease(
        Effect.try({
          try: () => {
            const started = spawn(runtime.executablePath, args, {
              env,
              ...(options.cwd !== undefined ? { cwd: resolve(options.cwd) } : {}),
              // stdin is a pipe, as under playwright-core: the stand-in (and an app that reads it) sees EOF when the server is gone.
              stdio: ["pipe", "ignore", "pipe"],
              detached: process.platform !== "win32"
            })
            // A spawn failure (ENOENT, EACCES) is an 'error' event: devtoolsEndpoint reports it; none may go unhandled.
            started.on("error", () => undefined)
            started.stdin?.on("error", () => undefined)
            reapOnExit(started, "group")
            return started
          },
          catch: (cause) => new LaunchFailed({ message: `Could not start ${what}: ${firstLine(cause)}`, cause })
        }),
        (started) => Effect.zipRight(killProcessGroup(started), killGroupLeftovers(started))
      ).pipe(Scope.extend(scope))
      const endpoint = yield* devtoolsEndpoint(child, what, timeout)
      // From here on the app's stderr is drained, never kept.
      child.stderr?.resume()
      const browser = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => chromium.connectOverCDP(endpoint, { timeout }),
          catch: (cause) => new LaunchFailed({ message: `${what} opened ${endpoint}, but connecting to it failed: ${firstLine(cause)}`, cause })
        }),
        (connected) => Effect.promise(() => connected.close().catch(() => undefined))
      ).pipe(Scope.extend(scope))
      const context = browser.contexts()[0]
      if (!context) return yield* new LaunchFailed({ message: `${endpoint} has no browser context to drive` })
      const session = new AppSession({
        kind: "launched",
        context,
        launch: {
          executablePath: runtime.executablePath,
          runtime: runtime.kind,
          reason: runtime.reason,
          app,
          args: userArgs,
          cwd: options.cwd,
          env: options.env ?? {},
          ...(display ? { display } : {})
        },
        browser,
        child,
        overCdpReason: OVER_CDP_REASON
      })
      wireSession(session)
      child.once("exit", () => {
        if (session.exit) return
        session.exit = { at: new Date().toISOString(), expected: session.closing, detail: session.closing ? "closed" : describeExit(child) }
        if (!session.closing) session.errors.push({ at: Date.now(), kind: "main", message: `The main process exited (${session.exit.detail})` })
      })
      yield* Effect.tryPromise({
        try: async () => {
          const page = context.pages()[0] ?? (await context.waitForEvent("page", { timeout }))
          // A new Electron window has no document until the app's first loadURL/loadFile commits, and
          // playwright-core reports such a page only after that first navigation: no wait of our own here.
          await page.waitForLoadState("domcontentloaded", { timeout }).catch(() => undefined)
          session.setActive((await session.addPage(page, Promise.resolve(null))).id)
        },
        catch: (cause) =>
          new LaunchFailed({
            message: `The app started (over CDP) but opened no window within ${timeout} ms: ${firstLine(cause)}`,
            hint: "Check that the app creates a BrowserWindow at startup; pass a larger timeoutMs for slow apps.",
            cause
          })
      })
      yield* Effect.logInfo(`launched ${what} over CDP (pid ${child.pid}; its EnableNodeCliInspectArguments fuse is off)`)
      return session
    })
