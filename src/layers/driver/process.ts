/**
 * The app's processes: how it exited, and a graceful close bounded by a kill of its whole process group
 * (the launch's artifacts folder is the session's own, removed with its scope: launch.ts).
 * Every wait is an Effect with a bound, so an interrupted close stops waiting at once.
 */
import type { ChildProcess } from "node:child_process"
import { Effect } from "effect"
import type { AppSession } from "./session.js"

export const describeExit = (child: ChildProcess): string => {
  if (child.signalCode) return `killed by ${child.signalCode}`
  if (child.exitCode !== null) return `exit code ${child.exitCode}`
  return "the process ended"
}

/**
 * Bounds a wait. Closing runs in finalizers, which are uninterruptible, and there `Effect.timeout` would
 * wait for the effect it bounds: marking the wait interruptible lets the bound end it.
 */
export const bounded = <A, E>(effect: Effect.Effect<A, E>, ms: number) => effect.pipe(Effect.interruptible, Effect.timeout(ms))

export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Completes when the process has exited (at once when it already has). */
export const exitOf = (child: ChildProcess): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const done = () => resume(Effect.void)
    if (hasExited(child)) return done()
    child.once("exit", done)
    return Effect.sync(() => child.off("exit", done))
  })

/** Kills the app's whole process group (Electron or the stand-in, and its Chromium); waits 3 s at most for the exit. */
export const killProcessGroup = (child: ChildProcess): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (hasExited(child)) return Effect.void
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {
      try {
        child.kill("SIGKILL")
      } catch {
        // already gone
      }
    }
    return bounded(exitOf(child), 3_000).pipe(Effect.ignore)
  })

/**
 * SIGKILLs what is left of a process group whose leader has exited (helpers that outlived it); nothing
 * when the group is empty. Only for groups we made (a detached spawn: the group id is the leader's pid).
 */
export const killGroupLeftovers = (child: ChildProcess): Effect.Effect<void> =>
  Effect.sync(() => {
    if (child.pid === undefined || process.platform === "win32") return
    try {
      process.kill(-child.pid, "SIGKILL")
    } catch {
      // the group is empty
    }
  })

/**
 * A process launched over CDP (no playwright-core handle): SIGTERM, which Electron (and the stand-in)
 * answer with app.quit(); the whole group is killed when it has not exited within the bound, and what
 * is left of the group after the exit goes too.
 */
const terminate = (child: ChildProcess, timeoutMs: number): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    if (hasExited(child)) {
      yield* killGroupLeftovers(child)
      return true
    }
    try {
      child.kill("SIGTERM")
    } catch {
      // already gone
    }
    const quit = yield* bounded(Effect.as(exitOf(child), true), timeoutMs).pipe(Effect.orElseSucceed(() => false))
    if (!quit) yield* killProcessGroup(child)
    yield* killGroupLeftovers(child)
    return quit
  })

/** Asks the app to quit, and kills it when it has not exited within the bound. Succeeds with whether it quit by itself. */
export const gracefulClose = (session: AppSession, timeoutMs: number): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const { electronApp, child } = session
    if (!electronApp && child) {
      const quit = yield* terminate(child, timeoutMs)
      const browser = session.browser
      if (browser)
        yield* bounded(
          Effect.tryPromise(() => browser.close()),
          2_000
        ).pipe(Effect.ignore)
      return quit
    }
    if (electronApp && child) {
      if (hasExited(child)) return true
      const closed = yield* bounded(
        Effect.as(
          Effect.tryPromise(() => electronApp.close()),
          true
        ),
        timeoutMs
      ).pipe(Effect.orElseSucceed(() => false))
      if (!closed) yield* killProcessGroup(child)
      yield* bounded(exitOf(child), 2_000).pipe(Effect.ignore)
      return closed
    }
    const browser = session.browser
    if (browser)
      yield* bounded(
        Effect.tryPromise(() => browser.close()),
        timeoutMs
      ).pipe(Effect.ignore)
    session.inspector?.close()
    return true
  })
