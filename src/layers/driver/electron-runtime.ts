/**
 * Chooses what runs an Electron app: a real Electron when one is available, else the project's
 * Electron stand-in (Node + Debian Chromium, test/fixtures/electron-standin). Used by the tests, the
 * demo and the benchmarks, so all of them run on the same runtime and say which one it was.
 */
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

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

export const standinExecutable = (): string => join(packageRoot(), "test", "fixtures", "electron-standin", "electron")

export const sampleAppPath = (name: "tasks" | "framework" | "hardened" | "insecure"): string =>
  join(packageRoot(), "test", "fixtures", "apps", name)

/** The binary path the npm `electron` package points at, when that package resolves and its binary exists. */
const electronFromPackage = (): string | undefined => {
  try {
    const require = createRequire(join(packageRoot(), "package.json"))
    const exported: unknown = require("electron")
    if (typeof exported === "string" && existsSync(exported)) return exported
  } catch {
    // not installed, or installed without its binary
  }
  return undefined
}

export const resolveElectronRuntime = (env: NodeJS.ProcessEnv = process.env): ElectronRuntime => {
  const configured = env.STAGEWRIGHT_ELECTRON
  if (configured !== undefined && configured !== "") {
    const path = resolve(configured)
    if (!existsSync(path)) {
      throw new Error(`STAGEWRIGHT_ELECTRON points to ${path}, which does not exist`)
    }
    return { kind: "electron", executablePath: path, reason: `STAGEWRIGHT_ELECTRON=${configured}` }
  }
  const fromPackage = electronFromPackage()
  if (fromPackage !== undefined) {
    return { kind: "electron", executablePath: fromPackage, reason: "the electron package resolves to an existing binary" }
  }
  return {
    kind: "standin",
    executablePath: standinExecutable(),
    reason: "no real Electron (STAGEWRIGHT_ELECTRON unset, no electron package with a binary): using the stand-in"
  }
}
