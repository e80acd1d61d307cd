/**
 * What the server starts does not outlive it, however it ends. A close, SIGTERM, SIGINT, SIGHUP or the end of
 * stdin closes each app in its scope; a SIGKILL, the kernel's out-of-memory killer or a fatal V8 error runs no
 * finalizer, and a real Electron (spawned in a process group of its own, as playwright-core and the CDP launch
 * spawn it) would keep running with its windows, its debugging ports and its private Xvfb.
 *
 * The reaper is one small Node process per server process, in a process group of its own (so a host that kills
 * the server's group does not take it too) and unreferenced (it never keeps the server alive). Its stdin is a
 * pipe from the server: the server writes `+g<pid>` for a process group it started (an app), `+p<pid>` for a
 * single process (a private Xvfb), `+i<id> <json>` for a Node inspector it opened in an app it attached to by
 * pid (./attach-main.ts), and `-…` when that process has exited or the session closed that inspector. The
 * kernel closes the pipe when the server ends in any way; at the end of its stdin the reaper sends SIGTERM to
 * what is still listed, SIGKILL to what is left after REAP_GRACE_MS, asks each listed app to undo the attach
 * (the app keeps running), and exits. A server that ended cleanly has nothing listed: it exits at once.
 * POSIX only: on Windows a child is not given a process group of its own, and nothing is listed.
 */
import childProcess, { type ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"

/** How long the reaper waits after SIGTERM before it kills what is left (Electron quits on SIGTERM). */
export const REAP_GRACE_MS = 2_000

/** What the reaper does for a Node inspector the server opened in an app it attached to. */
export interface InspectorReap {
  /** The inspector's WebSocket URL (127.0.0.1). */
  readonly url: string
  /** Evaluated there (with the command line API: `require`), as the session's own close does. */
  readonly expression: string
  /** The `ws` package's entry file: the reaper has no modules of its own. */
  readonly ws: string
}

/** How long the reaper waits for an app to close its inspector once asked. */
const INSPECTOR_WAIT_MS = 5_000

/**
 * The reaper's program, run by `node -e` (self-contained: its source is all it has). A line it does not
 * understand is ignored; a pid is a positive integer. Process groups and processes get SIGTERM, then SIGKILL
 * after the grace; an inspector is connected to and asked to run its expression (the attach's undoing: the
 * relay's debuggers detached, then `inspector.close()`), and the reaper waits for the app to close the
 * connection (INSPECTOR_WAIT_MS at most). It exits when all of that is done.
 */
const reaperProgram = (graceMs: number, inspectorWaitMs: number) => {
  process.title = "stagewright-reaper"
  type Entry = { kind: "g" | "p"; pid: number } | { kind: "i"; spec: { url: string; expression: string; ws: string } }
  const listed = new Map<string, Entry>()
  let rest = ""
  const kill = (entry: { kind: "g" | "p"; pid: number }, signal: string) => {
    try {
      process.kill(entry.kind === "g" ? -entry.pid : entry.pid, signal)
      return true
    } catch {
      return false
    }
  }
  let pending = 0
  const done = () => {
    pending -= 1
    if (pending === 0) process.exit(0)
  }
  const undoAttach = (spec: { url: string; expression: string; ws: string }) => {
    pending += 1
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      done()
    }
    try {
      const WebSocket = require(spec.ws)
      const socket = new WebSocket(spec.url, { handshakeTimeout: inspectorWaitMs })
      socket.on("open", () =>
        socket.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression: spec.expression, includeCommandLineAPI: true } }))
      )
      // The app closes every inspector connection when it closes its inspector: that is the end waited for.
      socket.on("close", finish)
      socket.on("error", finish)
      setTimeout(() => {
        socket.terminate()
        finish()
      }, inspectorWaitMs)
    } catch {
      finish()
    }
  }
  const reap = () => {
    pending += 1
    const entries = [...listed.values()]
    listed.clear()
    const alive: Array<{ kind: "g" | "p"; pid: number }> = []
    for (const entry of entries) {
      if (entry.kind === "i") undoAttach(entry.spec)
      else if (kill(entry, "SIGTERM")) alive.push(entry)
    }
    if (alive.length > 0) {
      pending += 1
      setTimeout(() => {
        for (const entry of alive) kill(entry, "SIGKILL")
        done()
      }, graceMs)
    }
    done()
  }
  process.stdin.setEncoding("utf8")
  process.stdin.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n")
    rest = lines.pop() ?? ""
    for (const line of lines) {
      const pid = /^([+-])([gp])([1-9][0-9]{0,9})$/.exec(line)
      if (pid) {
        const key = pid[2]! + pid[3]!
        if (pid[1] === "+") listed.set(key, { kind: pid[2] as "g" | "p", pid: Number(pid[3]) })
        else listed.delete(key)
        continue
      }
      const inspector = /^([+-])i([0-9a-f-]{1,64})(?: (.+))?$/.exec(line)
      if (!inspector) continue
      const key = `i${inspector[2]}`
      if (inspector[1] === "-") {
        listed.delete(key)
        continue
      }
      try {
        const spec = JSON.parse(inspector[3] ?? "")
        if (typeof spec.url === "string" && typeof spec.expression === "string" && typeof spec.ws === "string") listed.set(key, { kind: "i", spec })
      } catch {
        // not a spec: ignored
      }
    }
  })
  process.stdin.on("end", reap)
  process.stdin.on("error", reap)
}

