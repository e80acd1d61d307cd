/**
 * `stagewright doctor --app DIR`: what launching one app would meet. The app folder (or packaged build),
 * the Electron it declares and has installed, the Electron a launch would run and why, that binary's
 * Node / V8 / NODE_MODULE_VERSION (read by running it as Node), the native addons whose ABI does not fit,
 * the display, and the fuses of the binary. Only what would stop a launch fails (no app, no Electron, a
 * configured binary missing); the rest are warnings.
 */
import { Effect } from "effect"
import { existsSync, statSync } from "node:fs"
import { readRegularFile } from "../layers/config/read-file.js"
import { resolve } from "node:path"
import semver from "semver"
import { confinePath } from "../layers/config/paths.js"
import { appElectron, resolveElectronRuntime, type ElectronRuntime } from "../layers/driver/electron-runtime.js"
import { buildAt, findBuilds, fuseWireOf, readFuses, type BuildInfo } from "../plugins/production/build.js"
import type { FuseState } from "../plugins/production/checklist.js"
import { probeVersions, type BinaryVersions, type ProbeOptions } from "./binary-versions.js"
import { displayCheck, fuseCheck, RUN_AS_NODE_OFF_NOTE, type DisplayFacts } from "./doctor-display.js"
import type { Check } from "./check.js"
import type { XvfbMode } from "../layers/driver/display.js"
import { abiMismatches, inventoryAddons, summarizeAddons, type AddonInventory, type InventoryLimits } from "./native-addons.js"

export interface AppDoctorOptions {
  readonly appRoot?: string | undefined
  readonly env?: NodeJS.ProcessEnv
  readonly limits?: Partial<InventoryLimits>
  readonly probe?: ProbeOptions
  /** --xvfb: how a launch would get a display. */
  readonly xvfb?: XvfbMode | undefined
}

type Fuses = { readonly wire: Readonly<Record<string, FuseState>> } | { readonly error: string }

export interface AppReport {
  readonly folder: string
  readonly kind: "app" | "packaged" | "missing" | "not an app" | "outside app root"
  readonly package?: { readonly name?: string | undefined; readonly version?: string | undefined; readonly main: string } | undefined
  readonly build?: Pick<BuildInfo, "path" | "platform" | "layout" | "executable" | "asar"> | undefined
  readonly declaredElectron?: { readonly range: string; readonly from: "devDependencies" | "dependencies" } | undefined
  readonly installedElectron?:
    | { readonly version?: string | undefined; readonly packageDir?: string | undefined; readonly binary?: string | undefined; readonly looked: string }
    | undefined
  readonly launch?: ElectronRuntime | { readonly error: string } | undefined
  readonly versions?: BinaryVersions | { readonly error: string } | { readonly skipped: string } | undefined
  readonly fuses?: ({ readonly binary: string } & Fuses) | undefined
  readonly packagedBuild?: ({ readonly path: string; readonly executable?: string | undefined } & Fuses) | undefined
  readonly addons?:
    | (AddonInventory & { readonly mismatches: ReadonlyArray<{ readonly path: string; readonly found: number; readonly expected: number }> })
    | undefined
  readonly display: DisplayFacts
}

interface PackageJson {
  readonly name?: string
  readonly version?: string
  readonly main?: string
  readonly dependencies?: Record<string, string>
  readonly devDependencies?: Record<string, string>
}

const readPackage = (folder: string): PackageJson | string => {
  const file = resolve(folder, "package.json")
  if (!existsSync(file)) return `${folder} has no package.json`
  const text = readRegularFile(file, 1024 * 1024)
  if (typeof text !== "string") return text.reason
  try {
    return JSON.parse(text) as PackageJson
  } catch (error) {
    return `${file} is not JSON: ${(error as Error).message}`
  }
}

const buildFacts = (build: BuildInfo) => ({ path: build.path, platform: build.platform, layout: build.layout, executable: build.executable, asar: build.asar })

type Target =
  | { readonly kind: "app"; readonly folder: string; readonly pkg: PackageJson; readonly main: string; readonly check: Check }
  | { readonly kind: "packaged"; readonly folder: string; readonly build: BuildInfo; readonly check: Check }
  | { readonly kind: "missing" | "not an app" | "outside app root"; readonly folder: string; readonly check: Check }

