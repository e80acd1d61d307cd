/**
 * The child playwright-core spawns for a launch, known from the moment it exists: `_electron.launch`
 * gives its process only once the launch has resolved, and a launch still pending (an app slow to start,
 * a cancelled call, a client gone, the server stopping) must still end it at once. `node:child_process`'s
 * `spawn` (which playwright-core reads from the module at each call) is wrapped once; a launch puts a
 * token of its own in the child's environment (LAUNCH_TOKEN) and its watcher gets the child spawned with
 * it: two sessions launching the same app at once each know their own.
 */
import childProcess, { type ChildProcess } from "node:child_process"

/** The environment variable a launch's token travels in (the app inherits the server's environment anyway). */
export const LAUNCH_TOKEN = "STAGEWRIGHT_LAUNCH_TOKEN"

type Watcher = { readonly token: string; readonly onChild: (child: ChildProcess) => void }

const watchers = new Set<Watcher>()
let installed = false

const install = () => {
  if (installed) return
  installed = true
  const original = childProcess.spawn
  const wrapped = function (this: unknown, ...args: Parameters<typeof original>) {
    const child = (original as (...a: Array<unknown>) => ChildProcess).apply(this, args)
    const options = args.find((a): a is { env?: Record<string, string | undefined> } => typeof a === "object" && a !== null && !Array.isArray(a))
    const token = options?.env?.[LAUNCH_TOKEN]
    if (token !== undefined) for (const w of watchers) if (w.token === token) w.onChild(child)
    return child
  }
  childProcess.spawn = wrapped as typeof original
}

/** Calls `onChild` for each process spawned with `token` in its environment until the returned function is called. */
export const watchSpawns = (token: string, onChild: (child: ChildProcess) => void): (() => void) => {
  install()
  const watcher: Watcher = { token, onChild }
  watchers.add(watcher)
  return () => {
    watchers.delete(watcher)
  }
}
