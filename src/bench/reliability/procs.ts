/**
 * What the reliability benchmark reads from Linux /proc: process trees, liveness, resident memory,
 * open file descriptors, and the temp folders the Electron stand-in and Playwright create. The tests'
 * leak checks use the same process helpers (test/support/processes.ts).
 */
import { readdirSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"

const statFields = (pid: number): ReadonlyArray<string> | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name may hold spaces and parentheses: the fields after the last ")" are fixed.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

/** Every live descendant of `pid` (children, grandchildren, ...), zombies included. */
export const descendants = (pid: number): ReadonlyArray<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const parent = Number(statFields(Number(entry))?.[1])
    if (!Number.isFinite(parent)) continue
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)])
  }
  const out: Array<number> = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child)
      queue.push(child)
    }
  }
  return out
}

/** Alive and not a zombie. */
export const isAlive = (pid: number): boolean => {
  const state = statFields(pid)?.[0]
  return state !== undefined && state !== "Z"
}

/** The command line of a process, for reports. */
export const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim().slice(0, 160)
  } catch {
    return "?"
  }
}

/** Waits until none of `pids` is alive, up to `timeoutMs`; returns those still alive. */
export const waitAllGone = async (pids: ReadonlyArray<number>, timeoutMs = 20_000): Promise<ReadonlyArray<number>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const alive = pids.filter(isAlive)
    if (alive.length === 0 || Date.now() > deadline) return alive
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Resident set size of a process in bytes (0 when it is gone). */
export const rssOf = (pid: number): number => {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/** RSS summed over a process and its descendants. */
export const treeRss = (pid: number): { readonly bytes: number; readonly processes: number } => {
  const pids = [pid, ...descendants(pid)].filter(isAlive)
  return { bytes: pids.reduce((sum, p) => sum + rssOf(p), 0), processes: pids.length }
}

/** Open file descriptors of this process. */
export const openFds = (): number => readdirSync("/proc/self/fd").length

/** Temp entries of the stand-in's Chromium profiles (`stagewright-standin-<pid>-<random>`) and Playwright's artifacts. */
export const STANDIN_PROFILE = /^stagewright-standin-(\d+)-[0-9a-zA-Z]+$/
export const PLAYWRIGHT_ARTIFACTS = /^(playwright|stagewright)-artifacts-/

export const tempEntries = (): ReadonlySet<string> => {
  try {
    return new Set(readdirSync(tmpdir()).filter((name) => STANDIN_PROFILE.test(name) || PLAYWRIGHT_ARTIFACTS.test(name)))
  } catch {
    return new Set()
  }
}

/** Percentile of a sample (nearest rank); 0 for an empty one. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!)
}

export const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10
