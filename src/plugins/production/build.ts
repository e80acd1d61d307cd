/**
 * The outside tier: find a packaged build under a project folder (electron-builder and Forge layouts for
 * Linux, macOS and Windows), read its fuses with @electron/fuses and check its asar with @electron/asar.
 * Plain Node functions (they read files only); the tools wrap them in Effects.
 */
import { dynamicImport } from "../../dynamic-import.js"
import { createHash } from "node:crypto"
import { readRegularFile } from "../../layers/config/read-file.js"
import { realPathOf, specialFile } from "../../layers/config/paths.js"
import { existsSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs"
import { basename, dirname, join, relative, resolve } from "node:path"
import type { BuildFacts, FuseState } from "./checklist.js"

export type Platform = "linux" | "windows" | "macos"

export interface BuildInfo {
  /** The build folder (the `.app` bundle on macOS). */
  readonly path: string
  readonly platform: Platform
  /** electron-builder, forge, or plain (a folder holding resources/app.asar). */
  readonly layout: "electron-builder" | "forge" | "plain"
  /** The app's executable, when one was found. */
  readonly executable: string | undefined
  /** resources/app.asar, when the build has one. */
  readonly asar: string | undefined
  /** The folder whose resources hold the app (Contents on macOS). */
  readonly resources: string
  readonly modified: Date
}

/** Where builds usually land, under a project folder. */
export const OUTPUT_FOLDERS = ["out", "dist", "release"] as const

const HELPERS = /^(chrome-sandbox|chrome_crashpad_handler|crashpad_handler|uninstall.*|squirrel|update|elevate|notification_helper)(\.exe)?$/i

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

const isDir = (path: string) => statOf(path)?.isDirectory() === true

const list = (dir: string): ReadonlyArray<string> => {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

/** A string value of an XML Info.plist key (binary plists are not read). */
export const plistString = (plist: string, key: string): string | undefined => new RegExp(`<key>${key}</key>\\s*<string>([^<]*)</string>`).exec(plist)?.[1]

const layoutOf = (folder: string): BuildInfo["layout"] => {
  const name = basename(folder)
  const parent = basename(dirname(folder))
  const owner = name.endsWith(".app") ? parent : name
  if (/-unpacked$|^mac(-arm64|-universal|-x64)?$/.test(owner)) return "electron-builder"
  if (/-(darwin|mas|linux|win32)-(x64|arm64|ia32|armv7l|universal)$/.test(owner)) return "forge"
  return "plain"
}

/** The build at `folder`, if `folder` is one (a `.app` bundle, or a folder with resources/app.asar or resources/app). */
export const buildAt = (folder: string): BuildInfo | undefined => {
  const path = resolve(folder)
  if (path.endsWith(".app") && isDir(join(path, "Contents", "Resources"))) {
    const contents = join(path, "Contents")
    const read = readRegularFile(join(contents, "Info.plist"))
    const plist = typeof read === "string" ? read : ""
    const named = plistString(plist, "CFBundleExecutable")
    const macos = join(contents, "MacOS")
    const executable = named !== undefined && existsSync(join(macos, named)) ? join(macos, named) : list(macos).map((f) => join(macos, f))[0]
    const asar = join(contents, "Resources", "app.asar")
    return {
      path,
      platform: "macos",
      layout: layoutOf(path),
      executable,
      asar: existsSync(asar) ? asar : undefined,
      resources: contents,
      modified: (statOf(asar) ?? statOf(path))!.mtime
    }
  }
  const asar = join(path, "resources", "app.asar")
  const hasAsar = existsSync(asar)
  if (!hasAsar && !isDir(join(path, "resources", "app"))) return undefined
  const files = list(path).filter((f) => statOf(join(path, f))?.isFile() === true)
  const exes = files.filter((f) => f.toLowerCase().endsWith(".exe") && !HELPERS.test(f))
  const platform: Platform = exes.length > 0 ? "windows" : "linux"
  const linuxExecutables = files.filter(
    (f) => !HELPERS.test(f) && !/\.(so(\..*)?|pak|bin|dat|json|txt|html|dll)$/i.test(f) && ((statOf(join(path, f))?.mode ?? 0) & 0o111) !== 0
  )
  const candidates = platform === "windows" ? exes : linuxExecutables
  const executable = candidates.find((f) => f.toLowerCase().replace(/\.exe$/, "") !== "electron") ?? candidates[0]
  return {
    path,
    platform,
    layout: layoutOf(path),
    executable: executable !== undefined ? join(path, executable) : undefined,
    asar: hasAsar ? asar : undefined,
    resources: path,
    modified: (statOf(asar) ?? statOf(path))!.mtime
  }
}

/** Every build under `root` (the root itself, or its out/, dist/, release/ up to three levels deep), newest first. */
export const findBuilds = (root: string): ReadonlyArray<BuildInfo> => {
  const self = buildAt(root)
  if (self) return [self]
  const found: Array<BuildInfo> = []
  const walk = (dir: string, depth: number) => {
    for (const name of list(dir)) {
      const child = join(dir, name)
      if (!isDir(child) || name === "node_modules" || name.startsWith(".")) continue
      const build = buildAt(child)
      if (build) found.push(build)
      else if (depth > 0 && !name.endsWith(".app")) walk(child, depth - 1)
    }
  }
  for (const folder of OUTPUT_FOLDERS) if (isDir(join(root, folder))) walk(join(root, folder), 3)
  return found.sort((a, b) => b.modified.getTime() - a.modified.getTime())
}

export const describeBuild = (build: BuildInfo, root?: string) => {
  const shown = (p: string | undefined) => (p === undefined ? "none" : root ? relative(root, p) || "." : p)
  return `${shown(build.path)} (${build.platform}, ${build.layout}, built ${build.modified.toISOString()}) executable: ${shown(build.executable)}, asar: ${shown(build.asar)}`
}

const FUSE_NAMES = [
  "RunAsNode",
  "EnableCookieEncryption",
  "EnableNodeOptionsEnvironmentVariable",
  "EnableNodeCliInspectArguments",
  "EnableEmbeddedAsarIntegrityValidation",
  "OnlyLoadAppFromAsar",
  "LoadBrowserProcessSpecificV8Snapshot",
  "GrantFileProtocolExtraPrivileges",
  "WasmTrapHandlers"
]

const stateOf = (byte: unknown): FuseState => (byte === 49 ? "enabled" : byte === 48 ? "disabled" : byte === 114 ? "removed" : "unknown")

/** The fuse wire of a build, by fuse name, read with @electron/fuses' getCurrentFuseWire. */
export const readFuses = async (build: BuildInfo): Promise<{ wire: Record<string, FuseState> } | { error: string }> => {
  // On macOS the fuses live in the Electron Framework, which @electron/fuses finds from the .app path.
  const target = build.platform === "macos" ? build.path : build.executable
  if (target === undefined) return { error: "the build has no executable to read fuses from" }
  return fuseWireOf(target)
}

/** The fuse wire of an Electron executable (or a macOS .app bundle), by fuse name. */
export const fuseWireOf = async (target: string): Promise<{ wire: Record<string, FuseState> } | { error: string }> => {
  try {
    const fuses = await dynamicImport<typeof import("@electron/fuses")>("@electron/fuses")
    const config = (await fuses.getCurrentFuseWire(target)) as unknown as Record<string, unknown>
    const wire: Record<string, FuseState> = {}
    for (const [key, value] of Object.entries(config)) {
      if (!/^\d+$/.test(key)) continue
      const index = Number(key)
      wire[(fuses.FuseV1Options as unknown as Record<number, string>)[index] ?? FUSE_NAMES[index] ?? `fuse${index}`] = stateOf(value)
    }
    return { wire }
  } catch (error) {
    return { error: `no fuse wire could be read from ${target}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

export interface AsarCheck {
  readonly path: string
  readonly files: ReadonlyArray<{ readonly path: string; readonly size: number; readonly unpacked: boolean }>
  readonly corrupt: ReadonlyArray<string>
  readonly withoutIntegrity: number
  readonly headerHash: string
  readonly headerIntegrity: NonNullable<Exclude<BuildFacts["asar"], { error: string }>>["headerIntegrity"]
}

interface HeaderNode {
  readonly files?: Record<string, HeaderNode>
  readonly size?: number
  readonly unpacked?: boolean
  readonly link?: string
  readonly integrity?: { readonly algorithm: string; readonly hash: string; readonly blockSize: number; readonly blocks: ReadonlyArray<string> }
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex")

/** The header hash the build records for its app.asar (ElectronAsarIntegrity in Info.plist on macOS). */
const recordedHeaderHash = (build: BuildInfo): { hash: string } | { missing: true } | { reason: string } => {
  if (build.platform === "linux") return { reason: "Electron does not validate asar integrity on Linux, so Linux builds record no header hash" }
  if (build.platform === "windows") {
    return { reason: "on Windows (Electron 30 and later) the hash is an INTEGRITY resource inside the .exe, which Stagewright does not parse" }
  }
  const plistPath = join(build.resources, "Info.plist")
  if (!existsSync(plistPath)) return { missing: true }
  const text = readRegularFile(plistPath)
  if (typeof text !== "string") return { reason: text.reason }
  if (text.startsWith("bplist")) return { reason: "Info.plist is a binary plist, which Stagewright does not read" }
  const block = /<key>ElectronAsarIntegrity<\/key>\s*<dict>([\s\S]*?)<\/dict>\s*<\/dict>/.exec(text)?.[1]
  if (block === undefined) return { missing: true }
  const entry = /<key>Resources\/app\.asar<\/key>\s*<dict>([\s\S]*)/.exec(block)?.[1] ?? ""
  const hash = plistString(entry, "hash")
  return hash === undefined ? { missing: true } : { hash: hash.toLowerCase() }
}

/** Lists an asar and verifies each file against the integrity in its header, and the header against the build's record. */
export const checkAsar = async (build: BuildInfo, asarPath: string): Promise<AsarCheck> => {
  const asar = await dynamicImport<typeof import("@electron/asar")>("@electron/asar")
  const raw = asar.getRawHeader(asarPath)
  const files: Array<AsarCheck["files"][number]> = []
  const corrupt: Array<string> = []
  let withoutIntegrity = 0
  const walk = (node: HeaderNode, prefix: string) => {
    for (const [name, child] of Object.entries(node.files ?? {})) {
      const path = prefix === "" ? name : `${prefix}/${name}`
      if (child.files !== undefined) {
        walk(child, path)
        continue
      }
      if (child.link !== undefined) continue
      files.push({ path, size: child.size ?? 0, unpacked: child.unpacked === true })
      if (child.integrity === undefined) {
        withoutIntegrity++
        continue
      }
      const unpacked = join(`${asarPath}.unpacked`, path)
      // An unpacked file is read only when it is a regular file (a FIFO there would stall the server).
      if (child.unpacked && specialFile(realPathOf(unpacked)) !== undefined) {
        corrupt.push(path)
        continue
      }
      const content = child.unpacked ? readFileSync(unpacked) : asar.extractFile(asarPath, path)
      const blockSize = child.integrity.blockSize
      const blocks: Array<string> = []
      // @electron/asar hashes floor(size / blockSize) + 1 blocks (the last one may be empty).
      for (let i = 0; i <= Math.floor(content.length / blockSize); i++) blocks.push(sha256(content.subarray(i * blockSize, (i + 1) * blockSize)))
      if (sha256(content) !== child.integrity.hash || blocks.join() !== child.integrity.blocks.join()) corrupt.push(path)
    }
  }
  walk(raw.header as HeaderNode, "")
  asar.uncache(asarPath)
  const headerHash = sha256(raw.headerString)
  const recorded = recordedHeaderHash(build)
  const headerIntegrity =
    "hash" in recorded
      ? { status: recorded.hash === headerHash ? ("match" as const) : ("mismatch" as const) }
      : "missing" in recorded
        ? { status: "missing" as const }
        : { status: "unchecked" as const, reason: recorded.reason }
  return { path: asarPath, files, corrupt, withoutIntegrity, headerHash, headerIntegrity }
}

/** The outside tier's facts for the report. */
export const buildFacts = async (build: BuildInfo): Promise<BuildFacts> => {
  const fuses = await readFuses(build)
  const asar =
    build.asar === undefined
      ? undefined
      : await checkAsar(build, build.asar).then(
          (c) => ({ path: c.path, files: c.files.length, corrupt: c.corrupt, withoutIntegrity: c.withoutIntegrity, headerIntegrity: c.headerIntegrity }),
          (error: unknown) => ({ error: `app.asar could not be read: ${error instanceof Error ? error.message : String(error)}` })
        )
  return { path: build.path, platform: build.platform, fuses, asar }
}
