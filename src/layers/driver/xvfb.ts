/**
 * A private Xvfb for one session: a headed app on Linux without DISPLAY (or with --xvfb always) gets a
 * virtual X server of its own. Xvfb picks a free display itself (`-displayfd`: it writes the number to
 * a pipe once it accepts connections); the server then checks that the display answers the X protocol.
 * Only holders of the session's random cookie may connect (`-auth`; the app gets XAUTHORITY): another
 * local user cannot watch or drive the app through the display. The Xvfb is a
 * scoped resource: closing the scope (the app closed, replaced or failed to start, the server stopping)
 * sends SIGTERM, then SIGKILL after a bounded wait, and waits for the exit (the process is reaped).
 * It runs in the server's process group, so a signal to the whole group ends it too.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, isAbsolute, join } from "node:path"
import type { Readable } from "node:stream"
import { Effect, type Scope } from "effect"
import { displaySituation, runsHeaded, XVFB_INSTALL, type DisplayInfo, type XvfbMode } from "./display.js"
import { LaunchFailed } from "./errors.js"
import { bounded, exitOf, hasExited } from "./process.js"
import { reapOnExit } from "./reaper.js"
import { XvfbFailed } from "./xvfb-errors.js"

/** The virtual screen: one 1280x800 screen of 24-bit colour. */
export const XVFB_SCREEN = "1280x800x24"
/** Bound on Xvfb's start (it loads its keymap first: ~0.6 s on two cores). */
const READY_MS = 10_000
/** Bound on each stop step (SIGTERM, then SIGKILL). */
const STOP_STEP_MS = 2_000

export interface XvfbHandle {
  /** `:N` */
  readonly display: string
  readonly pid: number
  /** The Xauthority file holding the display's cookie (give it to clients as XAUTHORITY). */
  readonly xauthority: string
}

const COOKIE_NAME = "MIT-MAGIC-COOKIE-1"

/** A counted field of an Xauthority entry: a 16-bit big-endian length, then the bytes. */
const counted = (bytes: Buffer) => {
  const length = Buffer.alloc(2)
  length.writeUInt16BE(bytes.length)
  return Buffer.concat([length, bytes])
}

/**
 * An Xauthority file with one entry for any address and display (family FamilyWild, empty address and
 * number): Xvfb reads it with -auth, clients (libxcb, Xlib) pick the entry for whichever display it chose.
 */
const writeXauthority = (path: string, cookie: Buffer) =>
  writeFileSync(
    path,
    Buffer.concat([Buffer.from([0xff, 0xff]), counted(Buffer.alloc(0)), counted(Buffer.alloc(0)), counted(Buffer.from(COOKIE_NAME)), counted(cookie)]),
    { mode: 0o600 }
  )

const pad4 = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)])

/**
 * The first byte of an X server's answer to a connection setup on the socket at `path` (0 refused,
 * 1 accepted, 2 more authentication), with `cookie` when given; undefined when nothing answers there.
 */
export const xHandshake = (path: string, cookie?: Buffer): Effect.Effect<number | undefined> =>
  Effect.async<number | undefined>((resume) => {
    const socket = connect({ path })
    const done = (status: number | undefined) => {
      socket.destroy()
      resume(Effect.succeed(status))
    }
    socket.once("connect", () => {
      const name = cookie ? Buffer.from(COOKIE_NAME) : Buffer.alloc(0)
      const data = cookie ?? Buffer.alloc(0)
      const head = Buffer.alloc(12)
      head.write("l", 0, "latin1") // little-endian
      head.writeUInt16LE(11, 2)
      head.writeUInt16LE(0, 4)
      head.writeUInt16LE(name.length, 6)
      head.writeUInt16LE(data.length, 8)
      socket.write(Buffer.concat([head, pad4(name), pad4(data)]))
    })
    socket.once("data", (chunk: Buffer) => done(chunk[0]))
    socket.once("error", () => done(undefined))
    socket.once("end", () => done(undefined))
    return Effect.sync(() => socket.destroy())
  })

