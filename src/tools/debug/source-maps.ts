/**
 * Stack traces and console locations mapped through the app's own source maps, for the answers of
 * electron_errors and electron_console: `bundle.js:1:48213` becomes `src/render.ts:12:5 [bundle.js:1:48213]`,
 * the original position first, the bundle's kept. A map is found as the browser finds it: the bundle's last
 * `sourceMappingURL` comment (an inline `data:` URL, or a path beside the bundle), else `<bundle>.map`.
 *
 * Reads are bounded: only files inside the app's folder (symlinks resolved, before and after), regular files
 * only, at most MAX_BYTES each, read asynchronously; a map is parsed once per file version (path, size,
 * mtime) and kept in a small cache. Without an app folder (an attached app), or when anything is missing or
 * malformed, the text is left as it was.
 */
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping"
import { Effect } from "effect"
import { open, realpath } from "node:fs/promises"
import { dirname, isAbsolute, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"

/** The largest bundle or map read (bytes). */
export const MAX_BYTES = 16 * 1024 * 1024
const CACHE_SIZE = 16
/** Frames mapped in one answer at most (each a map lookup). */
const MAX_FRAMES = 200

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/** A regular file inside `root` (real paths), at most MAX_BYTES: its text and version; undefined otherwise. */
const readBounded = async (root: string, path: string): Promise<{ readonly real: string; readonly text: string; readonly version: string } | undefined> => {
  const real = await realpath(path).catch(() => undefined)
  if (real === undefined || !inside(root, real)) return undefined
  const handle = await open(real, "r").catch(() => undefined)
  if (handle === undefined) return undefined
  try {
    const stat = await handle.stat()
    if (!stat.isFile() || stat.size > MAX_BYTES) return undefined
    const text = await handle.readFile("utf8")
    return { real, text, version: `${stat.size}:${stat.mtimeMs}` }
  } finally {
    await handle.close().catch(() => undefined)
  }
}

interface Loaded {
  readonly version: string
  /** undefined: the bundle has no usable map. */
  readonly map: TraceMap | undefined
  readonly mapDir: string
}

const cache = new Map<string, Loaded>()

const remember = (key: string, loaded: Loaded) => {
  cache.delete(key)
  cache.set(key, loaded)
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
  return loaded
}

const SOURCE_MAPPING_URL = /[#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/

/** The bundle's map: inline, by its comment's path, or beside it; undefined when it has none. */
const loadMap = async (root: string, bundle: string): Promise<Loaded | undefined> => {
  const file = await readBounded(root, bundle)
  if (file === undefined) return undefined
  const known = cache.get(file.real)
  if (known !== undefined && known.version === file.version) return known
  const trimmed = file.text.trimEnd()
  const tail = trimmed.slice(trimmed.lastIndexOf("\n") + 1)
  const url = SOURCE_MAPPING_URL.exec(tail)?.[1]
  let json: string | undefined
  let mapDir = dirname(file.real)
  if (url !== undefined && url.startsWith("data:")) {
    const comma = url.indexOf(",")
    const meta = url.slice(5, comma)
    const data = url.slice(comma + 1)
    json = comma < 0 ? undefined : meta.endsWith(";base64") ? Buffer.from(data, "base64").toString("utf8") : decodeURIComponent(data)
  } else {
    const target =
      url === undefined
        ? `${file.real}.map`
        : url.startsWith("file:")
          ? fileURLToPath(url)
          : /^[a-z]+:/i.test(url)
            ? undefined
            : resolve(mapDir, decodeURIComponent(url))
    const map = target === undefined ? undefined : await readBounded(root, target)
    if (map !== undefined) {
      json = map.text
      mapDir = dirname(map.real)
    }
  }
  let trace: TraceMap | undefined
  try {
    trace = json === undefined ? undefined : new TraceMap(json)
  } catch {
    trace = undefined
  }
  return remember(file.real, { version: file.version, map: trace, mapDir })
}

/** The bundle a frame names: a file: URL or an absolute path (http and app-scheme URLs are not read). */
const fileOf = (location: string): string | undefined => {
  if (location.startsWith("file://")) {
    try {
      return fileURLToPath(location.replace(/[?#].*$/, ""))
    } catch {
      return undefined
    }
  }
  return isAbsolute(location) ? location : undefined
}

/**
 * Where a stack frame or location points: `file:///a/b.js:1:2`, `/a/b.js:1:2`, or `(…)` around it. The texts are the
 * app's (a console message, an error's message): a position starts a word (after a space or `(`), so a long run of
 * `/` without one is scanned once, not once from every `/` in it (which made a 200 KB message take minutes).
 */
const POSITION = /(?<![^\s(])((?:file:\/\/|\/)[^\s():]+(?::[^\s():]+)*?):(\d+)(?::(\d+))?/g

/** The first `max` positions in `text`, found without scanning past them. */
const positionsIn = (text: string, max: number): Array<RegExpExecArray> => {
  const found: Array<RegExpExecArray> = []
  for (const match of text.matchAll(POSITION)) {
    found.push(match)
    if (found.length === max) break
  }
  return found
}

export interface Mapper {
  /** `text` with every position inside the app folder that has a map shown as `original [bundle position]`. */
  readonly map: (text: string) => Promise<string>
}

/** A mapper for an app whose folder is `appDir` (undefined: nothing is read, texts are unchanged). */
export const makeMapper = async (appDir: string | undefined): Promise<Mapper> => {
  const root = appDir === undefined ? undefined : await realpath(appDir).catch(() => undefined)
  if (root === undefined) return { map: async (text) => text }
  const shown = (bundle: string) => {
    const rel = relative(root, bundle)
    return rel.startsWith("..") ? bundle : rel
  }
  const original = async (location: string, line: number, column: number | undefined): Promise<string | undefined> => {
    const bundle = fileOf(location)
    if (bundle === undefined) return undefined
    const loaded = await loadMap(root, bundle)
    if (loaded?.map === undefined) return undefined
    const pos = originalPositionFor(loaded.map, { line, column: Math.max(0, (column ?? 1) - 1) })
    if (pos.source === null || pos.line === null) return undefined
    const source = pos.source.startsWith("file://") ? fileURLToPath(pos.source) : resolve(loaded.mapDir, pos.source)
    const name = shown(source)
    return `${name}:${pos.line}${pos.column !== null ? `:${pos.column + 1}` : ""}`
  }
  return {
    map: async (text) => {
      const found = positionsIn(text, MAX_FRAMES)
      if (found.length === 0) return text
      const mapped = await Promise.all(found.map((m) => original(m[1]!, Number(m[2]), m[3] === undefined ? undefined : Number(m[3])).catch(() => undefined)))
      let out = ""
      let at = 0
      found.forEach((m, i) => {
        const to = mapped[i]
        if (to === undefined) return
        const bundle = fileOf(m[1]!)
        out += `${text.slice(at, m.index)}${to} [${bundle === undefined ? m[1] : shown(bundle)}:${m[2]}${m[3] !== undefined ? `:${m[3]}` : ""}]`
        at = m.index! + m[0].length
      })
      return out + text.slice(at)
    }
  }
}

/** The folder of a launched app: its folder, or its main script's (undefined for an attached app). */
export const appFolderOf = (launch: { readonly app?: string | undefined; readonly cwd?: string | undefined } | undefined): string | undefined => {
  if (launch?.app === undefined) return undefined
  const app = resolve(launch.cwd ?? process.cwd(), launch.app)
  return /\.[cm]?js$/i.test(app) ? dirname(app) : app
}

/** The mapper of a session's app, for a handler. */
export const mapperFor = (launch: Parameters<typeof appFolderOf>[0]): Effect.Effect<Mapper> => Effect.promise(() => makeMapper(appFolderOf(launch)))
