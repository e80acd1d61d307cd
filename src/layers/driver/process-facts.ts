/**
 * What Linux /proc says about a local process, for attaching to an app started without any debug switch
 * (./debug-process.ts): its owner (the Uid line of /proc/<pid>/status), its command line, the program it
 * runs, and the TCP ports it listens on (its socket fds matched against /proc/<pid>/net/tcp{,6}).
 *
 * The program of a process is its executable, or, for a Node executable running a script, that script:
 * an Electron binary runs as itself, the Electron stand-in of the tests is a script Node runs. Whether the
 * program is Electron is decided by the fuse wire it carries (Electron 12 and later, and the stand-in's
 * launcher, carry one; Node, `sleep` or a plain script do not): see ./fuses.ts.
 *
 * Every read is bounded (bytes of a file, fds of a process) and asynchronous. The owner lookup is the
 * ProcessProbe reference, so a test can fake another user's process.
 */
import { Context, Effect } from "effect"
import { readdir, readlink, stat } from "node:fs/promises"
import { basename, isAbsolute, resolve } from "node:path"
import { head } from "./discovery.js"

const MAX_FDS = 4_096
const TEXT_BYTES = 256 * 1024

/** The owner of a process (its real uid), and the server's own uid. Injectable for tests. */
export interface ProcessProbeShape {
  readonly ownerOf: (pid: number) => Effect.Effect<number | undefined>
  readonly myUid: number | undefined
}

/** The real uid in /proc/<pid>/status (undefined: no such process). */
export const procOwner = (pid: number): Effect.Effect<number | undefined> =>
  Effect.map(head(`/proc/${pid}/status`, 4_096), (text) => {
    const uid = text === undefined ? undefined : /^Uid:\s+(\d+)/m.exec(text)?.[1]
    return uid === undefined ? undefined : Number(uid)
  })

export class ProcessProbe extends Context.Reference<ProcessProbe>()("stagewright/ProcessProbe", {
  defaultValue: (): ProcessProbeShape => ({ ownerOf: procOwner, myUid: typeof process.getuid === "function" ? process.getuid() : undefined })
}) {}

export interface ProcessFacts {
  readonly pid: number
  readonly argv: ReadonlyArray<string>
  /** The resolved executable (/proc/<pid>/exe), when readable. */
  readonly exe: string | undefined
  /** The program it runs: the executable, or the script a Node executable runs. */
  readonly program: string | undefined
}

const NODE = /^node(js)?[\d.]*$/

/** The command line, executable and program of a process (undefined: it is gone). */
export const processFacts = (pid: number): Effect.Effect<ProcessFacts | undefined> =>
  Effect.gen(function* () {
    const cmdline = yield* head(`/proc/${pid}/cmdline`, TEXT_BYTES)
    if (cmdline === undefined) return undefined
    const argv = cmdline.split("\0").filter((part) => part !== "")
    const exe = yield* Effect.tryPromise(() => readlink(`/proc/${pid}/exe`)).pipe(Effect.orElseSucceed(() => undefined))
    const cwd = yield* Effect.tryPromise(() => readlink(`/proc/${pid}/cwd`)).pipe(Effect.orElseSucceed(() => "/"))
    let program = exe
    if (exe !== undefined && NODE.test(basename(exe))) {
      // Node's own switches come first (`node --flag script args`); a switch's separate value is not looked for.
      const script = argv.slice(1).find((arg) => !arg.startsWith("-"))
      const path = script === undefined ? undefined : isAbsolute(script) ? script : resolve(cwd, script)
      const isFile =
        path === undefined
          ? false
          : yield* Effect.tryPromise(() => stat(path)).pipe(
              Effect.map((s) => s.isFile()),
              Effect.orElseSucceed(() => false)
            )
      program = isFile ? path : exe
    }
    return { pid, argv, exe, program }
  })

export interface ListeningSocket {
  readonly address: string
  readonly port: number
  readonly loopback: boolean
}

/** An address of /proc/net/tcp (little-endian hex) as text. */
const addressOf = (hex: string): { address: string; loopback: boolean } => {
  if (hex.length === 8) {
    const bytes = [6, 4, 2, 0].map((at) => parseInt(hex.slice(at, at + 2), 16))
    return { address: bytes.join("."), loopback: bytes[0] === 127 }
  }
  const words = hex.match(/.{8}/g) ?? []
  const loopback = hex === "00000000000000000000000001000000"
  const mapped = hex.startsWith("0000000000000000FFFF0000")
  if (mapped) return addressOf(hex.slice(24))
  return { address: loopback ? "::1" : words.join(":"), loopback }
}

/** The TCP ports the process listens on (its own socket fds), with their addresses. */
export const listeningSockets = (pid: number): Effect.Effect<ReadonlyArray<ListeningSocket>> =>
  Effect.gen(function* () {
    const fds = yield* Effect.tryPromise(() => readdir(`/proc/${pid}/fd`)).pipe(Effect.orElseSucceed(() => [] as Array<string>))
    const links = yield* Effect.forEach(
      fds.slice(0, MAX_FDS),
      (fd) => Effect.tryPromise(() => readlink(`/proc/${pid}/fd/${fd}`)).pipe(Effect.orElseSucceed(() => "")),
      { concurrency: 16 }
    )
    const inodes = new Set(links.map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter((inode): inode is string => inode !== undefined))
    if (inodes.size === 0) return []
    const found: Array<ListeningSocket> = []
    for (const table of ["tcp", "tcp6"]) {
      const text = (yield* head(`/proc/${pid}/net/${table}`, 4 * 1024 * 1024)) ?? ""
      for (const line of text.split("\n").slice(1)) {
        const fields = line.trim().split(/\s+/)
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        if (fields.length < 10 || fields[3] !== "0A" || !inodes.has(fields[9]!)) continue
        const [hex, port] = fields[1]!.split(":")
        found.push({ ...addressOf(hex!), port: parseInt(port!, 16) })
      }
    }
    return found
  })