/** The Xvfb binary on `path` (absolute entries only: a relative one would depend on the cwd). */
export const findXvfb = (path: string = process.env.PATH ?? ""): string | undefined => {
  for (const dir of path.split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue
    const candidate = join(dir, "Xvfb")
    try {
      accessSync(candidate, constants.X_OK)
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

const installHint = `Install Xvfb with ${XVFB_INSTALL} (Debian/Ubuntu), or set DISPLAY to a running X server.`
/** For an Xvfb that is there but did not come up. */
const startHint = "Check that Xvfb starts on this machine (Xvfb -displayfd 1 prints a display number), or set DISPLAY to a running X server."

/** Completes with the display number Xvfb writes to fd 3; fails when it exits or cannot start first. */
const displayNumber = (child: ChildProcess, stderr: () => string): Effect.Effect<number, XvfbFailed> =>
  Effect.async<number, XvfbFailed>((resume) => {
    const pipe = child.stdio[3] as Readable
    let text = ""
    const cleanup = () => {
      pipe.off("data", onData)
      child.off("exit", onExit)
      child.off("error", onError)
    }
    const failWith = (message: string, cause?: unknown) => {
      cleanup()
      resume(Effect.fail(new XvfbFailed({ message, hint: startHint, ...(cause !== undefined ? { cause } : {}) })))
    }
    function onData(chunk: Buffer) {
      text += chunk.toString("latin1")
      const match = /^(\d+)\n/.exec(text)
      if (match) {
        cleanup()
        resume(Effect.succeed(Number(match[1])))
      } else if (text.length > 32 || /\D/.test(text.replace(/\n$/, ""))) {
        failWith(`Xvfb reported no display number (it wrote ${JSON.stringify(text.slice(0, 32))})`)
      }
    }
    function onExit(code: number | null, signal: NodeJS.Signals | null) {
      failWith(`Xvfb exited before it reported a display (${signal ? `killed by ${signal}` : `exit code ${code}`})${stderr() ? `: ${stderr()}` : ""}`)
    }
    function onError(error: Error) {
      failWith(`Xvfb could not start: ${error.message}`, error)
    }
    pipe.on("data", onData)
    child.once("exit", onExit)
    child.once("error", onError)
    return Effect.sync(cleanup)
  })

/**
 * Xvfb accepts an X connection with the cookie: on the file socket, else Linux's abstract one (Xvfb
 * listens on both; a non-root user may only get the latter).
 */
const verifyUp = (child: ChildProcess, n: number, cookie: Buffer): Effect.Effect<void, XvfbFailed> =>
  Effect.gen(function* () {
    const file = `/tmp/.X11-unix/X${n}`
    const up = (yield* xHandshake(file, cookie)) === 1 || (yield* xHandshake(`\0${file}`, cookie)) === 1
    if (!up || hasExited(child)) {
      return yield* new XvfbFailed({ message: `Xvfb reported display :${n}, but it does not accept X connections with its cookie`, hint: startHint })
    }
  })

/** SIGTERM, then SIGKILL after the bound; each followed by a bounded wait for the exit event. */
const stop = (child: ChildProcess, display: () => string) =>
  Effect.suspend(() => {
    if (child.pid === undefined || hasExited(child)) return Effect.void
    const signal = (name: NodeJS.Signals) => {
      try {
        child.kill(name)
      } catch {
        // already gone
      }
    }
    signal("SIGTERM")
    return bounded(exitOf(child), STOP_STEP_MS).pipe(
      Effect.catchTag("TimeoutException", () =>
        Effect.zipRight(
          Effect.logWarning(`the private Xvfb ${display()} did not stop on SIGTERM within ${STOP_STEP_MS} ms: killing it`),
          Effect.suspend(() => {
            signal("SIGKILL")
            return Effect.ignore(bounded(exitOf(child), STOP_STEP_MS))
          })
        )
      ),
      // An Xvfb that had to be killed leaves its socket and lock file behind: remove those that are its own.
      Effect.zipRight(Effect.sync(() => removeLeftovers(display(), child.pid!))),
      Effect.zipRight(Effect.logInfo(`stopped the private Xvfb ${display()} (pid ${child.pid})`))
    )
  })

/** The socket and lock file of display `:N`, removed when the lock names `pid` (an X server killed before its own cleanup). */
const removeLeftovers = (display: string, pid: number): void => {
  const n = /^:(\d+)$/.exec(display)?.[1]
  if (n === undefined) return
  const lock = `/tmp/.X${n}-lock`
  try {
    if (Number(readFileSync(lock, "utf8").trim()) !== pid) return
  } catch {
    return // no lock: Xvfb cleaned up after itself
  }
  rmSync(`/tmp/.X11-unix/X${n}`, { force: true })
  rmSync(lock, { force: true })
}

/**
 * Starts Xvfb in the current scope and waits (bounded) until its display accepts connections. `binary`
 * defaults to Xvfb on PATH; `because` says why it is needed (for the error when there is none).
 */
export const startXvfb = (options: { readonly binary?: string | undefined; readonly because: string }): Effect.Effect<XvfbHandle, XvfbFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const binary = options.binary ?? findXvfb()
    if (binary === undefined) {
      return yield* new XvfbFailed({
        message: `A private Xvfb is needed (${options.because}), but no Xvfb binary is on PATH: install it with ${XVFB_INSTALL}`,
        hint: installHint
      })
    }
    let stderr = ""
    let display = "(display not yet known)"
    // The cookie's folder (0700) is removed after the Xvfb has stopped (finalizers run in reverse).
    const folder = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "stagewright-xvfb-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    )
    const xauthority = join(folder, "Xauthority")
    const cookie = randomBytes(16)
    writeXauthority(xauthority, cookie)
    const child = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const spawned = spawn(binary, ["-displayfd", "3", "-screen", "0", XVFB_SCREEN, "-nolisten", "tcp", "-noreset", "-auth", xauthority], {
          stdio: ["ignore", "ignore", "pipe", "pipe"]
        })
        // Xvfb's warnings (keymap, fonts) are kept for an error message, bounded; never on our stdout.
        spawned.stderr?.on("data", (chunk: Buffer) => {
          stderr = (stderr + chunk.toString("utf8")).slice(-600)
        })
        spawned.on("error", () => undefined)
        reapOnExit(spawned, "process")
        return spawned
      }),
      (spawned) => stop(spawned, () => display)
    )
    const tail = () => stderr.trim().split("\n").slice(-3).join(" / ")
    const n = yield* displayNumber(child, tail).pipe(
      Effect.tap((n) => verifyUp(child, n, cookie)),
      Effect.timeoutFail({
        duration: READY_MS,
        onTimeout: () => new XvfbFailed({ message: `Xvfb did not report a display within ${READY_MS} ms${tail() ? `: ${tail()}` : ""}`, hint: startHint })
      })
    )
    display = `:${n}`
    yield* Effect.logInfo(`started a private Xvfb on ${display} (pid ${child.pid})`)
    return { display, pid: child.pid!, xauthority }
  })

