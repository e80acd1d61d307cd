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

/** The fuse wire of a file by fuse index ('0'/'1' bytes), or null when it carries none; cached by path, size and mtime. */
type Wire = Readonly<Record<number, unknown>> | null

const cache = new Map<string, Wire>()

const readWire = async (executablePath: string): Promise<Wire> => {
  const info = await stat(executablePath)
  const key = `${executablePath}\u0000${info.size}\u0000${info.mtimeMs}`
  const known = cache.get(key)
  if (known !== undefined) return known
  const fuses = await dynamicImport<typeof import("@electron/fuses")>("@electron/fuses")
  const wire = await fuses.getCurrentFuseWire(executablePath).then(
    (read) => read as unknown as Record<number, unknown>,
    () => null
  )
  if (cache.size > 32) cache.clear()
  cache.set(key, wire)
  return wire
}

/** The fuse wire `executablePath` carries (undefined: none, or the file cannot be read); never fails. */
export const fuseWireOf = (executablePath: string): Effect.Effect<Wire | undefined> =>
  Effect.tryPromise(() => readWire(executablePath)).pipe(
    Effect.map((wire) => wire ?? undefined),
    Effect.orElseSucceed(() => undefined)
  )

/** Whether a wire has EnableNodeCliInspectArguments off. */
export const wireInspectOff = (wire: Wire | undefined): boolean => wire != null && wire[INSPECT_FUSE] === DISABLED

/** EnableNodeCliInspectArguments' index in the wire (FuseV1Options.EnableNodeCliInspectArguments). */
const INSPECT_FUSE = 3

/** True when `executablePath` carries a fuse wire with EnableNodeCliInspectArguments off; false otherwise (never fails). */
export const inspectFuseOff = (executablePath: string): Effect.Effect<boolean> => Effect.map(fuseWireOf(executablePath), wireInspectOff)

/** Why a session launched this way has no main process (NEEDS_MAIN_PROCESS carries it). */
export const OVER_CDP_REASON = "inspect fuse off: launched over CDP"

/** Electron's fuse wire sentinel (@electron/fuses' SENTINEL). */
const SENTINEL = Buffer.from("dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX", "latin1")
const carries = new Map<string, boolean>()

const scanForWire = async (path: string): Promise<boolean> => {
  const info = await stat(path)
  const key = `${path}\u0000${info.size}\u0000${info.mtimeMs}`
  const known = carries.get(key)
  if (known !== undefined) return known
  const { open } = await import("node:fs/promises")
  const handle = await open(path, "r")
  let found = false
  try {
    const chunk = Buffer.alloc(1024 * 1024 + SENTINEL.length)
    let carry = 0
    for (let position = 0; position < info.size && !found; ) {
      const { bytesRead } = await handle.read(chunk, carry, chunk.length - carry, position)
      if (bytesRead === 0) break
      position += bytesRead
      const filled = carry + bytesRead
      found = chunk.subarray(0, filled).includes(SENTINEL)
      carry = Math.min(SENTINEL.length - 1, filled)
      chunk.copy(chunk, 0, filled - carry, filled)
    }
  } finally {
    await handle.close()
  }
  if (carries.size > 256) carries.clear()
  carries.set(key, found)
  return found
}

/**
 * Whether a file carries Electron's fuse wire, read in 1 MiB pieces up to the sentinel (for listing running
 * apps: no whole binary in memory); cached by path, size and mtime. False when it cannot be read.
 */
export const carriesFuseWire = (path: string): Effect.Effect<boolean> => Effect.tryPromise(() => scanForWire(path)).pipe(Effect.orElseSucceed(() => false))
