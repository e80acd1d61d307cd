/**
 * Whether the binary a launch would run is an Electron build whose EnableNodeCliInspectArguments fuse is
 * off. Such a build ignores --inspect, so playwright-core's `_electron.launch` (which waits for Node's
 * "Debugger listening" line) would hang on it: the driver launches it over CDP instead (cdp-launch.ts).
 *
 * The wire is read with @electron/fuses' getCurrentFuseWire (it reads the whole binary, or on macOS the
 * Electron Framework the .app holds), once per file version: the answer is cached by path, size and mtime.
 * A binary without a wire (the stand-in's script, a pre-12 Electron, anything unreadable) launches as today.
 */
import { Effect } from "effect"
import { stat } from "node:fs/promises"
import { dynamicImport } from "../../dynamic-import.js"

/** '0' in the wire: the fuse is off (Electron's FuseState.DISABLE). */
const DISABLED = 0x30

const cache = new Map<string, boolean>()

const readInspectFuseOff = async (executablePath: string): Promise<boolean> => {
  const info = await stat(executablePath)
  const key = `${executablePath}\u0000${info.size}\u0000${info.mtimeMs}`
  const known = cache.get(key)
  if (known !== undefined) return known
  const fuses = await dynamicImport<typeof import("@electron/fuses")>("@electron/fuses")
  const wire = (await fuses.getCurrentFuseWire(executablePath)) as unknown as Record<number, unknown>
  const off = wire[fuses.FuseV1Options.EnableNodeCliInspectArguments] === DISABLED
  if (cache.size > 32) cache.clear()
  cache.set(key, off)
  return off
}

/** True when `executablePath` carries a fuse wire with EnableNodeCliInspectArguments off; false otherwise (never fails). */
export const inspectFuseOff = (executablePath: string): Effect.Effect<boolean> =>
  Effect.tryPromise(() => readInspectFuseOff(executablePath)).pipe(Effect.orElseSucceed(() => false))

/** Why a session launched this way has no main process (NEEDS_MAIN_PROCESS carries it). */
export const OVER_CDP_REASON = "inspect fuse off: launched over CDP"
