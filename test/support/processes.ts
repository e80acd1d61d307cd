/** Process-tree helpers for leak checks (Linux /proc), by pid rather than by sleeping. */
import { readdirSync, readFileSync } from "node:fs"

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name may contain spaces and parentheses: the fields after the last ")" are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[1])
  } catch {
    return undefined
  }
}

/** Every live descendant of `pid` (children, grandchildren, ...). */
export const descendants = (pid: number): ReadonlyArray<number> => {
  const children = new Map<number, Array<number>>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    const child = Number(entry)
    const parent = parentOf(child)
    if (parent === undefined) continue
    children.set(parent, [...(children.get(parent) ?? []), child])
  }
  const out: Array<number> = []
  const queue = [pid]
  while (queue.length > 0) {
    const next = queue.shift()!
    for (const child of children.get(next) ?? []) {
      out.push(child)
      queue.push(child)
    }
  }
  return out
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    // A zombie still answers signal 0; treat it as gone.
    const state = readFileSync(`/proc/${pid}/stat`, "utf8")
    return state.slice(state.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
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
