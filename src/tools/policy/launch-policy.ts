/**
 * What an agent may start: every launch path an agent can reach (electron_launch, the production
 * plugin's launch) vets its request here before the driver sees it. Switches and environment variables
 * that run code go through the eval policy (src/eval-policy/code-paths.ts); every path that ends up
 * executed (the app, its package.json main, plain arguments naming files, the executable and cwd) is
 * resolved once, the same way the launch resolves it, and confined to --app-root with symlinks resolved.
 * The driver then launches exactly the resolved paths that were checked.
 */
import { Effect } from "effect"
import { existsSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { classifyEnvKey, classifyEnvValue, classifyLaunchArg, switchName, switchValue, takesPath } from "../../eval-policy/code-paths.js"
import { readRegularFile } from "../../layers/config/read-file.js"
import type { EvalNotAuthorized, EvalPolicy } from "../../eval-policy/EvalPolicy.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import type { LaunchOptions } from "../../layers/driver/ElectronDriver.js"
import { appElectron, appFolderOf } from "../../layers/driver/electron-runtime.js"
import { gateCode } from "./code-gate.js"
import { confine } from "./confine.js"
import { InvalidArgument, type PathNotAllowed } from "../contract/errors.js"

/** What an agent asks to launch: the driver's launch options, before they are checked and resolved. */
export type LaunchRequest = LaunchOptions

/**
 * The file an app folder starts from (package.json "main", default index.js). The package.json is read
 * as a regular file only, bounded and non-blocking (a FIFO planted as package.json cannot stall the
 * server): one that is not a regular file is refused; one that does not parse leaves the main unknown.
 */
const mainOf = (appFolder: string): string | undefined | InvalidArgument => {
  const file = resolve(appFolder, "package.json")
  if (!existsSync(file)) return resolve(appFolder, "index.js")
  const text = readRegularFile(file, 1024 * 1024)
  if (typeof text !== "string")
    return new InvalidArgument({ message: `app: ${text.reason}`, hint: "An app folder's package.json must be a regular JSON file (at most 1 MiB)." })
  try {
    const pkg = JSON.parse(text) as { main?: unknown } | null
    return resolve(appFolder, typeof pkg?.main === "string" && pkg.main !== "" ? pkg.main : "index.js")
  } catch {
    return undefined
  }
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * The paths switch values name (`--app=/elsewhere`, `--user-data-dir=…`, `--require ./x`): a switch
 * that takes a path (PATH_SWITCHES) names one with its `=` value or the next argument, whether it exists
 * or not (it may be written); any other switch's `=` value is a path when it looks like one (absolute,
 * `./`, `../`, `~`, `file:`) or names something that exists.
 */
const switchPaths = (args: ReadonlyArray<string>, base: string): ReadonlyArray<readonly [string, string]> =>
  args.flatMap((arg, i): ReadonlyArray<readonly [string, string]> => {
    const name = switchName(arg)
    if (name === undefined) return []
    const value = switchValue(arg)
    const label = `args: --${name}`
    if (takesPath(name)) {
      const given = value ?? (args[i + 1] !== undefined && switchName(args[i + 1]!) === undefined ? args[i + 1] : undefined)
      return given === undefined || given === "" ? [] : [[asPath(given, base), label]]
    }
    if (value === undefined || value === "") return []
    const path = asPath(value, base)
    return /^(\/|\.{1,2}([/\\]|$)|~|file:)/i.test(value.trim()) || existsSync(path) ? [[path, label]] : []
  })

/** A switch value as a path: file: URLs and ~ understood, relative values against the launch's cwd. */
const asPath = (value: string, base: string): string => {
  const trimmed = value.trim()
  if (/^file:/i.test(trimmed)) {
    try {
      return fileURLToPath(new URL(trimmed))
    } catch {
      return resolve(base, trimmed)
    }
  }
  if (trimmed === "~" || trimmed.startsWith("~/")) return join(homedir(), trimmed.slice(1))
  return resolve(base, trimmed)
}

/** Checks a launch request and returns it with every path absolute (resolved against its cwd). */
export const vetLaunch = (
  tool: string,
  request: LaunchRequest
): Effect.Effect<LaunchOptions, EvalNotAuthorized | InvalidArgument | PathNotAllowed, EvalPolicy | ServerConfig> =>
  Effect.gen(function* () {
    const env = request.env ?? {}
    yield* gateCode(
      tool,
      Object.entries(env).flatMap(([key, value]) => [classifyEnvKey(key), classifyEnvValue(key, value)])
    )
    const args = request.args ?? []
    yield* gateCode(tool, args.map(classifyLaunchArg))
    const cwd = request.cwd === undefined ? undefined : resolve(request.cwd)
    const base = cwd ?? resolve(".")
    const app = request.app === undefined ? undefined : resolve(base, request.app)
    const executablePath = request.executablePath === undefined ? undefined : resolve(base, request.executablePath)
    // Plain arguments that name files are what Electron runs when no app is given (the first one) or
    // what the app opens: under --app-root they are confined like the app itself, and so are the paths
    // switch values name (`--app=/elsewhere` runs that app).
    const named = args
      .filter((arg) => switchName(arg) === undefined)
      .map((arg) => resolve(base, arg))
      .filter((path) => existsSync(path))
    const config = yield* ServerConfig
    // Without executablePath the app's own electron runs: under --app-root it is confined like the app.
    const own = executablePath === undefined && app !== undefined ? appElectron(appFolderOf(app), config.appRoot) : undefined
    // Confined before any file in them is read: a folder outside the root is refused unread.
    yield* confine([
      [own?.packageDir, "the app's electron package"],
      [own?.binary, "the app's electron binary"],
      [cwd, "cwd"],
      [app, "app"],
      [executablePath, "executablePath"],
      ...named.map((path) => [path, "args"] as const),
      ...switchPaths(args, base)
    ])
    const mains = [app, ...named].filter((path): path is string => path !== undefined && isDirectory(path)).map(mainOf)
    const unreadable = mains.find((main): main is InvalidArgument => main instanceof InvalidArgument)
    if (unreadable !== undefined) return yield* unreadable
    yield* confine(mains.filter((path): path is string => typeof path === "string").map((path) => [path, "the app's package.json main"] as const))
    return {
      ...(app !== undefined ? { app } : {}),
      ...(executablePath !== undefined ? { executablePath } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      args,
      env,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {})
    }
  })