export interface Reaper {
  /** Lists `child` to be killed if the server ends without closing it; it is taken off the list when it exits. */
  readonly watch: (child: ChildProcess, kind: "group" | "process") => void
  /**
   * Lists an inspector the server opened in an app it attached to: if the server ends without closing it, the
   * reaper asks the app to undo the attach (`spec.expression`). `update` replaces the spec (the relay started);
   * `release` takes it off the list (the session closed it).
   */
  readonly watchInspector: (spec: InspectorReap) => { readonly update: (spec: InspectorReap) => void; readonly release: () => void }
  /** The reaper's own process id (tests). */
  readonly pid: number | undefined
}

/** The reaper's environment: none, but under Electron run as Node (some hosts run servers so), ELECTRON_RUN_AS_NODE. */
export const reaperEnv = (versions: { readonly electron?: string | undefined }): Record<string, string> =>
  versions.electron === undefined ? {} : { ELECTRON_RUN_AS_NODE: "1" }

/** Starts a reaper (one per server process: see `reaper()`); exported for tests, which end its stdin themselves. */
export const startReaper = (graceMs = REAP_GRACE_MS): Reaper & { readonly process: ChildProcess } => {
  // A transpiler that keeps names calls `__name` inside the function (as ./selectors.ts's mainSource says).
  const source = `const __name = (target) => target; (${reaperProgram.toString()})(${graceMs}, ${INSPECTOR_WAIT_MS})`
  const helper = childProcess.spawn(process.execPath, ["-e", source], {
    detached: true,
    // Nothing of the server's environment (NODE_OPTIONS would load code into it), except what keeps a host's
    // Electron that runs the server as Node (ELECTRON_RUN_AS_NODE: process.execPath is Electron's) running it as Node.
    env: reaperEnv(process.versions as { readonly electron?: string }),
    stdio: ["pipe", "ignore", "ignore"]
  })
  helper.on("error", () => undefined)
  helper.stdin?.on("error", () => undefined)
  helper.unref()
  // The pipe must not keep the server's event loop alive either (a net.Socket under the stream).
  ;(helper.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  const send = (line: string) => {
    if (helper.stdin?.writable) helper.stdin.write(`${line}\n`)
  }
  return {
    process: helper,
    pid: helper.pid,
    watch: (child, kind) => {
      const pid = child.pid
      if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return
      const key = `${kind === "group" ? "g" : "p"}${pid}`
      send(`+${key}`)
      child.once("exit", () => send(`-${key}`))
    },
    watchInspector: (spec) => {
      const id = randomUUID()
      const list = (next: InspectorReap) => send(`+i${id} ${JSON.stringify(next)}`)
      list(spec)
      return { update: list, release: () => send(`-i${id}`) }
    }
  }
}

let shared: Reaper | undefined

/** The server process's reaper, started at the first thing it is given; none on Windows. */
const sharedReaper = (): Reaper | undefined => {
  if (process.platform === "win32") return undefined
  shared ??= startReaper()
  return shared
}

/** Lists `child` with the server process's reaper (./reaper.ts's first comment). */
export const reapOnExit = (child: ChildProcess, kind: "group" | "process"): void => sharedReaper()?.watch(child, kind)

/** Lists an inspector the server opened with the server process's reaper; nothing to release on Windows. */
export const undoAttachOnExit = (spec: InspectorReap): { readonly update: (spec: InspectorReap) => void; readonly release: () => void } =>
  sharedReaper()?.watchInspector(spec) ?? { update: () => undefined, release: () => undefined }
