/**
 * Runs the bundled CLI (one CommonJS file) with V8's code cache, the way Node 22's
 * `module.enableCompileCache()` does for modules (Node 20 has no such switch): compiling ~1.4 MB of
 * JavaScript is most of what a start costs above a bare MCP server, and a cached compile skips it.
 *
 * - The cache lives in `$STAGEWRIGHT_COMPILE_CACHE`, else `$XDG_CACHE_HOME/stagewright`, else
 *   `~/.cache/stagewright`, else a per-user folder in the temp directory; `STAGEWRIGHT_COMPILE_CACHE=off`
 *   turns it off. Unless a folder is named, a missing cache is first looked for beside the bundle, where
 *   `npm run build` writes one per command with the Node that built it (scripts/build-bin.mjs). The folder is created private (0700) and is used only when the current user owns it:
 *   a code cache is bytecode, so one written by someone else is never read.
 * - A cache belongs to one command (`cacheKind`), bundle, Node version and architecture (its name hashes
 *   them); V8 checks it
 *   again and a rejected or missing cache is written anew when the process exits (with every function
 *   compiled by then), through a temporary file renamed into place, so concurrent starts never read half
 *   a file.
 * - Writing a cache removes the same command's caches of other bundles unused for a week (`pruneStale`).
 * - Any failure of the cache (unwritable folder, a full disk) only means a slower start.
 */
import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs"
import Module, { createRequire } from "node:module"
import { homedir, tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { Script } from "node:vm"
import { setFlagsFromString } from "node:v8"

/** The folder for the code cache, or undefined when it is turned off. */
export const cacheFolder = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const chosen = env["STAGEWRIGHT_COMPILE_CACHE"]
  if (chosen !== undefined && /^(off|0|false|no)$/i.test(chosen.trim())) return undefined
  if (chosen !== undefined && chosen.trim() !== "") return chosen
  if (env["XDG_CACHE_HOME"]) return join(env["XDG_CACHE_HOME"], "stagewright")
  const home = env["HOME"] ?? safeHome()
  if (home) return join(home, ".cache", "stagewright")
  return join(tmpdir(), `stagewright-cache-${process.getuid?.() ?? "user"}`)
}

const safeHome = () => {
  try {
    return homedir()
  } catch {
    return undefined
  }
}

const explicitFolder = (env: NodeJS.ProcessEnv) => (env["STAGEWRIGHT_COMPILE_CACHE"] ?? "").trim() !== ""

const readIfAny = (file: string | undefined): Buffer | undefined => {
  if (file === undefined) return undefined
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/** A private folder the current user owns, or undefined when it cannot be had. */
const privateFolder = (folder: string): string | undefined => {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    const stat = statSync(folder)
    if (!stat.isDirectory()) return undefined
    if (process.getuid !== undefined && stat.uid !== process.getuid()) return undefined
    return folder
  } catch {
    return undefined
  }
}

/** A cache of another bundle (an older version) is removed once unused this long; a stray temporary file sooner. */
export const STALE_CACHE_MS = 7 * 24 * 3_600_000
const STALE_TEMPORARY_MS = 3_600_000

/**
 * Removes, beside a cache just written, the caches of the same command for other bundles that were not
 * written for a week, and temporary files left by a process that died writing: upgrades do not pile up.
 */
