/**
 * Opening the main-process inspector of an Electron app that was started without any debug switch, the
 * way Node's own `process._debugProcess(pid)` does on Linux and macOS: SIGUSR1 to the process, after
 * which its Node opens the inspector on its inspect port (127.0.0.1:9229 unless the app was started with
 * `--inspect-port`). Before any signal is sent the process must be:
 * - running and of the server's own user (the Uid of /proc/<pid>/status: ProcessProbe),
 * - an Electron main process: its program carries Electron's fuse wire (./process-facts.ts) and it is not
 *   one of Chromium's helper processes (`--type=`); SIGUSR1 would end a process that does not handle it,
 * - a build whose EnableNodeCliInspectArguments fuse is on (with it off Electron ignores SIGUSR1 too),
 * - with an inspect port on loopback that no other process holds.
 * The inspector is then found among the process's own listening sockets (whatever port it took) and
 * asked on 127.0.0.1 for its target (`/json/list`, type `node`). Whoever opened it (here: `openedByUs`)
 * closes it again when the session ends (./attach-main.ts).
 */
import { Effect, Schedule } from "effect"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"
import { getJson, untrustedText } from "./discovery.js"
import { isLoopbackHost } from "../config/loopback.js"
import { LaunchFailed } from "./errors.js"
import { fuseWireOf, wireInspectOff } from "./fuses.js"
import { listeningSockets, ProcessProbe, processFacts, type ProcessFacts } from "./process-facts.js"

export const INSPECT_FUSE = "EnableNodeCliInspectArguments"
const PORT_HINT = "Or restart the app with --remote-debugging-port=9222 and call electron_attach with port 9222."

export interface AttachableProcess {
  readonly facts: ProcessFacts
  /** The program's name (untrusted: shortened, printable). */
  readonly name: string
}

const refuse = (message: string, hint: string = PORT_HINT) => new LaunchFailed({ message, hint })

/** Whether `pid` may be attached to through its main-process inspector; fails with the reason it may not. */
export const attachableProcess = (pid: number): Effect.Effect<AttachableProcess, LaunchFailed> =>
  Effect.gen(function* () {
    if (process.platform !== "linux") {
      return yield* refuse(
        `Cannot attach to pid ${pid}: attaching to an app without a debug port checks the process in /proc (its owner, program and sockets), which ${process.platform} does not have`,
        "Restart the app with --remote-debugging-port=9222 (and --inspect=9229 for its main process) and attach by port."
      )
    }
    const probe = yield* ProcessProbe
    const owner = yield* probe.ownerOf(pid)
    if (owner === undefined)
      return yield* refuse(`Cannot attach to pid ${pid}: no process ${pid} is running`, "Call electron_attach with no arguments to list running apps.")
    if (owner !== probe.myUid) {
      return yield* refuse(
        `Cannot attach to pid ${pid}: it belongs to another user (uid ${owner}); Stagewright opens the inspector only of its own user's processes (uid ${probe.myUid ?? "?"})`,
        "Run Stagewright as the user who runs the app."
      )
    }
    const facts = yield* processFacts(pid)
    if (facts === undefined || facts.program === undefined) return yield* refuse(`Cannot attach to pid ${pid}: its command line and program cannot be read`)
    const name = untrustedText(basename(facts.program), 40) || "?"
    const helper = facts.argv.find((arg) => arg.startsWith("--type="))
    if (helper !== undefined) {
      return yield* refuse(
        `Cannot attach to pid ${pid} (${name}): it is a Chromium helper process (${untrustedText(helper, 40)}), not the app's main process`,
        "Attach to the app's main process: electron_attach with no arguments lists it."
      )
    }
    const wire = yield* fuseWireOf(facts.program)
    if (wire === undefined) {
      return yield* refuse(
        `Cannot attach to pid ${pid} (${name}): it is not an Electron app (its program ${untrustedText(facts.program, 120)} carries no Electron fuse wire; Electron 12 and later do), and SIGUSR1 would end a process that does not handle it`,
        "Pass the pid of an Electron app's main process; electron_attach with no arguments lists them."
      )
    }
    if (wireInspectOff(wire)) {
      return yield* refuse(
        `Cannot attach to pid ${pid} (${name}): its ${INSPECT_FUSE} fuse is off, so its main-process inspector cannot be opened (the build ignores --inspect and SIGUSR1)`,
        "Restart the app with --remote-debugging-port=9222 and call electron_attach with port 9222 (its windows only), or use a build with the fuse on."
      )
    }
    return { facts, name }
  })