/** What DIR is: an app folder (package.json with its main script), a packaged build, or neither. */
const targetOf = (dir: string, appRoot: string | undefined): Target => {
  const folder = resolve(dir)
  const name = "app"
  const confined = confinePath(appRoot, folder, "--app")
  if (typeof confined !== "string")
    return { kind: "outside app root", folder, check: { name, ok: false, required: true, detail: confined.message, next: confined.hint } }
  let isDir = false
  try {
    isDir = statSync(folder).isDirectory()
  } catch {
    return {
      kind: "missing",
      folder,
      check: { name, ok: false, required: true, detail: `${folder} does not exist`, next: "pass the app's folder (the one with its package.json)" }
    }
  }
  const build = isDir ? buildAt(folder) : undefined
  if (build !== undefined) return packaged(folder, build)
  const pkg = isDir ? readPackage(folder) : `${folder} is a file, not a folder`
  if (typeof pkg !== "string") {
    const main = pkg.main ?? "index.js"
    if (existsSync(resolve(folder, main))) {
      const detail = `${folder}: ${pkg.name ?? "(no name)"} ${pkg.version ?? ""} (main ${main})`.replace("  ", " ")
      return { kind: "app", folder, pkg, main, check: { name, ok: true, required: true, detail } }
    }
    const newest = findBuilds(folder)[0]
    if (newest !== undefined) return packaged(folder, newest)
    return {
      kind: "not an app",
      folder,
      check: {
        name,
        ok: false,
        required: true,
        detail: `${folder}: package.json names main ${main}, which does not exist`,
        next: "build the app (its main script), or fix package.json's main"
      }
    }
  }
  const newest = isDir ? findBuilds(folder)[0] : undefined
  if (newest !== undefined) return packaged(folder, newest)
  return {
    kind: "not an app",
    folder,
    check: {
      name,
      ok: false,
      required: true,
      detail: `${pkg}, and no packaged build in it or its out/, dist/, release/`,
      next: "pass the app's folder (package.json with its main script) or a packaged build"
    }
  }
}

const packaged = (folder: string, build: BuildInfo): Target => ({
  kind: "packaged",
  folder,
  build,
  check: {
    name: "app",
    ok: build.executable !== undefined,
    required: true,
    detail: `packaged build ${build.path} (${build.platform}, ${build.layout}); executable ${build.executable ?? "none found"}; ${build.asar !== undefined ? "resources/app.asar" : "resources/app"}`,
    next: "pass a build folder that holds the app's executable (or the .app bundle)"
  }
})

/** The declared range and the installed electron package (with or without its binary). */
const electronPackage = (folder: string, pkg: PackageJson) => {
  const declared =
    pkg.devDependencies?.electron !== undefined
      ? { range: pkg.devDependencies.electron, from: "devDependencies" as const }
      : pkg.dependencies?.electron !== undefined
        ? { range: pkg.dependencies.electron, from: "dependencies" as const }
        : undefined
  const installed = appElectron(folder)
  const declaredText = declared !== undefined ? `declares electron ${declared.range} (${declared.from})` : "declares no electron in package.json"
  const where = installed.packageDir !== undefined ? `installed ${installed.version ?? "?"} at ${installed.packageDir}` : "no electron package installed"
  const binary = installed.packageDir === undefined ? "" : installed.binary !== undefined ? `; binary ${installed.binary}` : "; installed without its binary"
  const fits =
    declared === undefined ||
    installed.version === undefined ||
    semver.validRange(declared.range) === null ||
    semver.satisfies(installed.version, declared.range, { includePrerelease: true })
  const ok = installed.binary !== undefined && fits
  const next =
    installed.packageDir === undefined
      ? "npm install --save-dev electron in the app (or set STAGEWRIGHT_ELECTRON to an Electron binary)"
      : installed.binary === undefined
        ? `download its binary: node ${resolve(installed.packageDir, "install.js")} (npm ran with ignore-scripts or offline)`
        : `npm install in the app: the installed ${installed.version} does not satisfy ${declared?.range}`
  const check: Check = {
    name: "app electron",
    ok,
    required: false,
    detail: `${declaredText}; ${where}${binary}${fits ? "" : ` (does not satisfy ${declared?.range})`}`,
    ...(ok ? {} : { next })
  }
  return { declared, installed, check }
}

const launchOf = (env: NodeJS.ProcessEnv, folder: string): { readonly launch: ElectronRuntime | { readonly error: string }; readonly check: Check } => {
  const name = "launch runtime"
  try {
    const runtime = resolveElectronRuntime(env, folder)
    const present = existsSync(runtime.executablePath)
    const what = runtime.kind === "standin" ? "the Electron stand-in" : "Electron"
    return {
      launch: runtime,
      check: present
        ? { name, ok: true, required: true, detail: `${what} at ${runtime.executablePath}: ${runtime.reason}` }
        : {
            name,
            ok: false,
            required: true,
            detail: `${runtime.executablePath} (${runtime.reason}) does not exist`,
            next: "reinstall the app's electron package, or fix STAGEWRIGHT_ELECTRON"
          }
    }
  } catch (error) {
    const message = (error as Error).message
    return {
      launch: { error: message },
      check: {
        name,
        ok: false,
        required: true,
        detail: message,
        next: "npm install --save-dev electron in the app (with its download), pass executablePath, or set STAGEWRIGHT_ELECTRON"
      }
    }
  }
}

