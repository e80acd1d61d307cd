/**
 * The other half of the attach discovery: this user's Electron main processes with no remote debugging
 * port, which electron_attach reaches by pid through their main-process inspector (with --allow-eval main;
 * ./debug-process.ts). A process is listed when its program carries Electron's fuse wire (scanned in pieces,
 * cached), it is not one of Chromium's helpers (`--type=`), it has no `--remote-debugging-port`, and its
 * parent is not itself listed (an app's own Chromium). Bounded: how many processes are read, how many
 * programs scanned at once, how many are listed.
 */
import { Effect } from "effect"
import { readdir } from "node:fs/promises"
import { basename } from "node:path"
import { untrustedText } from "./discovery.js"
import { carriesFuseWire, fuseWireOf, wireInspectOff } from "./fuses.js"
import { ProcessProbe, processFacts } from "./process-facts.js"

const MAX_PROCESSES = 8_192
const MAX_LISTED = 32
const NODE = /^node(js)?[\d.]*$/

export interface InspectableApp {
  readonly pid: number
  readonly name: string
  /** EnableNodeCliInspectArguments off: its inspector cannot be opened (attach by a port only). */
  readonly inspectFuseOff: boolean
}

const ppidOf = (pid: number): Effect.Effect<number | undefined> =>
  Effect.tryPromise(async () => {
    const { readFile } = await import("node:fs/promises")
    const text = await readFile(`/proc/${pid}/stat`, "utf8")
    return Number(text.slice(text.lastIndexOf(")") + 2).split(" ")[1])
  }).pipe(Effect.orElseSucceed(() => undefined))

/** This user's Electron main processes without a debugging port, except `skip` (the apps listed with a port). */
export const inspectableApps = (skip: ReadonlySet<number>): Effect.Effect<ReadonlyArray<InspectableApp>> =>
  Effect.gen(function* () {
    if (process.platform !== "linux") return []
    const probe = yield* ProcessProbe
    const entries = yield* Effect.tryPromise(() => readdir("/proc")).pipe(Effect.orElseSucceed(() => [] as Array<string>))
    const pids = entries
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => pid !== process.pid && !skip.has(pid))
      .slice(0, MAX_PROCESSES)
    const mine = yield* Effect.filter(pids, (pid) => Effect.map(probe.ownerOf(pid), (owner) => owner !== undefined && owner === probe.myUid), {
      concurrency: 32
    })
    const found = yield* Effect.forEach(
      mine,
      (pid) =>
        Effect.gen(function* () {
          const facts = yield* processFacts(pid)
          if (facts?.program === undefined || facts.exe === undefined) return undefined
          if (facts.argv.some((arg) => arg.startsWith("--type=") || arg.startsWith("--remote-debugging-port"))) return undefined
          if (facts.program === facts.exe && NODE.test(basename(facts.exe))) return undefined
          if (!(yield* carriesFuseWire(facts.program))) return undefined
          const inspectFuseOff = wireInspectOff(yield* fuseWireOf(facts.program))
          return { pid, ppid: yield* ppidOf(pid), name: untrustedText(basename(facts.program), 40) || "?", inspectFuseOff }
        }),
      { concurrency: 4 }
    )
    const apps = found.filter((app): app is NonNullable<typeof app> => app !== undefined)
    const listed = new Set(apps.map((app) => app.pid))
    return apps
      .filter((app) => app.ppid === undefined || !listed.has(app.ppid))
      .slice(0, MAX_LISTED)
      .map(({ pid, name, inspectFuseOff }) => ({ pid, name, inspectFuseOff }))
  })