/** `--inspect-port=[host:]port` of a command line (Node's default: 127.0.0.1:9229). */
export const inspectPortOf = (argv: ReadonlyArray<string>): { readonly host: string; readonly port: number } => {
  const spec = [...argv]
    .reverse()
    .map((arg) => /^--(?:inspect-port|debug-port)=(.+)$/.exec(arg)?.[1])
    .find((value) => value !== undefined)
  if (spec === undefined) return { host: "127.0.0.1", port: 9229 }
  const colon = spec.lastIndexOf(":")
  const host = colon === -1 ? "127.0.0.1" : spec.slice(0, colon).replace(/^\[|\]$/g, "") || "127.0.0.1"
  const port = Number(colon === -1 ? spec : spec.slice(colon + 1))
  return { host, port: Number.isInteger(port) && port >= 0 && port < 65_536 ? port : 9229 }
}

/** The Node inspector among the process's loopback listening sockets: its WebSocket URL and port. */
export const inspectorOf = (pid: number): Effect.Effect<{ readonly url: string; readonly port: number } | undefined> =>
  Effect.gen(function* () {
    const sockets = (yield* listeningSockets(pid)).filter((socket) => socket.loopback && socket.address !== "::1")
    for (const socket of sockets.slice(0, 16)) {
      const list = yield* getJson(socket.port, "/json/list", 1_000).pipe(Effect.orElseSucceed(() => undefined))
      const target = Array.isArray(list) ? (list as Array<{ type?: unknown; webSocketDebuggerUrl?: unknown }>).find((t) => t?.type === "node") : undefined
      const url = target?.webSocketDebuggerUrl
      if (typeof url === "string" && url.startsWith(`ws://127.0.0.1:${socket.port}/`)) return { url, port: socket.port }
    }
    return undefined
  })

/** Whether any process of this machine listens on TCP `port` (/proc/net/tcp{,6}, LISTEN state). */
const portTaken = (port: number): Effect.Effect<boolean> =>
  Effect.tryPromise(async () => {
    const suffix = `:${port.toString(16).toUpperCase().padStart(4, "0")}`
    for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
      const text = await readFile(table, "utf8").catch(() => "")
      for (const line of text.split("\n").slice(1)) {
        const fields = line.trim().split(/\s+/)
        if (fields[3] === "0A" && fields[1]?.endsWith(suffix)) return true
      }
    }
    return false
  }).pipe(Effect.orElseSucceed(() => false))

export interface OpenedInspector {
  readonly url: string
  readonly port: number
  /** True when this call opened it (SIGUSR1); false when the app already had its inspector open. */
  readonly openedByUs: boolean
}

/** Opens (or finds open) the main-process inspector of an attachable process; bounded by `timeoutMs`. */
export const openInspector = (target: AttachableProcess, timeoutMs: number): Effect.Effect<OpenedInspector, LaunchFailed> =>
  Effect.gen(function* () {
    const { pid } = target.facts
    const open = yield* inspectorOf(pid)
    if (open !== undefined) return { ...open, openedByUs: false }
    const { host, port } = inspectPortOf(target.facts.argv)
    if (!isLoopbackHost(host)) {
      return yield* refuse(
        `Cannot attach to pid ${pid} (${target.name}): its inspector would listen on ${untrustedText(host, 60)}:${port}, not on loopback`,
        "Restart the app without a non-loopback --inspect-port, or with --remote-debugging-port=9222."
      )
    }
    if (port !== 0 && (yield* portTaken(port))) {
      return yield* refuse(
        `Cannot attach to pid ${pid} (${target.name}): its inspector opens on ${host}:${port}, which another process already listens on, so Node could not open it`,
        `Free port ${port} (another app's inspector?), or restart the app with --inspect-port=0.`
      )
    }
    yield* Effect.try({
      try: () => process.kill(pid, "SIGUSR1"),
      catch: (cause) => refuse(`Cannot signal pid ${pid} (${target.name}): ${cause instanceof Error ? cause.message : String(cause)}`)
    })
    const bound = Math.max(1_000, Math.min(timeoutMs, 10_000))
    const opened = yield* inspectorOf(pid).pipe(
      Effect.flatMap((found) => (found === undefined ? Effect.fail("not yet" as const) : Effect.succeed(found))),
      Effect.retry(Schedule.spaced("100 millis")),
      Effect.timeout(bound),
      Effect.mapError(() =>
        refuse(
          `Sent SIGUSR1 to pid ${pid} (${target.name}), but no Node inspector opened on its loopback ports within ${bound} ms (the app may handle SIGUSR1 itself, or its build ignores it)`
        )
      )
    )
    return { ...opened, openedByUs: true }
  })
