/**
 * A bounded inventory of the native addons (`.node` files) in an app folder and its node_modules, and
 * the Node ABI each one was built for:
 * - an addon that exports `napi_register_module_v1` (or registers through `napi_module_register`) uses
 *   N-API, which is ABI-stable: it loads in any Node or Electron;
 * - otherwise `node_register_module_v<N>` in its bytes names the NODE_MODULE_VERSION it was built for;
 * - else a prebuild's name may say it (`node.abi115.node`, `electron.abi128.node`, `node-v115-linux-x64/`,
 *   `node.napi.node`, `napi-v6/`).
 * The walk is breadth first, follows symlinks by their real path (each folder once, so links cannot
 * loop), and stops at a depth, an entry count and an addon count; the inventory says when a limit cut it.
 */
import { Effect } from "effect"
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"

export interface InventoryLimits {
  /** Folder levels below the root that are read. */
  readonly maxDepth: number
  /** Directory entries looked at, in all. */
  readonly maxEntries: number
  /** Addons recorded. */
  readonly maxAddons: number
  /** Bytes of one addon searched for its registration symbol (head and tail of a larger file). */
  readonly maxScanBytes: number
  /** Bytes searched in all addons together; later addons are listed with their ABI unread. */
  readonly maxTotalScanBytes: number
}

export const DEFAULT_LIMITS: InventoryLimits = {
  maxDepth: 12,
  maxEntries: 50_000,
  maxAddons: 200,
  maxScanBytes: 8 * 1024 * 1024,
  maxTotalScanBytes: 256 * 1024 * 1024
}

export type AddonAbi =
  | { readonly kind: "napi"; readonly evidence: string }
  | { readonly kind: "node"; readonly modules: number; readonly evidence: string }
  | { readonly kind: "unknown"; readonly evidence: string }

export interface NativeAddon {
  /** The addon's real path. */
  readonly path: string
  /** Its path relative to the inventory's root (the real path when it lies outside). */
  readonly shown: string
  readonly abi: AddonAbi
  /** A prebuild for another platform or architecture (prebuilds/<platform>-<arch>/): never loaded here. */
  readonly otherTarget?: string | undefined
}

export interface AddonInventory {
  readonly root: string
  readonly addons: ReadonlyArray<NativeAddon>
  readonly entries: number
  /** Why the walk stopped early, one reason per limit reached (empty: the walk was complete). */
  readonly cut: ReadonlyArray<string>
}

const NAPI_SYMBOLS = ["napi_register_module_v1", "napi_module_register"].map((s) => Buffer.from(s, "latin1"))
const NODE_SYMBOL = Buffer.from("node_register_module_v", "latin1")

/** The bytes of `file` searched for symbols: all of it, or its first and last halves of `maxBytes`. */
const scanBytes = (file: string, maxBytes: number): { readonly bytes: Buffer; readonly partial: boolean } => {
  const size = statSync(file).size
  const fd = openSync(file, "r")
  try {
    const read = (length: number, position: number) => {
      const buffer = Buffer.alloc(length)
      const got = readSync(fd, buffer, 0, length, position)
      return buffer.subarray(0, got)
    }
    if (size <= maxBytes) return { bytes: read(size, 0), partial: false }
    const half = Math.floor(maxBytes / 2)
    return { bytes: Buffer.concat([read(half, 0), Buffer.from([0]), read(half, size - half)]), partial: true }
  } finally {
    closeSync(fd)
  }
}

/** The ABI a prebuild's file or folder name states, if any. */
export const abiFromName = (path: string): AddonAbi | undefined => {
  const name = path.split(sep).slice(-3).join("/")
  if (/(^|[/.])(node|electron)\.napi(\.|$)|(^|\/)napi-v\d+(\/|$)/.test(name)) return { kind: "napi", evidence: "prebuild name (napi)" }
  const abi = /(?:^|[/.])(?:node|electron)\.abi(\d+)(?:\.|$)/.exec(name) ?? /(?:^|\/)node-v(\d+)-[a-z0-9]+-[a-z0-9]+(?:\/|$)/.exec(name)
  return abi ? { kind: "node", modules: Number(abi[1]), evidence: `prebuild name (${abi[0].replace(/^[/.]/, "")})` } : undefined
}

/** Reads an addon's registration symbol (bounded) and, failing that, its prebuild name. */
export const addonAbi = (file: string, maxScanBytes = DEFAULT_LIMITS.maxScanBytes): AddonAbi => {
  let scanned: { readonly bytes: Buffer; readonly partial: boolean }
  try {
    scanned = scanBytes(file, maxScanBytes)
  } catch (error) {
    return abiFromName(file) ?? { kind: "unknown", evidence: `unreadable: ${(error as Error).message}` }
  }
  const { bytes, partial } = scanned
  const napi = NAPI_SYMBOLS.find((symbol) => bytes.includes(symbol))
  if (napi !== undefined) return { kind: "napi", evidence: napi.toString("latin1") }
  for (let at = bytes.indexOf(NODE_SYMBOL); at !== -1; at = bytes.indexOf(NODE_SYMBOL, at + 1)) {
    const digits = /^\d{1,4}/.exec(bytes.subarray(at + NODE_SYMBOL.length, at + NODE_SYMBOL.length + 4).toString("latin1"))?.[0]
    if (digits !== undefined) return { kind: "node", modules: Number(digits), evidence: `node_register_module_v${digits}` }
  }
  return (
    abiFromName(file) ?? {
      kind: "unknown",
      evidence: `no registration symbol${partial ? ` in the ${maxScanBytes} bytes searched` : ""} (an addon registered by a static constructor names no ABI)`
    }
  )
}