/** The doctor's checks and facts for one app. */
export const appDoctor = (dir: string, options: AppDoctorOptions = {}) =>
  Effect.gen(function* () {
    const env = options.env ?? process.env
    const target = yield* Effect.sync(() => targetOf(dir, options.appRoot))
    const checks: Array<Check> = [target.check]
    let report: AppReport = { folder: target.folder, kind: target.kind, display: displayCheck(env, undefined, process.platform, options.xvfb).facts }
    if (target.kind !== "app" && target.kind !== "packaged") {
      const display = displayCheck(env, undefined, process.platform, options.xvfb)
      return { checks: [...checks, display.check], report }
    }
    let binary: string | undefined
    let runtimeKind: "electron" | "standin" | undefined
    if (target.kind === "app") {
      const electron = electronPackage(target.folder, target.pkg)
      const launch = launchOf(env, target.folder)
      checks.push(electron.check, launch.check)
      if ("executablePath" in launch.launch && launch.check.ok) {
        binary = launch.launch.executablePath
        runtimeKind = launch.launch.kind
      }
      const newest = findBuilds(target.folder)[0]
      const packagedBuild =
        newest !== undefined ? { path: newest.path, executable: newest.executable, ...(yield* Effect.promise(() => readFuses(newest))) } : undefined
      if (packagedBuild !== undefined) checks.push(fuseCheck(packagedBuild.path, packagedBuild, "packaged build"))
      report = {
        ...report,
        package: { name: target.pkg.name, version: target.pkg.version, main: target.main },
        declaredElectron: electron.declared,
        installedElectron: electron.installed,
        launch: launch.launch,
        packagedBuild
      }
    } else {
      binary = target.build.executable
      runtimeKind = "electron"
      report = {
        ...report,
        build: buildFacts(target.build),
        ...(binary !== undefined
          ? { launch: { kind: "electron", executablePath: binary, reason: "the packaged build's own executable (electron_production_launch)" } }
          : {})
      }
    }
    if (binary !== undefined) {
      const bundle = target.kind === "packaged" && target.build.platform === "macos" ? target.build.path : binary
      const fuses = yield* Effect.promise(() => fuseWireOf(bundle))
      checks.push(fuseCheck(bundle, fuses))
      report = { ...report, fuses: { binary: bundle, ...fuses } }
      const runAsNodeOff = "wire" in fuses && fuses.wire.RunAsNode === "disabled"
      const versions: AppReport["versions"] = runAsNodeOff
        ? { skipped: RUN_AS_NODE_OFF_NOTE }
        : yield* probeVersions(binary, { ...options.probe, env }).pipe(Effect.catchAll((error) => Effect.succeed({ error: error.message })))
      report = { ...report, versions }
      checks.push(
        "node" in versions
          ? {
              name: "binary versions",
              ok: true,
              required: false,
              detail: `node ${versions.node}, v8 ${versions.v8}, NODE_MODULE_VERSION ${versions.modules}${versions.electron !== undefined ? `, electron ${versions.electron}` : ""}${versions.chrome !== undefined ? `, chrome ${versions.chrome}` : ""}`
            }
          : "skipped" in versions
            ? {
                name: "binary versions",
                ok: false,
                required: false,
                detail: `not read: ${versions.skipped}`,
                next: "nothing needed to launch; native addon ABIs are not compared"
              }
            : {
                name: "binary versions",
                ok: false,
                required: false,
                detail: `${binary} as Node (ELECTRON_RUN_AS_NODE=1): ${versions.error}`,
                next: "check that the binary runs (it may be broken or not an Electron)"
              }
      )
    }
    const inventory = yield* inventoryAddons(target.kind === "packaged" ? target.build.path : target.folder, options.limits)
    const expected = report.versions !== undefined && "modules" in report.versions ? Number(report.versions.modules) : undefined
    const mismatches = expected !== undefined ? abiMismatches(inventory.addons, expected) : []
    report = { ...report, addons: { ...inventory, mismatches: mismatches.map((m) => ({ path: m.addon.path, found: m.found, expected: m.expected })) } }
    checks.push(addonSummary(inventory, expected))
    for (const m of mismatches) {
      checks.push({
        name: "native addon",
        ok: false,
        required: false,
        detail: `${m.addon.shown} was built for NODE_MODULE_VERSION ${m.found} (${m.addon.abi.evidence}), but the binary expects ${m.expected}: it will not load`,
        next: `npx @electron/rebuild in ${target.folder}`
      })
    }
    const display = displayCheck(env, runtimeKind, process.platform, options.xvfb)
    checks.push(display.check)
    return { checks, report: { ...report, display: display.facts } }
  })

const addonSummary = (inventory: AddonInventory, expected: number | undefined): Check => {
  const found = inventory.addons.length === 0 ? "no native addons" : `${inventory.addons.length} native addon(s): ${summarizeAddons(inventory.addons)}`
  const against =
    inventory.addons.length === 0
      ? ""
      : expected !== undefined
        ? `; the binary's NODE_MODULE_VERSION is ${expected}`
        : "; the binary's NODE_MODULE_VERSION is unknown, so ABIs were not compared"
  const cut = inventory.cut.length > 0 ? `; walk cut: ${inventory.cut.join("; ")}` : ""
  return {
    name: "native addons",
    ok: inventory.cut.length === 0,
    required: false,
    detail: `${found} in ${inventory.root} (${inventory.entries} entries read)${against}${cut}`,
    ...(inventory.cut.length > 0 ? { next: "addons past the limit were not checked: run npx @electron/rebuild in the app if any fails to load" } : {})
  }
}
