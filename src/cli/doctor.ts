/**
 * `stagewright doctor`: checks what driving an Electron app needs on this machine, and the
 * configuration the server would run with.
 */
import { accessSync, constants, existsSync, mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import type { XvfbMode } from "../layers/driver/display.js"
import { packageRoot, resolveElectronRuntime } from "../layers/driver/electron-runtime.js"
import type { Check } from "./check.js"
import { displayCheck } from "./doctor-display.js"

export { formatCheck, type Check } from "./check.js"

export interface DoctorInput {
  readonly outputDir: string
  readonly screenshotDir?: string | undefined
  readonly profile: string
  readonly allowEval: ReadonlyArray<string>
  readonly plugins: ReadonlyArray<string>
  readonly pluginProblem?: string | undefined
  /** --xvfb: how a launch would get a display. */
  readonly xvfb?: XvfbMode | undefined
}

const writable = (dir: string): string | undefined => {
  try {
    mkdirSync(dir, { recursive: true })
    accessSync(dir, constants.W_OK)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

export const runChecks = (input: DoctorInput): ReadonlyArray<Check> => {
  const checks: Array<Check> = []
  const major = Number(process.versions.node.split(".")[0])
  checks.push({ name: "node", ok: major >= 20, required: true, detail: `v${process.versions.node}${major >= 20 ? "" : " (Node 20 or newer is required)"}` })
  try {
    const require = createRequire(join(packageRoot(), "package.json"))
    const version = (require("playwright-core/package.json") as { version: string }).version
    checks.push({ name: "playwright-core", ok: true, required: true, detail: version })
  } catch (error) {
    checks.push({ name: "playwright-core", ok: false, required: true, detail: `not resolvable: ${(error as Error).message}` })
  }
  let runtimeKind: "electron" | "standin" | undefined
  try {
    const runtime = resolveElectronRuntime()
    runtimeKind = runtime.kind
    checks.push({
      name: "electron",
      ok: existsSync(runtime.executablePath),
      required: true,
      detail: `${runtime.kind === "electron" ? "real Electron" : "Electron stand-in"} at ${runtime.executablePath} (${runtime.reason})`
    })
  } catch (error) {
    // No default Electron is not an error (a launch uses the app's own electron package); a
    // STAGEWRIGHT_ELECTRON that names nothing is.
    const configured = (process.env.STAGEWRIGHT_ELECTRON ?? "") !== ""
    checks.push({
      name: "electron",
      ok: false,
      required: configured,
      detail: configured ? (error as Error).message : `no default Electron (launches use the app's own electron package): ${(error as Error).message}`
    })
  }
  const chromium = process.env.STAGEWRIGHT_CHROMIUM ?? "/usr/lib/chromium/chromium"
  const haveChromium = existsSync(chromium)
  checks.push({
    name: "chromium",
    ok: haveChromium,
    required: runtimeKind === "standin",
    detail: haveChromium ? chromium : `${chromium} missing (the stand-in needs it: sudo apt-get install -y chromium)`
  })
  checks.push(displayCheck(process.env, runtimeKind, process.platform, input.xvfb ?? "auto").check)
  const outputProblem = writable(input.outputDir)
  checks.push({ name: "output dir", ok: outputProblem === undefined, required: true, detail: outputProblem ?? input.outputDir })
  if (input.screenshotDir !== undefined) {
    const problem = writable(input.screenshotDir)
    checks.push({ name: "screenshot dir", ok: problem === undefined, required: true, detail: problem ?? input.screenshotDir })
  }
  checks.push({
    name: "policy",
    ok: input.pluginProblem === undefined,
    required: true,
    detail: `profile ${input.profile}; eval ${input.allowEval.length > 0 ? input.allowEval.join(", ") : "off"}; plugins ${input.plugins.join(", ") || "none"}${input.pluginProblem ? ` — ${input.pluginProblem}` : ""}`
  })
  return checks
}
