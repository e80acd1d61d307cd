/**
 * Finding running apps to attach to (electron_attach without a target): local Electron/Chromium processes
 * of this user with an open remote debugging port. On Linux it reads /proc/<pid>/cmdline for
 * `--remote-debugging-port=N`; for N = 0 it reads the port Chromium wrote to `DevToolsActivePort` in the
 * `--user-data-dir` the process names (an app's default profile folder is not guessed). A process and its
 * children that carry the same switch (the stand-in's Node and its Chromium) are one app, named after the
 * topmost; Chromium's helpers (`--type=…`), which repeat the switch, are not looked at. Each port is probed
 * on 127.0.0.1 only (/json/version, then /json/list for the first page title).
 *
 * Everything is bounded and asynchronous: how many /proc entries are read, how many bytes of each, how
 * many ports are probed and for how long, how much of an answer is read. What a process or a page says
 * (its name, its title) is untrusted: shortened, control characters removed.
 */
import { Effect } from "effect"
import { open, readdir, stat } from "node:fs/promises"
import { basename, isAbsolute, join } from "node:path"

const MAX_PROCESSES = 8_192
const MAX_PROBED = 16
const READ_CONCURRENCY = 32
const PROBE_CONCURRENCY = 8
const CMDLINE_BYTES = 32 * 1024
const ANSWER_BYTES = 256 * 1024
export const PROBE_MS = 1_500

export interface DebuggableApp {
  /** The app's topmost process with the switch (what a user would call its pid). */
  readonly pid: number
  /** Every process of the app that carries the switch (the app and, on the stand-in, its Chromium). */
  readonly pids: ReadonlyArray<number>
  readonly name: string
  readonly port: number
  /** The title of the first page, when there is one. */
  readonly title: string | undefined
  /** Chromium's `Browser` of /json/version (`Chrome/…`, `HeadlessChrome/…`). */
  readonly browser: string | undefined
}

export interface Discovery {
  /** False where /proc cannot be read (not Linux): nothing was looked for. */
  readonly supported: boolean
  readonly apps: ReadonlyArray<DebuggableApp>
  /** Processes whose command line was read. */
  readonly scanned: number
  /** Ports found but not probed (over the bound). */
  readonly notProbed: number
}

/** A short, printable rendering of untrusted text. */
export const untrustedText = (text: string, max = 80): string => {
  // eslint-disable-next-line no-control-regex
  const clean = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** The first `bytes` of a file, or undefined when it cannot be read. */
export const head = (path: string, bytes: number): Effect.Effect<string | undefined> =>
  Effect.tryPromise(async () => {
    const handle = await open(path, "r")
    try {
      const buffer = Buffer.alloc(bytes)
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0)
      return buffer.subarray(0, bytesRead).toString("utf8")
    } finally {
      await handle.close()
    }
  }).pipe(Effect.orElseSucceed(() => undefined))

const PORT_SWITCH = /(?:^|[\0 ])--remote-debugging-port=(\d{1,5})(?=$|[\0 ])/
const HELPER_SWITCH = /(?:^|[\0 ])--type=/
// Chromium may rewrite its command line into one space-joined string: a path then ends at " --".
const USER_DATA_DIR = /(?:^|[\0 ])--user-data-dir=(.+?)(?=$|\0| --)/

export interface Candidate {
  readonly pid: number
  readonly ppid: number
  readonly name: string
  readonly port: number | undefined
}

/** The program a command line runs: its executable, or for `node [switches] script` the script. */
const programName = (cmdline: string): string => {
  const parts = cmdline.split("\0").filter((part) => part !== "")
  const argv = parts.length === 1 ? parts[0]!.split(" ") : parts
  const first = basename(argv[0] ?? "?")
  const script = /^node(js)?[\d.]*$/.test(first) ? argv.slice(1).find((arg) => !arg.startsWith("-")) : undefined
  return untrustedText(script !== undefined ? basename(script) : first, 40) || "?"
}

