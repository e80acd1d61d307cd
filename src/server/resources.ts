/**
 * MCP resources: the files the server wrote into its output folders (over-long results, exported
 * tests, traces, screenshots, HARs, reports) and two documents (the tool reference that
 * `stagewright tools --json` prints, and the profiles). `resources/list` pages them newest first;
 * `resources/read` is confined to the output folders, symlinks resolved, and bounded in size. An
 * error names the URI and the reason, never a file's contents. `changed` tells, cheaply (by the
 * modification times of the folders), whether the listing changed since it was last asked.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { Data, Effect } from "effect"
import { readdirSync, statSync, type Stats } from "node:fs"
import { readFile } from "node:fs/promises"
import { basename, isAbsolute, join, relative, sep } from "node:path"
import { realPathOf } from "../layers/config/paths.js"
import { ServerConfig, type ServerConfigShape } from "../layers/config/ServerConfig.js"
import { LoadedPlugins, PluginLoader } from "../plugins/PluginLoader.js"
import { firstPartyPlugins } from "../plugins/registry.js"
import { DEFAULT_PROFILE, EVAL_TOOL_NAMES, PROFILE_NAMES, PROFILES } from "../profile/profiles.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"
import { documentationManifest } from "../tools/pipeline/manifest.js"
import { VERSION } from "../version.js"
import { ARTIFACT_ROOTS, artifactUri, docUri, parseResourceUri, type ArtifactRoot, type DocName } from "./resource-uri.js"
import { coreTools } from "./tools.js"
import { cut } from "../tools/contract/respond.js"

/** Entries of one resources/list page. */
export const RESOURCES_PAGE_SIZE = 50
/** The largest file resources/read returns. */
export const MAX_RESOURCE_BYTES = 20 * 1024 * 1024
/** Files considered by one listing, and folders walked for the change check: bounds on a crowded folder. */
const MAX_FILES = 5_000
const MAX_DIRS = 500
const MAX_DEPTH = 6

/** The artifacts Stagewright writes, by extension; nothing else in the folders is listed or read. */
const TYPES: ReadonlyArray<readonly [string, string, "text" | "blob"]> = [
  [".spec.ts", "text/x-typescript", "text"],
  [".txt", "text/plain", "text"],
  [".json", "application/json", "text"],
  [".har", "application/json", "text"],
  [".cpuprofile", "application/json", "text"],
  [".heapsnapshot", "application/json", "text"],
  [".svg", "image/svg+xml", "text"],
  [".png", "image/png", "blob"],
  [".zip", "application/zip", "blob"]
]
const typeOf = (name: string) => TYPES.find(([ext]) => name.toLowerCase().endsWith(ext))

export interface ListedResource {
  readonly uri: string
  readonly name: string
  readonly mimeType: string
  readonly size?: number
  readonly description?: string
  readonly annotations?: { readonly lastModified: string }
}

export type ResourceContents = { readonly uri: string; readonly mimeType: string } & ({ readonly text: string } | { readonly blob: string })

/** The URI cannot name a resource of this server: outside the output folders, malformed, or not an artifact. */
export class ResourceRefused extends Data.TaggedError("ResourceRefused")<{ readonly uri: string; readonly reason: string }> {
  override get message() {
    return `Refused ${shown(this.uri)}: ${this.reason}`
  }
}

export class ResourceNotFound extends Data.TaggedError("ResourceNotFound")<{ readonly uri: string }> {
  override get message() {
    return `No resource ${shown(this.uri)}: resources/list gives the files this server wrote`
  }
}

export class ResourceTooLarge extends Data.TaggedError("ResourceTooLarge")<{ readonly uri: string; readonly size: number }> {
  override get message() {
    return `${shown(this.uri)} is ${this.size} bytes, over the ${MAX_RESOURCE_BYTES} bytes (20 MiB) that resources/read returns; open it from the server's output folder`
  }
}

export type ResourceError = ResourceRefused | ResourceNotFound | ResourceTooLarge

const shown = (uri: string) => JSON.stringify(cut(uri, 200))

/** The JSON-RPC error of a refused read: invalid params, or MCP's -32002 for a resource that does not exist. */
/**
 * The JSON-RPC error of a refused read. Thrown as a plain Error with `code` and `data`: the SDK sends the
 * error's message as is, and an McpError's message already reads "MCP error -32602: …", which the client
 * prefixes again ("MCP error -32602: MCP error -32602: …").
 */
export const toMcpError = (error: ResourceError): Error & { readonly code: number; readonly data: { readonly uri: string } } =>
  Object.assign(new Error(error.message), { code: error._tag === "ResourceNotFound" ? -32002 : ErrorCode.InvalidParams, data: { uri: error.uri } })

export interface ResourcesShape {
  readonly list: (cursor: string | undefined) => Effect.Effect<{ resources: Array<ListedResource>; nextCursor?: string }, ResourceRefused>
  readonly read: (uri: string) => Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError>
  /** Whether the folders changed since the last time it was asked (or since the server started); asked after every call, so synchronous. */
  readonly changed: () => boolean
}

