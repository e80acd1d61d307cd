/**
 * Chooses what runs an Electron app: the app's own Electron, else STAGEWRIGHT_ELECTRON (a binary, or
 * `standin`: the project's Electron stand-in, Node + Debian Chromium in test/fixtures/electron-standin,
 * which tests, the demo and the benchmarks choose by name). Nothing falls back to the stand-in.
 */
import { existsSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { readJsonFile, readRegularFile } from "../config/read-file.js"

export interface ElectronRuntime {
  readonly kind: "electron" | "standin"
  /** The executable to hand to `_electron.launch({ executablePath })`. */
  readonly executablePath: string
  /** Why this runtime was chosen, in one line. */
  readonly reason: string
}

/** The package root (works from src/ under tsx/vitest and from dist/ after the build). */
export const packageRoot = (): string => {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir)
    if (parent === dir) throw new Error("stagewright: package.json not found above " + fileURLToPath(import.meta.url))
    dir = parent
  }
  return dir
}

/** The stand-in's launcher. It exists in the Stagewright repository only: the installed package ships no test/ folder. */
export const standinExecutable = (): string => join(packageRoot(), "test", "fixtures", "electron-standin", "electron")

/** Where the platform's Electron binary sits inside the electron package's dist/ folder. */
const PLATFORM_BINARY: Readonly<Record<string, string>> = {
  darwin: "Electron.app/Contents/MacOS/Electron",
  win32: "electron.exe"
}

/**
 * The folders an app's Electron may come from: its own folder and the folders above it up to the app's
 * project (the nearest one holding a package.json), never above `stopAt` (--app-root) nor past the
 * project: a node_modules/electron planted in a parent folder outside the app is never run. An app with
 * no package.json at or above its folder is looked up in its folder only.
 */
const electronHomes = (appFolder: string, stopAt?: string): ReadonlyArray<string> => {
  const homes: Array<string> = []
  for (let dir = resolve(appFolder); ; dir = dirname(dir)) {
    homes.push(dir)
    if (existsSync(join(dir, "package.json")) || dir === stopAt || dirname(dir) === dir) {
      return existsSync(join(dir, "package.json")) || dir === stopAt ? homes : homes.slice(0, 1)
    }
  }
}

/**
 * The Electron an app folder depends on: `node_modules/electron/package.json` in the app's own folders
 * (`electronHomes`), its binary read from the package's path.txt, else the platform's dist/ convention.
 * Electron's index.js is never imported (it can start a download); its files are read as regular files
 * only, bounded (a FIFO cannot stall the server).
 */
export const appElectron = (
  appFolder: string,
  stopAt?: string
): { readonly packageDir?: string; readonly version?: string; readonly binary?: string; readonly looked: string } => {
  const homes = electronHomes(appFolder, stopAt === undefined ? undefined : resolve(stopAt))
  const packageDir = homes.map((home) => join(home, "node_modules", "electron")).find((dir) => existsSync(join(dir, "package.json")))
  if (packageDir === undefined) {
    return {
      looked: `no electron package resolves from ${resolve(appFolder)} (node_modules/electron in the app's own folders; folders above the app's package.json are not searched)`
    }
  }
  const manifest = readJsonFile(join(packageDir, "package.json")) as { version?: unknown } | undefined
  const version = typeof manifest?.version === "string" ? manifest.version : undefined
  const pathTxt = readRegularFile(join(packageDir, "path.txt"), 4_096)
  const fromPathTxt = typeof pathTxt === "string" ? pathTxt.trim() : undefined
  const relative = fromPathTxt !== undefined && fromPathTxt !== "" ? fromPathTxt : (PLATFORM_BINARY[process.platform] ?? "electron")
  const binary = join(packageDir, "dist", relative)
  return existsSync(binary)
    ? { packageDir, ...(version !== undefined ? { version } : {}), binary, looked: `${binary} (electron ${version ?? "?"} from ${packageDir})` }
    : {
        packageDir,
        ...(version !== undefined ? { version } : {}),
        // The command doctor gives for it (src/cli/doctor-app.ts).
        looked: `${packageDir} (electron ${version ?? "?"}) has no binary at ${binary}: it was installed without its download (npm ran with ignore-scripts or offline); download it with node ${join(packageDir, "install.js")}`
      }
}

/** The folder an app argument names: the folder itself, or the main script's folder. */
export const appFolderOf = (app: string): string => {
  try {
    return statSync(app).isDirectory() ? app : dirname(app)
  } catch {
    return dirname(app)
  }
}

/** The one switch that chooses the project's test stand-in: `STAGEWRIGHT_ELECTRON=standin` (tests, demo, benchmarks). */
export const STANDIN = "standin"

/**
 * What runs an app launched without executablePath: the Electron the app depends on, then
 * STAGEWRIGHT_ELECTRON (a path, or `standin` for the test stand-in, chosen by name only); otherwise it
 * fails naming every place looked at. The product never falls back to the stand-in.
 */
export const resolveElectronRuntime = (env: NodeJS.ProcessEnv = process.env, app?: string, appRoot?: string): ElectronRuntime => {
  const looked: Array<string> = []
  if (app !== undefined) {
    const own = appElectron(appFolderOf(app), appRoot)
    if (own.binary !== undefined)
      return { kind: "electron", executablePath: own.binary, reason: `the app's own electron ${own.version ?? ""} (${own.packageDir})`.replace("  ", " ") }
    looked.push(own.looked)
  }
  const configured = env.STAGEWRIGHT_ELECTRON
  if (configured === STANDIN) {
    const executablePath = standinExecutable()
    if (!existsSync(executablePath)) {
      throw new Error(
        `STAGEWRIGHT_ELECTRON=standin: the stand-in is a test runtime in the Stagewright repository; not in this installation (${executablePath} does not exist). Set STAGEWRIGHT_ELECTRON to an Electron binary, pass executablePath, or install electron in the app (npm install --save-dev electron).`
      )
    }
    return { kind: "standin", executablePath, reason: "STAGEWRIGHT_ELECTRON=standin: the project's test stand-in (Node + Chromium)" }
  }
  if (configured !== undefined && configured !== "") {
    const path = resolve(configured)
    if (!existsSync(path)) throw new Error(`STAGEWRIGHT_ELECTRON points to ${path}, which does not exist`)
    return { kind: "electron", executablePath: path, reason: `STAGEWRIGHT_ELECTRON=${configured}` }
  }
  looked.push("STAGEWRIGHT_ELECTRON is not set")
  throw new Error(
    `No Electron to run ${app ?? "the app"}: looked at ${looked.join("; ")}. Install it in the app (npm install --save-dev electron), pass executablePath, or set STAGEWRIGHT_ELECTRON to an Electron binary.`
  )
}
