/**
 * One cold start measured from outside, as a host starts an MCP server: spawn -> initialize ->
 * tools/list -> close stdin -> process exit. Whole-process figures: wall time (spawn to exit, plus the
 * moments the initialize and tools/list answers arrived) and the peak resident set of the process
 * (getrusage maxrss through `/usr/bin/time -f %M` when it exists, else VmHWM from /proc/<pid>/status
 * sampled until the last answer).
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const TIME_BIN = "/usr/bin/time"
export const haveTimeBin = (): boolean => existsSync(TIME_BIN)

export interface StartSample {
  /** spawn -> initialize answer */
  readonly initializeMs: number
  /** spawn -> tools/list answer */
  readonly listMs: number
  /** spawn -> process exit after stdin closed */
  readonly wallMs: number
  readonly peakRssMiB: number
  readonly rssSource: "getrusage" | "VmHWM"
  /** user + system CPU time of the process (getrusage, with /usr/bin/time; 0 without): steadier than wall on a loaded machine */
  readonly cpuMs: number
  readonly toolCount: number
  /** The tools array of the tools/list answer. */
  readonly tools: ReadonlyArray<unknown>
}

export interface CommandSample {
  readonly wallMs: number
  readonly peakRssMiB: number
  readonly cpuMs: number
  readonly status: number | null
  readonly stdoutBytes: number
}

const vmHwmKiB = (pid: number): number => {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) : 0
  } catch {
    return 0
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10

/** Spawns `node ...args` (under /usr/bin/time when available) and returns the child, the rusage file and a peak reader. */
const start = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, stdin: "pipe" | "ignore") => {
  const dir = mkdtempSync(join(tmpdir(), "stagewright-coldstart-"))
  const rusage = join(dir, "rusage")
  const timed = haveTimeBin()
  const t0 = performance.now()
  const child = timed
    ? spawn(TIME_BIN, ["-f", "%M %U %S", "-o", rusage, process.execPath, ...args], { env, stdio: [stdin, "pipe", "pipe"] })
    : spawn(process.execPath, [...args], { env, stdio: [stdin, "pipe", "pipe"] })
  let sampled = 0
  // Without /usr/bin/time: the child is node itself; sample its high-water mark.
  const sampler = timed ? undefined : setInterval(() => (sampled = Math.max(sampled, vmHwmKiB(child.pid!))), 5)
  const exited = new Promise<{ status: number | null; at: number }>((resolve, reject) => {
    child.once("error", reject)
    child.once("exit", (status) => resolve({ status, at: performance.now() }))
  })
  const peak = (): { MiB: number; source: "getrusage" | "VmHWM"; cpuMs: number } => {
    if (sampler) clearInterval(sampler)
    if (timed) {
      const [kib, user, system] = readFileSync(rusage, "utf8").trim().split("\n").pop()!.split(" ").map(Number)
      rmSync(dir, { recursive: true, force: true })
      return { MiB: round1(kib! / 1024), source: "getrusage", cpuMs: Math.round((user! + system!) * 1000) }
    }
    rmSync(dir, { recursive: true, force: true })
    return { MiB: round1(sampled / 1024), source: "VmHWM", cpuMs: 0 }
  }
  const sampleNow = () => {
    if (!timed) sampled = Math.max(sampled, vmHwmKiB(child.pid!))
  }
  return { child, t0, exited, peak, sampleNow }
}

/** One MCP cold start: initialize, tools/list, close. Rejects when the server does not answer within `timeoutMs`. */
/** A JSON-RPC answer as the bench reads it (tools/list's tools, or an error). */
interface RpcAnswer {
  readonly id?: number
  readonly result?: { readonly tools?: ReadonlyArray<unknown> }
  readonly error?: unknown
}

export const measureStart = async (
  args: ReadonlyArray<string>,
  options: { readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number } = {}
): Promise<StartSample> => {
  const { child, t0, exited, peak, sampleNow } = start(args, options.env ?? process.env, "pipe")
  let stderr = ""
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const answers = new Map<number, { at: number; message: RpcAnswer }>()
  const waiters = new Map<number, () => void>()
  let buffer = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const at = performance.now()
    buffer += chunk
    let newline: number
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).trim()
      buffer = buffer.slice(newline + 1)
      if (line === "") continue
      const message = JSON.parse(line) as RpcAnswer
      if (typeof message.id === "number") {
        answers.set(message.id, { at, message })
        waiters.get(message.id)?.()
      }
    }
  })
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000)
  const answer = (id: number) =>
    new Promise<{ at: number; message: RpcAnswer }>((resolve, reject) => {
      const done = () => resolve(answers.get(id)!)
      if (answers.has(id)) return done()
      waiters.set(id, done)
      void exited.then(() => (answers.has(id) ? done() : reject(new Error(`${args.join(" ")}: exited before answering ${id}\n${stderr}`))))
    })
  const send = (message: object) => child.stdin!.write(JSON.stringify(message) + "\n")
  try {
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "coldstart-bench", version: "1" } }
    })
    const init = await answer(1)
    send({ jsonrpc: "2.0", method: "notifications/initialized" })
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" })
    const list = await answer(2)
    sampleNow()
    child.stdin!.end()
    const exit = await exited
    const rss = peak()
    const tools = (list.message.result?.tools ?? []) as ReadonlyArray<unknown>
    return {
      initializeMs: round1(init.at - t0),
      listMs: round1(list.at - t0),
      wallMs: round1(exit.at - t0),
      peakRssMiB: rss.MiB,
      rssSource: rss.source,
      cpuMs: rss.cpuMs,
      toolCount: tools.length,
      tools
    }
  } finally {
    clearTimeout(timer)
    if (child.exitCode === null) child.kill("SIGKILL")
  }
}

/** A command run to its end (for `--help`): wall and peak RSS. */
export const measureCommand = async (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Promise<CommandSample> => {
  const { child, t0, exited, peak } = start(args, env, "ignore")
  let stdoutBytes = 0
  child.stdout!.on("data", (chunk: Buffer) => (stdoutBytes += chunk.length))
  child.stderr!.resume()
  const exit = await exited
  const rss = peak()
  return { wallMs: round1(exit.at - t0), peakRssMiB: rss.MiB, cpuMs: rss.cpuMs, status: exit.status, stdoutBytes }
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : round1((sorted[mid - 1]! + sorted[mid]!) / 2)
}