const PLATFORMS = /^(aix|android|darwin|freebsd|linux|linuxmusl|openbsd|sunos|win32)-([a-z0-9]+)/

/** `prebuilds/<platform>-<arch>/`, when it is not this machine's. */
const otherTargetOf = (path: string): string | undefined => {
  const parts = path.split(sep)
  const at = parts.lastIndexOf("prebuilds")
  const target = at === -1 ? undefined : PLATFORMS.exec(parts[at + 1] ?? "")
  if (target === undefined || target === null) return undefined
  const platform = target[1] === "linuxmusl" ? "linux" : target[1]
  return platform !== process.platform || target[2] !== process.arch ? `${target[1]}-${target[2]}` : undefined
}

const sizeOf = (path: string): number => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

const realOf = (path: string): string | undefined => {
  try {
    return realpathSync(path)
  } catch {
    return undefined
  }
}

/** Walks `root` (breadth first, within `limits`) for `.node` files and reads each one's ABI. */
export const inventoryAddons = (root: string, limits: Partial<InventoryLimits> = {}): Effect.Effect<AddonInventory> =>
  Effect.sync(() => {
    const { maxDepth, maxEntries, maxAddons, maxScanBytes, maxTotalScanBytes } = { ...DEFAULT_LIMITS, ...limits }
    let scanBudget = maxTotalScanBytes
    const start = realOf(root) ?? root
    const seenDirs = new Set<string>([start])
    const seenFiles = new Set<string>()
    const addons: Array<NativeAddon> = []
    const cut = new Set<string>()
    let entries = 0
    let stopped = false
    let queue: Array<string> = [start]
    for (let depth = 0; queue.length > 0; depth++) {
      const next: Array<string> = []
      for (const dir of queue) {
        let names: ReadonlyArray<import("node:fs").Dirent>
        try {
          names = readdirSync(dir, { withFileTypes: true })
        } catch {
          continue
        }
        for (const entry of names) {
          if (entries >= maxEntries) {
            cut.add(`stopped after ${maxEntries} directory entries (limit)`)
            stopped = true
            break
          }
          entries++
          if (entry.name === ".git") continue
          const path = join(dir, entry.name)
          let isDir = entry.isDirectory()
          let isFile = entry.isFile()
          if (entry.isSymbolicLink()) {
            try {
              const target = statSync(path)
              isDir = target.isDirectory()
              isFile = target.isFile()
            } catch {
              continue // a dangling link
            }
          }
          const real = isDir || isFile ? realOf(path) : undefined
          if (real === undefined) continue
          if (isDir) {
            if (seenDirs.has(real)) continue // a link back up (a loop) or to a folder already queued
            if (depth + 1 > maxDepth) {
              cut.add(`folders deeper than ${maxDepth} levels were not read (limit)`)
              continue
            }
            seenDirs.add(real)
            next.push(real)
          } else if (entry.name.endsWith(".node") && !seenFiles.has(real)) {
            if (addons.length >= maxAddons) {
              cut.add(`stopped recording after ${maxAddons} addons (limit)`)
              continue
            }
            seenFiles.add(real)
            const rel = relative(start, real)
            let abi: AddonAbi
            if (scanBudget > 0) {
              abi = addonAbi(real, Math.min(maxScanBytes, scanBudget))
              scanBudget -= Math.min(maxScanBytes, sizeOf(real))
            } else {
              cut.add(`ABIs past ${maxTotalScanBytes} bytes of addons searched were read from names only (limit)`)
              abi = abiFromName(real) ?? { kind: "unknown", evidence: "not searched (limit)" }
            }
            addons.push({ path: real, shown: rel.startsWith("..") ? real : rel, abi, otherTarget: otherTargetOf(real) })
          }
        }
        if (stopped) break
      }
      queue = stopped ? [] : next
    }
    return { root: start, addons, entries, cut: [...cut] }
  })

export interface AbiMismatch {
  readonly addon: NativeAddon
  readonly found: number
  readonly expected: number
}

/**
 * Addons that would not load in a binary of NODE_MODULE_VERSION `expected`. A prebuild for another
 * platform, and a prebuild beside one that fits (a package ships one per runtime and picks), do not count.
 */
export const abiMismatches = (addons: ReadonlyArray<NativeAddon>, expected: number): ReadonlyArray<AbiMismatch> => {
  const fits = (addon: NativeAddon) => addon.abi.kind === "napi" || (addon.abi.kind === "node" && addon.abi.modules === expected)
  const foldersWithAFit = new Set(addons.filter((a) => a.otherTarget === undefined && fits(a)).map((a) => dirname(a.path)))
  return addons.flatMap((addon) =>
    addon.abi.kind === "node" && addon.abi.modules !== expected && addon.otherTarget === undefined && !foldersWithAFit.has(dirname(addon.path))
      ? [{ addon, found: addon.abi.modules, expected }]
      : []
  )
}

/** One line per ABI kind: `3 N-API, 1 ABI 115, 1 unknown`. */
export const summarizeAddons = (addons: ReadonlyArray<NativeAddon>): string => {
  const counts = new Map<string, number>()
  for (const addon of addons) {
    const key = addon.abi.kind === "napi" ? "N-API" : addon.abi.kind === "node" ? `ABI ${addon.abi.modules}` : "ABI unknown"
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, n]) => `${n} ${key}`).join(", ")
}