/** The folders resources are served from, by root name; screenshots only when --screenshot-dir is set. */
const rootDirs = (config: ServerConfigShape): ReadonlyArray<readonly [ArtifactRoot, string]> => {
  const dirs: Record<ArtifactRoot, string | undefined> = {
    output: config.outputDir,
    screenshots: config.screenshotDir,
    visual: config.visualDir ?? join(config.outputDir, "visual-baselines")
  }
  return ARTIFACT_ROOTS.flatMap((root) => (dirs[root] !== undefined ? [[root, dirs[root]] as const] : []))
}

const within = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)
}

const statOf = (path: string): Stats | undefined => {
  try {
    // A missing path answers undefined without an exception (made on every call's change check otherwise).
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

const entriesOf = (dir: string) => {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

interface FileEntry {
  readonly uri: string
  readonly name: string
  readonly mimeType: string
  readonly size: number
  readonly mtimeMs: number
}

/** Walks the real folders (symlinks and dot files skipped), files first found under the first root holding them. */
const walk = (config: ServerConfigShape, onDir: (dir: string) => void, onFile?: (root: ArtifactRoot, dir: string, rel: string, name: string) => void) => {
  const seen = new Set<string>()
  let dirs = 0
  let files = 0
  for (const [root, dir] of rootDirs(config)) {
    const real = realPathOf(dir)
    const stack: Array<readonly [string, string, number]> = [[real, "", 0]]
    while (stack.length > 0 && dirs < MAX_DIRS) {
      const [current, rel, depth] = stack.pop()!
      if (seen.has(current)) continue
      seen.add(current)
      dirs++
      onDir(current)
      for (const entry of entriesOf(current)) {
        if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue
        const path = join(current, entry.name)
        const relPath = rel === "" ? entry.name : `${rel}/${entry.name}`
        if (entry.isDirectory()) {
          if (depth < MAX_DEPTH) stack.push([path, relPath, depth + 1])
        } else if (onFile !== undefined && entry.isFile() && !seen.has(path) && files < MAX_FILES) {
          seen.add(path)
          files++
          onFile(root, path, relPath, entry.name)
        }
      }
    }
  }
}

const listFiles = (config: ServerConfigShape): Array<FileEntry> => {
  const files: Array<FileEntry> = []
  walk(
    config,
    () => undefined,
    (root, path, rel, name) => {
      const type = typeOf(name)
      const stats = type !== undefined ? statOf(path) : undefined
      if (type === undefined || stats === undefined) return
      files.push({ uri: artifactUri(root, rel), name, mimeType: type[1], size: stats.size, mtimeMs: stats.mtimeMs })
    }
  )
  // Newest first; the URI breaks ties, so the order (and a cursor into it) is total.
  return files.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))
}

/** The folders a walk saw (real paths) with their modification times ("absent" for a root not there). */
interface Signature {
  readonly dirs: ReadonlyArray<readonly [string, number | "absent"]>
  readonly text: string
}

const mtimeOf = (dir: string): number | "absent" => statOf(dir)?.mtimeMs ?? "absent"

/** The folders and their modification times: a file added, removed or renamed changes its folder's. */
const signature = (config: ServerConfigShape): Signature => {
  const dirs: Array<readonly [string, number | "absent"]> = []
  walk(config, (dir) => dirs.push([dir, mtimeOf(dir)]))
  return { dirs, text: dirs.map(([dir, at]) => `${dir}@${at}`).join("\n") }
}

/** Whether any folder of `seen` changed since (a folder added or removed under one changes that one's time). */
const anyMoved = (seen: Signature) => seen.dirs.some(([dir, at]) => mtimeOf(dir) !== at)

// A cursor is the position (mtime, uri) of the last entry given: files written since do not shift the pages.
const encodeCursor = (file: FileEntry) => Buffer.from(JSON.stringify([file.mtimeMs, file.uri])).toString("base64url")
const decodeCursor = (cursor: string): readonly [number, string] | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    return Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "string" ? [value[0], value[1]] : undefined
  } catch {
    return undefined
  }
}
const after =
  ([mtimeMs, uri]: readonly [number, string]) =>
  (file: FileEntry) =>
    file.mtimeMs < mtimeMs || (file.mtimeMs === mtimeMs && file.uri > uri)

const DOCS: ReadonlyArray<ListedResource & { readonly doc: DocName }> = [
  {
    doc: "tools",
    uri: docUri("tools"),
    name: "tools.json",
    mimeType: "application/json",
    description: "The tool reference (stagewright tools --json): every tool's description, type, profiles, plugin, error codes and input schema"
  },
  {
    doc: "profiles",
    uri: docUri("profiles"),
    name: "profiles.json",
    mimeType: "application/json",
    description: "The --tool-profile lists: the core tools each profile holds, the default and the active one"
  }
]