/**
 * The display a launch gives its app, decided by `displaySituation`, in the session's scope: the
 * environment to launch with and what to report. A private Xvfb replaces DISPLAY and XAUTHORITY and
 * removes WAYLAND_DISPLAY (so the app opens its windows on it); a headed launch that cannot get a
 * display fails before anything starts.
 */
export const displayForLaunch = (
  mode: XvfbMode,
  runtime: "electron" | "standin",
  env: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform
): Effect.Effect<{ readonly env: Record<string, string>; readonly display?: DisplayInfo }, LaunchFailed, Scope.Scope> =>
  Effect.gen(function* () {
    const situation = displaySituation(env, platform, mode, runsHeaded(runtime, env))
    switch (situation.action) {
      case "none":
        return { env: { ...env } }
      case "use":
        return { env: { ...env }, display: { display: situation.display, source: situation.variable, note: `${situation.variable} from the environment` } }
      case "fail":
        return yield* new LaunchFailed({ message: `No display for the app: ${situation.reason}`, hint: situation.hint })
      case "start-xvfb": {
        const xvfb = yield* startXvfb({ because: situation.because }).pipe(
          Effect.mapError(
            (error) => new LaunchFailed({ message: error.message, hint: error.hint, ...(error.cause !== undefined ? { cause: error.cause } : {}) })
          )
        )
        const { WAYLAND_DISPLAY: _wayland, ...rest } = env
        return {
          env: { ...rest, DISPLAY: xvfb.display, XAUTHORITY: xvfb.xauthority },
          display: { display: xvfb.display, source: "xvfb", xvfbPid: xvfb.pid, note: `private Xvfb, started because ${situation.because}` }
        }
      }
    }
  })