export const pruneStale = (folder: string, written: string, now: number): void => {
  const kind = written.slice(0, written.indexOf("-") + 1)
  for (const file of readdirSync(folder)) {
    const old = file !== written && file.startsWith(kind) && file.endsWith(".v8cache")
    const temporary = file.endsWith(".tmp")
    if (!old && !temporary) continue
    try {
      const age = now - statSync(join(folder, file)).mtimeMs
      if (age > (temporary ? STALE_TEMPORARY_MS : STALE_CACHE_MS)) unlinkSync(join(folder, file))
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/**
 * Which cache a run uses: each command compiles different functions of the bundle (a cache holds those
 * compiled by the run that wrote it), so serve, tools, doctor, production and help keep one each.
 */
export const cacheKind = (args: ReadonlyArray<string>): string => {
  const command = args.find((arg) => !arg.startsWith("-"))
  if (command !== undefined && /^(serve|tools|doctor|production)$/.test(command)) return command
  if (args.some((arg) => /^(-h|--help|--version|--wizard|--completions)$/.test(arg))) return "help"
  return "serve"
}

/**
 * The cache file's name: the command, and a hash of the bundle's text, the Node version, the architecture
 * and the bundle's own path. The path too: a cache holds its script's name, so two installs of the same
 * bundle sharing the user's folder would otherwise print each other's paths in stack traces.
 */
export const cacheName = (file: string, source: string, args: ReadonlyArray<string>): string =>
  `${cacheKind(args)}-${createHash("sha1").update(source).update(process.version).update(process.arch).update(file).digest("hex").slice(0, 20)}.v8cache`

/** V8's default young-generation growth factor (v8 flag --semi-space-growth-factor). */
const GROWTH_DEFAULT = 2
/** How long after the bundle starts the young generation may grow again (the start is over by then). */
const LEAN_START_MS = 5_000
let lean: NodeJS.Timeout | undefined

const startLean = (): void => {
  setFlagsFromString("--semi-space-growth-factor=1")
  lean = setTimeout(endLean, LEAN_START_MS).unref()
}

const endLean = (): void => {
  if (lean === undefined) return
  clearTimeout(lean)
  lean = undefined
  setFlagsFromString(`--semi-space-growth-factor=${GROWTH_DEFAULT}`)
}

/** Runs the CommonJS file `file` as the main program, compiled with the code cache when there is one. */
export const runWithCompileCache = (file: string, env: NodeJS.ProcessEnv = process.env, args: ReadonlyArray<string> = process.argv.slice(2)): void => {
  const source = readFileSync(file, "utf8").replace(/^#!.*/, "")
  const folder = cacheFolder(env)
  const owned = folder === undefined ? undefined : privateFolder(folder)
  const name = cacheName(file, source, args)
  const cacheFile = owned === undefined ? undefined : join(owned, name)
  // The build ships a cache beside the bundle (written by the Node that built it): used unless a folder
  // is named, when the user's own is missing.
  const shipped = explicitFolder(env) ? undefined : join(dirname(file), name)
  const cached = readIfAny(cacheFile) ?? readIfAny(shipped)
  // The bundle's import() calls go through the loader's importer (src/dynamic-import.ts): Node 20 drops
  // a script's import() callback when the script comes from a code cache.
  const script = new Script(Module.wrap(source), { filename: file, ...(cached !== undefined ? { cachedData: cached } : {}) })
  if (cacheFile !== undefined && (cached === undefined || script.cachedDataRejected === true)) {
    process.once("exit", () => {
      try {
        endLean()
        const temporary = `${cacheFile}.${process.pid}.tmp`
        writeFileSync(temporary, script.createCachedData(), { mode: 0o600 })
        renameSync(temporary, cacheFile)
        pruneStale(dirname(cacheFile), name, Date.now())
      } catch {
        // Only a slower next start.
      }
    })
  }
  // The start allocates ~30 MB that mostly lives on: V8 doubling the young generation at each scavenge
  // (its default) took the peak to ~96 MiB; kept at its first size during the start, it stays ~15 MiB lower
  // for no CPU cost that shows (issue 37, docs/house-table.md). Set after the cache is read and put back before
  // one is written: the code cache is tied to the flags it was made under.
  startLean()
  const main = new Module(file)
  main.filename = file
  main.paths = (Module as unknown as { _nodeModulePaths: (from: string) => Array<string> })._nodeModulePaths(dirname(file))
  const run = script.runInThisContext() as (exports: unknown, require: NodeRequire, module: Module, filename: string, dirname: string) => void
  run.call(main.exports, main.exports, createRequire(file), main, file, dirname(file))
}