/** The resources of one server, over its configuration and loaded plugins. */
export const makeResources = Effect.gen(function* () {
  const config = yield* ServerConfig
  const loaded = yield* LoadedPlugins
  const selector = yield* ProfileSelector
  let last = signature(config)

  // The manifest `stagewright tools --json` prints (core, eval and every first-party plugin's tools),
  // with this server's own loaded plugins beside them. Built once, on first read.
  const toolsDoc = yield* Effect.cached(
    Effect.gen(function* () {
      const loader = yield* PluginLoader
      const firstParty = yield* loader.load(Object.keys(firstPartyPlugins)).pipe(
        Effect.map((l) => l.tools),
        Effect.orElseSucceed(() => [])
      )
      const names = new Set(firstParty.map((t) => t.name))
      const tools = [...coreTools, ...firstParty, ...loaded.tools.filter((t) => !names.has(t.name))]
      return JSON.stringify({ version: VERSION, tools: documentationManifest(tools) }, null, 2)
    }).pipe(Effect.provide(PluginLoader.layer))
  )

  const profilesDoc = () =>
    JSON.stringify(
      {
        version: VERSION,
        default: DEFAULT_PROFILE,
        // The selection now (electron_profile can switch it with --allow-profile-switch).
        active: selector.active === "custom" ? "custom tool list" : selector.active,
        note: "Eval tools (--allow-eval) and plugin tools (--plugin) compose with every profile.",
        evalTools: [...EVAL_TOOL_NAMES],
        profiles: Object.fromEntries(PROFILE_NAMES.map((name) => [name, { count: PROFILES[name].size, tools: [...PROFILES[name]].sort() }]))
      },
      null,
      2
    )

  const list = (cursor: string | undefined) =>
    Effect.gen(function* () {
      const position = cursor === undefined ? undefined : decodeCursor(cursor)
      if (cursor !== undefined && position === undefined) return yield* new ResourceRefused({ uri: cursor, reason: "not a cursor of resources/list" })
      const files = listFiles(config)
      const rest = position === undefined ? files : files.filter(after(position))
      const docs = position === undefined ? DOCS.map(({ doc: _doc, ...entry }) => entry) : []
      const page = rest.slice(0, RESOURCES_PAGE_SIZE - docs.length)
      const resources: Array<ListedResource> = [
        ...docs,
        ...page.map((f) => ({ uri: f.uri, name: f.name, mimeType: f.mimeType, size: f.size, annotations: { lastModified: new Date(f.mtimeMs).toISOString() } }))
      ]
      return rest.length > page.length ? { resources, nextCursor: encodeCursor(page[page.length - 1]!) } : { resources }
    })

  const readArtifact = (
    uri: string,
    root: ArtifactRoot,
    segments: ReadonlyArray<string>
  ): Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError> =>
    Effect.gen(function* () {
      const dir = rootDirs(config).find(([name]) => name === root)?.[1]
      if (dir === undefined) return yield* new ResourceNotFound({ uri })
      const realRoot = realPathOf(dir)
      const real = realPathOf(join(dir, ...segments))
      if (!within(realRoot, real)) return yield* new ResourceRefused({ uri, reason: "it resolves outside the server's output folders" })
      if (
        relative(realRoot, real)
          .split(sep)
          .some((part) => part.startsWith("."))
      ) {
        return yield* new ResourceRefused({ uri, reason: "hidden files are not served" })
      }
      const type = typeOf(basename(real))
      if (type === undefined)
        return yield* new ResourceRefused({ uri, reason: `only the artifacts Stagewright writes are served (${TYPES.map(([ext]) => ext).join(", ")})` })
      const stats = statOf(real)
      if (stats === undefined || !stats.isFile()) return yield* new ResourceNotFound({ uri })
      if (stats.size > MAX_RESOURCE_BYTES) return yield* new ResourceTooLarge({ uri, size: stats.size })
      const bytes = yield* Effect.tryPromise({ try: () => readFile(real), catch: () => new ResourceNotFound({ uri }) })
      if (bytes.length > MAX_RESOURCE_BYTES) return yield* new ResourceTooLarge({ uri, size: bytes.length })
      const [, mimeType, kind] = type
      const contents: ResourceContents = kind === "text" ? { uri, mimeType, text: bytes.toString("utf8") } : { uri, mimeType, blob: bytes.toString("base64") }
      return { contents: [contents] }
    })

  const read = (uri: string): Effect.Effect<{ contents: Array<ResourceContents> }, ResourceError> =>
    Effect.suspend(() => {
      const parsed = parseResourceUri(uri)
      switch (parsed._tag) {
        case "Refused":
          return Effect.fail(new ResourceRefused({ uri, reason: parsed.reason }))
        case "Doc":
          return Effect.map(parsed.name === "tools" ? toolsDoc : Effect.sync(profilesDoc), (text) => ({
            contents: [{ uri, mimeType: "application/json", text }]
          }))
        case "Artifact":
          return readArtifact(uri, parsed.root, parsed.segments)
      }
    })

  // Asked after every call: the folders the last walk saw are stat-ed (a few calls); they are walked again
  // (folders resolved, listed) only when one of them moved.
  const changed = () => {
    if (!anyMoved(last)) return false
    const before = last
    last = signature(config)
    return before.text !== last.text
  }

  return { list: (cursor) => Effect.suspend(() => list(cursor)), read, changed } satisfies ResourcesShape
})