/** The port in `<user-data-dir>/DevToolsActivePort` (Chromium writes it when started with port 0). */
const activePort = (cmdline: string): Effect.Effect<number | undefined> => {
  const dir = USER_DATA_DIR.exec(cmdline)?.[1]
  if (dir === undefined || !isAbsolute(dir)) return Effect.succeed(undefined)
  return Effect.map(head(join(dir, "DevToolsActivePort"), 64), (text) => validPort(Number(text?.split("\n")[0])))
}

/** Whether a /proc command line is a Chromium helper's (renderer, zygote, GPU: `--type=…`). */
export const isChromiumHelper = (cmdline: string): boolean => HELPER_SWITCH.test(cmdline)

const validPort = (port: number) => (Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined)

const myUid = () => (typeof process.getuid === "function" ? process.getuid() : undefined)

/** One /proc entry, when it is this user's process with the switch. */
const candidateOf = (pid: number): Effect.Effect<Candidate | undefined> =>
  Effect.gen(function* () {
    const cmdline = yield* head(`/proc/${pid}/cmdline`, CMDLINE_BYTES)
    const switchPort = cmdline === undefined ? undefined : PORT_SWITCH.exec(cmdline)?.[1]
    // A Chromium helper (renderer, zygote, GPU) repeats the browser's switches but is never the app: its parent is
    // the zygote, which has none, so it would stand as an app of its own on the app's port.
    if (cmdline === undefined || switchPort === undefined || isChromiumHelper(cmdline)) return undefined
    // Only this user's processes: another user's browser is theirs.
    const owner = yield* Effect.tryPromise(() => stat(`/proc/${pid}`)).pipe(
      Effect.map((s) => s.uid),
      Effect.orElseSucceed(() => -1)
    )
    if (owner !== myUid()) return undefined
    const statLine = (yield* head(`/proc/${pid}/stat`, 1024)) ?? ""
    const ppid = Number(statLine.slice(statLine.lastIndexOf(")") + 2).split(" ")[1])
    const port = validPort(Number(switchPort)) ?? (yield* activePort(cmdline))
    return { pid, ppid, name: programName(cmdline), port }
  })

/** Reads a bounded JSON answer from 127.0.0.1:port. */
export const getJson = (port: number, path: string, ms: number): Effect.Effect<unknown, string> =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal, redirect: "error" })
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      const reader = response.body?.getReader()
      const chunks: Array<Uint8Array> = []
      let size = 0
      for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
        size += read.value.byteLength
        if (size > ANSWER_BYTES) {
          await reader?.cancel()
          throw new Error(`the answer is larger than ${ANSWER_BYTES} bytes`)
        }
        chunks.push(read.value)
      }
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown
    },
    catch: (cause) => {
      const code = (cause as { cause?: { code?: unknown } })?.cause?.code
      return typeof code === "string" ? code : cause instanceof Error ? cause.message : String(cause)
    }
  }).pipe(Effect.timeoutFail({ duration: ms, onTimeout: () => `no answer within ${ms} ms` }))

export interface ProbedPort {
  readonly browser: string | undefined
  readonly title: string | undefined
}

/** Whether a remote debugging port answers on 127.0.0.1, with its browser and first page title; fails with why not. */
export const probeDebugPort = (port: number, ms = PROBE_MS): Effect.Effect<ProbedPort, string> =>
  Effect.gen(function* () {
    const version = yield* getJson(port, "/json/version", ms)
    const browserField = (version as { Browser?: unknown } | null)?.Browser
    if (typeof browserField !== "string") return yield* Effect.fail("it is not a Chromium remote debugging port (no Browser in /json/version)")
    const list = yield* getJson(port, "/json/list", ms).pipe(Effect.orElseSucceed(() => []))
    const page = Array.isArray(list) ? (list as Array<{ type?: unknown; title?: unknown }>).find((t) => t?.type === "page") : undefined
    return {
      browser: untrustedText(browserField, 60),
      title: typeof page?.title === "string" ? untrustedText(page.title) : undefined
    }
  })

