/**
 * What an agent may start: every launch path an agent can reach (electron_launch, the production
 * plugin's launch) vets its request here before the driver sees it. Switches and environment variables
 * that run code go through the eval policy (src/eval-policy/code-paths.ts); every path that ends up
 * executed (the app, its package.json main, plain arguments naming files, the executable and cwd) is
 * resolved once, the same way the launch resolves it, and confined to --app-root with symlinks resolved.
 * The driver then launches exactly the resolved paths that were checked.
 */
import { Effect } from "effect"
import { existsSync, readFileSync, statSync } from "node:fs"
import { resolve } from "node:path"
import { classifyEnvKey, classifyEnvValue, classifyLaunchArg, switchName } from "../eval-policy/code-paths.js"
import type { EvalNotAuthorized, EvalPolicy } from "../eval-policy/EvalPolicy.js"
import type { ServerConfig } from "../layers/config/ServerConfig.js"
import type { LaunchOptions } from "../layers/driver/ElectronDriver.js"
import { appElectron, appFolderOf } from "../layers/driver/electron-runtime.js"
import { gateCode } from "./code-gate.js"
import { confine } from "./confine.js"
import type { InvalidArgument, PathNotAllowed } from "./errors.js"

/** What an agent asks to launch: the driver's launch options, before they are checked and resolved. */
export type LaunchRequest = LaunchOptions

/** The file an app folder starts from (package.json "main", default index.js), when it can be read. */
const mainOf = (appFolder: string): string | undefined => {
  try {
    const pkg = JSON.parse(readFileSync(resolve(appFolder, "package.json"), "utf8")) as { main?: unknown }
    return resolve(appFolder, typeof pkg.main === "string" && pkg.main !== "" ? pkg.main : "index.js")
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

/** Checks a launch request and returns it with every path absolute (resolved against its cwd). */
export const vetLaunch = (
  tool: string,
  request: LaunchRequest
): Effect.Effect<LaunchOptions, EvalNotAuthorized | InvalidArgument | PathNotAllowed, EvalPolicy | ServerConfig> =>
  Effect.gen(function* () {
    const env = request.env ?? {}
    yield* gateCode(tool, Object.entries(env).flatMap(([key, value]) => [classifyEnvKey(key), classifyEnvValue(key, value)]))
    const args = request.args ?? []
    yield* gateCode(tool, args.map(classifyLaunchArg))
    const cwd = request.cwd === undefined ? undefined : resolve(request.cwd)
    const base = cwd ?? resolve(".")
    const app = request.app === undefined ? undefined : resolve(base, request.app)
    const executablePath = request.executablePath === undefined ? undefined : resolve(base, request.executablePath)
    // Plain arguments that name files are what Electron runs when no app is given (the first one) or
    // what the app opens: under --app-root they are confined like the app itself.
    const named = args
      .filter((arg) => switchName(arg) === undefined)
      .map((arg) => resolve(base, arg))
      .filter((path) => existsSync(path))
    const mains = [app, ...named].filter((path): path is string => path !== undefined && isDirectory(path)).map(mainOf)
    // Without executablePath the app's own electron runs: under --app-root it is confined like the app.
    const own = executablePath === undefined && app !== undefined ? appElectron(appFolderOf(app)) : undefined
    yield* confine([
      [own?.packageDir, "the app's electron package"],
      [own?.binary, "the app's electron binary"],
      [cwd, "cwd"],
      [app, "app"],
      [executablePath, "executablePath"],
      ...named.map((path) => [path, "args"] as const),
      ...mains.map((path) => [path, "the app's package.json main"] as const)
    ])
    return {
      ...(app !== undefined ? { app } : {}),
      ...(executablePath !== undefined ? { executablePath } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      args,
      env,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {})
    }
  })
