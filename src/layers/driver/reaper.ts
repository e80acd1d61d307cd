/**
 * What the server starts does not outlive it, however it ends. A close, SIGTERM, SIGINT, SIGHUP or the end of
 * stdin closes each app in its scope; a SIGKILL, the kernel's out-of-memory killer or a fatal V8 error runs no
 * finalizer, and a real Electron (spawned in a process group of its own, as playwright-core and the CDP launch
 * spawn it) would keep running with its windows, its debugging ports and its private Xvfb.
 *
 * The reaper is one small Node process per server process, in a process group of its own (so a host that kills
 * the server's group does not take it too) and unreferenced (it never keeps the server alive). Its stdin is a
 * pipe from the server: the server writes `+g<pid>` for a process group it started (an app), `+p<pid>` for a
 * single process (a private Xvfb) and `-…` when that process has exited. The kernel closes the pipe when the
 * server ends in any way; at the end of its stdin the reaper sends SIGTERM to what is still listed, SIGKILL to
 * what is left after REAP_GRACE_MS, and exits. A server that ended cleanly has nothing listed: it exits at once.
 * POSIX only: on Windows a child is not given a process group of its own, and nothing is listed.
 */
import childProcess, { type ChildProcess } from "node:child_process"

/** How long the reaper waits after SIGTERM before it kills what is left (Electron quits on SIGTERM). */
export const REAP_GRACE_MS = 2_000

/**
 * The reaper's program, run by `node -e` (self-contained: its source is all it has). A line it does not
 * understand is ignored; a pid is a positive integer.
 */
const reaperProgram = (graceMs: number) => {
  process.title = "stagewright-reaper"
  const listed = new Map<string, { group: boolean; pid: number }>()
  let rest = ""
  const kill = (entry: { group: boolean; pid: number }, signal: string) => {
    try {
      process.kill(entry.group ? -entry.pid : entry.pid, signal)
      return true
    } catch {
      return false
    }
  }
  const reap = () => {
    const alive = [...listed.values()].filter((entry) => kill(entry, "SIGTERM"))
    if (alive.length === 0) process.exit(0)
    setTimeout(() => {
      for (const entry of alive) kill(entry, "SIGKILL")
      process.exit(0)
    }, graceMs)
  }
  process.stdin.setEncoding("utf8")
  process.stdin.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n")
    rest = lines.pop() ?? ""
    for (const line of lines) {
      const match = /^([+-])([gp])([1-9][0-9]{0,9})$/.exec(line)
      if (!match) continue
      const key = match[2]! + match[3]!
      if (match[1] === "+") listed.set(key, { group: match[2] === "g", pid: Number(match[3]) })
      else listed.delete(key)
    }
  })
  process.stdin.on("end", reap)
  process.stdin.on("error", reap)
}

export interface Reaper {
  /** Lists `child` to be killed if the server ends without closing it; it is taken off the list when it exits. */
  readonly watch: (child: ChildProcess, kind: "group" | "process") => void
  /** The reaper's own process id (tests). */
  readonly pid: number | undefined
}

/** Starts a reaper (one per server process: see `reaper()`); exported for tests, which end its stdin themselves. */
export const startReaper = (graceMs = REAP_GRACE_MS): Reaper & { readonly process: ChildProcess } => {
  // A transpiler that keeps names calls `__name` inside the function (as ./selectors.ts's mainSource says).
  const source = `const __name = (target) => target; (${reaperProgram.toString()})(${graceMs})`
  const helper = childProcess.spawn(process.execPath, ["-e", source], {
    detached: true,
    // Nothing of the server's environment (NODE_OPTIONS would load code into it); it needs none.
    env: {},
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
    }
  }
}

let shared: Reaper | undefined

/** The server process's reaper, started at the first process it is given; none on Windows. */
export const reapOnExit = (child: ChildProcess, kind: "group" | "process"): void => {
  if (process.platform === "win32") return
  shared ??= startReaper()
  shared.watch(child, kind)
}