/**
 * The apps among `candidates`, by port: a process whose parent also carries the switch belongs to the parent's app,
 * named after the topmost; when two unrelated processes name one port, the lower pid's wins. The outcome does not
 * depend on the order of `candidates` (/proc is listed in name order, where "10031" comes before "9925").
 */
export const appGroups = (candidates: ReadonlyArray<Candidate>): Map<number, { root: Candidate; pids: Set<number> }> => {
  const byPid = new Map([...candidates].sort((a, b) => a.pid - b.pid).map((c) => [c.pid, c]))
  const rootOf = (c: Candidate): Candidate => {
    let at = c
    for (let depth = 0; depth < 16; depth++) {
      const parent = byPid.get(at.ppid)
      if (parent === undefined) break
      at = parent
    }
    return at
  }
  const byPort = new Map<number, { root: Candidate; pids: Set<number> }>()
  for (const c of byPid.values()) {
    if (c.port === undefined) continue
    const root = rootOf(c)
    const group = byPort.get(c.port) ?? { root, pids: new Set<number>() }
    if (group.root.pid !== root.pid) continue
    group.pids.add(root.pid).add(c.pid)
    byPort.set(c.port, group)
  }
  // The app's other processes with the switch (a port-0 parent) belong to it too.
  for (const group of byPort.values()) for (const c of byPid.values()) if (rootOf(c).pid === group.root.pid) group.pids.add(c.pid)
  return byPort
}

/** Lists this user's local processes with an open remote debugging port (bounded; see the module comment). */
export const discoverApps: Effect.Effect<Discovery> = Effect.gen(function* () {
  if (process.platform !== "linux") return { supported: false, apps: [], scanned: 0, notProbed: 0 }
  const entries = yield* Effect.tryPromise(() => readdir("/proc")).pipe(Effect.orElseSucceed(() => [] as Array<string>))
  const pids = entries
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => pid !== process.pid)
    .sort((a, b) => a - b)
    .slice(0, MAX_PROCESSES)
  const found = yield* Effect.forEach(pids, candidateOf, { concurrency: READ_CONCURRENCY })
  const byPort = appGroups(found.filter((c): c is Candidate => c !== undefined))
  const groups = [...byPort.entries()].sort(([, a], [, b]) => a.root.pid - b.root.pid)
  const probed = yield* Effect.forEach(
    groups.slice(0, MAX_PROBED),
    ([port, group]) =>
      probeDebugPort(port).pipe(
        Effect.map((answer): DebuggableApp => ({ pid: group.root.pid, pids: [...group.pids].sort((a, b) => a - b), name: group.root.name, port, ...answer })),
        Effect.orElseSucceed(() => undefined)
      ),
    { concurrency: PROBE_CONCURRENCY }
  )
  return {
    supported: true,
    apps: probed.filter((app): app is DebuggableApp => app !== undefined),
    scanned: pids.length,
    notProbed: Math.max(0, groups.length - MAX_PROBED)
  }
})

/** Why `pid` is not among the discovered apps: not running, another user's, or no open port. */
export const whyNotDebuggable = (pid: number): Effect.Effect<string> =>
  Effect.gen(function* () {
    const owner = yield* Effect.tryPromise(() => stat(`/proc/${pid}`)).pipe(
      Effect.map((s) => s.uid),
      Effect.orElseSucceed(() => undefined)
    )
    if (owner === undefined) return `no process ${pid} is running`
    if (owner !== myUid()) return `process ${pid} belongs to another user`
    const cmdline = (yield* head(`/proc/${pid}/cmdline`, CMDLINE_BYTES)) ?? ""
    const name = programName(cmdline)
    if (!PORT_SWITCH.test(cmdline)) return `process ${pid} (${name}) was not started with --remote-debugging-port`
    return `process ${pid} (${name}) has --remote-debugging-port, but no port of it answers on 127.0.0.1 (with port 0 Stagewright finds the port only through --user-data-dir's DevToolsActivePort)`
  })
