/**
 * `stagewright doctor --app DIR`: the built bin on sample apps, temporary app folders and packaged-build
 * fixtures (fuse-wired by test/plugins/production-fixture.ts), and the parts (addon inventory, version
 * probe) called directly for their limits.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { FuseV1Options } from "@electron/fuses"
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { probeVersions } from "../../src/cli/binary-versions.js"
import { inventoryAddons } from "../../src/cli/native-addons.js"
import { standinExecutable } from "../../src/layers/driver/electron-runtime.js"
import { sampleAppPath } from "../../src/samples.js"
import { runCli } from "../support/cli.js"
import { linuxBuild, RELEASE_FUSES, tempProject } from "../plugins/production-fixture.js"

interface Check {
  readonly name: string
  readonly ok: boolean
  readonly required: boolean
  readonly detail: string
  readonly next?: string
}
interface Report {
  readonly ok: boolean
  readonly checks: ReadonlyArray<Check>
  readonly app: {
    readonly kind: string
    readonly installedElectron?: { readonly version?: string; readonly packageDir?: string; readonly binary?: string }
    readonly launch?: { readonly kind?: string; readonly executablePath?: string; readonly reason?: string; readonly error?: string }
    readonly versions?: {
      readonly node?: string
      readonly v8?: string
      readonly modules?: string
      readonly electron?: string
      readonly skipped?: string
      readonly error?: string
    }
    readonly fuses?: { readonly wire?: Record<string, string> }
    readonly addons?: {
      readonly addons: ReadonlyArray<{ readonly shown: string; readonly abi: { readonly kind: string; readonly modules?: number } }>
      readonly cut: ReadonlyArray<string>
    }
  }
}

const temps: Array<string> = []
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `stagewright-doctor-${name}-`))
  temps.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
})

const standinEnv = { ...process.env, STAGEWRIGHT_ELECTRON: "standin" }
const noElectronEnv = (() => {
  const env = { ...process.env }
  delete env.STAGEWRIGHT_ELECTRON
  return env
})()

const doctor = async (app: string, env: NodeJS.ProcessEnv = standinEnv) => {
  const run = await runCli(["doctor", "--app", app, "--json"], env)
  return { status: run.status, report: JSON.parse(run.stdout) as Report, stderr: run.stderr }
}
const check = (report: Report, name: string) => report.checks.filter((c) => c.name === name)

/** A copy of the tasks sample app in the temp folder (no electron package resolves from there). */
const tasksCopy = (name: string) => {
  const dir = join(temp(name), "app")
  cpSync(sampleAppPath("tasks"), dir, { recursive: true })
  return dir
}

const fakeAddon = (app: string, relative: string, symbol: string) => {
  const file = join(app, relative)
  mkdirSync(join(file, ".."), { recursive: true })
  // Enough of a shared object for the scan: ELF magic, padding, the registration symbol among other strings.
  writeFileSync(
    file,
    Buffer.concat([Buffer.from("\x7fELF\x02\x01\x01", "latin1"), Buffer.alloc(4096), Buffer.from(`\0memcpy\0${symbol}\0__cxa_finalize\0`, "latin1")])
  )
  return file
}

const modules = Number(process.versions.modules)

describe("stagewright doctor --app", { timeout: 180_000 }, () => {
  it("reads Node, V8 and NODE_MODULE_VERSION from the stand-in a launch of a sample app would use", async () => {
    const { status, report } = await doctor(sampleAppPath("tasks"))
    expect(status).toBe(0)
    expect(report.ok).toBe(true)
    expect(report.app.kind).toBe("app")
    expect(report.app.launch).toMatchObject({ kind: "standin", executablePath: standinExecutable() })
    expect(report.app.versions).toMatchObject({
      node: process.versions.node,
      v8: process.versions.v8,
      modules: process.versions.modules,
      electron: "0.0.0-standin"
    })
    expect(check(report, "binary versions")[0]?.detail).toContain(`NODE_MODULE_VERSION ${process.versions.modules}`)
    expect(check(report, "display")).toHaveLength(1)
    const human = await runCli(["doctor", "--app", sampleAppPath("tasks")], standinEnv)
    expect(human.stdout).toMatch(/^ok {3}launch runtime +the Electron stand-in at /m)
    expect(human.stdout).toMatch(/^ok {3}binary versions +node \d/m)
  })

  it("warns about an addon built for another NODE_MODULE_VERSION, naming it and both ABIs; an N-API addon passes", async () => {
    const app = tasksCopy("addons")
    const wrong = modules + 13
    fakeAddon(app, "node_modules/fake-addon/build/Release/fake.node", `node_register_module_v${wrong}`)
    fakeAddon(app, "node_modules/napi-addon/build/Release/napi.node", "napi_register_module_v1")
    fakeAddon(app, "node_modules/same-addon/build/Release/same.node", `node_register_module_v${modules}`)
    const { status, report } = await doctor(app)
    expect(status).toBe(0)
    const warnings = check(report, "native addon")
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ ok: false, required: false })
    expect(warnings[0]?.detail).toContain(join("node_modules", "fake-addon", "build", "Release", "fake.node"))
    expect(warnings[0]?.detail).toContain(`NODE_MODULE_VERSION ${wrong}`)
    expect(warnings[0]?.detail).toContain(`expects ${modules}`)
    expect(warnings[0]?.next).toContain("npx @electron/rebuild")
    expect(report.app.addons?.addons.map((a) => [a.shown.split("/").pop(), a.abi.kind, a.abi.modules]).sort()).toEqual([
      ["fake.node", "node", wrong],
      ["napi.node", "napi", undefined],
      ["same.node", "node", modules]
    ])
    expect(check(report, "native addons")[0]?.detail).toContain("3 native addon(s)")
  })

  it("reports the app's own electron package and its binary as what a launch runs", async () => {
    const app = tasksCopy("own-electron")
    const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as Record<string, unknown>
    writeFileSync(join(app, "package.json"), JSON.stringify({ ...pkg, devDependencies: { electron: "^31.0.0" } }))
    const electron = join(app, "node_modules", "electron")
    mkdirSync(join(electron, "dist"), { recursive: true })
    writeFileSync(join(electron, "package.json"), JSON.stringify({ name: "electron", version: "31.2.0" }))
    writeFileSync(join(electron, "path.txt"), "electron")
    const binary = join(electron, "dist", "electron")
    // A script standing for Electron's binary: it runs the stand-in.
    writeFileSync(binary, `#!/bin/sh\nexec ${JSON.stringify(standinExecutable())} "$@"\n`)
    chmodSync(binary, 0o755)
    const { status, report } = await doctor(app)
    expect(status).toBe(0)
    expect(report.app.installedElectron).toMatchObject({ version: "31.2.0", binary })
    expect(report.app.launch).toMatchObject({ kind: "electron", executablePath: binary })
    expect(report.app.launch?.reason).toContain("the app's own electron 31.2.0")
    expect(check(report, "app electron")[0]).toMatchObject({ ok: true })
    expect(check(report, "app electron")[0]?.detail).toContain("declares electron ^31.0.0 (devDependencies); installed 31.2.0")
    expect(check(report, "launch runtime")[0]?.detail).toContain(binary)
    expect(report.app.versions).toMatchObject({ modules: process.versions.modules })
  })

  it("fails, naming the places looked, when no Electron can run the app", async () => {
    const app = tasksCopy("no-electron")
    const { status, report } = await doctor(app, noElectronEnv)
    expect(status).toBe(1)
    expect(report.ok).toBe(false)
    const launch = check(report, "launch runtime")[0]
    expect(launch).toMatchObject({ ok: false, required: true })
    expect(launch?.detail).toContain(`no electron package resolves from ${app}`)
    expect(launch?.detail).toContain("STAGEWRIGHT_ELECTRON is not set")
    // Warnings alone do not fail: the display and the electron package are warnings here.
    expect(report.checks.filter((c) => !c.ok && c.required).map((c) => c.name)).toEqual(["launch runtime"])
  })

  it("fails for a folder that does not exist or is not an app", async () => {
    const missing = await doctor(join(temp("missing"), "nothing-here"))
    expect(missing.status).toBe(1)
    expect(check(missing.report, "app")[0]?.detail).toContain("does not exist")
    const empty = await doctor(temp("empty"))
    expect(empty.status).toBe(1)
    expect(check(empty.report, "app")[0]?.detail).toContain("has no package.json")
  })

  it("lists the fuses of a packaged build; inspect off warns that a launch goes over CDP; RunAsNode off skips the version read", async () => {
    const project = tempProject("doctor-fuses")
    temps.push(project)
    const { dir } = await linuxBuild(project, "hardened", { ...RELEASE_FUSES, [FuseV1Options.EnableNodeCliInspectArguments]: false })
    for (const target of [dir, project]) {
      const { status, report } = await doctor(target)
      expect(status).toBe(0)
      expect(report.app.kind).toBe("packaged")
      expect(report.app.fuses?.wire).toMatchObject({ EnableNodeCliInspectArguments: "disabled", RunAsNode: "disabled" })
      const fuses = check(report, "fuses")[0]
      expect(fuses).toMatchObject({ ok: false, required: false })
      expect(fuses?.detail).toContain("EnableNodeCliInspectArguments=disabled")
      expect(fuses?.detail).toContain("goes over CDP")
      expect(fuses?.next).toContain("electron_attach")
      expect(report.app.versions?.skipped).toContain("RunAsNode is off")
      expect(check(report, "binary versions")[0]?.detail).toContain("RunAsNode is off")
    }
  })

  it("reads the versions through a packaged build whose RunAsNode fuse is on", async () => {
    const project = tempProject("doctor-stock")
    temps.push(project)
    const { dir, executable } = await linuxBuild(project, "insecure", {})
    const { status, report } = await doctor(dir)
    expect(status).toBe(0)
    expect(report.app.launch?.executablePath).toBe(executable)
    expect(report.app.fuses?.wire).toMatchObject({ RunAsNode: "enabled", EnableNodeCliInspectArguments: "enabled" })
    expect(check(report, "fuses")[0]?.ok).toBe(true)
    expect(report.app.versions).toMatchObject({ node: process.versions.node, modules: process.versions.modules })
  })

  it("says when the addon walk was cut by its depth limit, and follows a symlink loop only once", async () => {
    const app = tasksCopy("deep")
    let deep = join(app, "node_modules")
    for (let i = 0; i < 20; i++) deep = join(deep, `d${i}`)
    fakeAddon(deep, "too-deep.node", "napi_register_module_v1")
    fakeAddon(app, "node_modules/shallow/shallow.node", "napi_register_module_v1")
    symlinkSync(app, join(app, "node_modules", "loop"), "dir")
    const { status, report } = await doctor(app)
    expect(status).toBe(0)
    expect(report.app.addons?.cut.join()).toContain("deeper than 12 levels")
    expect(report.app.addons?.addons.map((a) => a.shown)).toEqual([join("node_modules", "shallow", "shallow.node")])
    const summary = check(report, "native addons")[0]
    expect(summary).toMatchObject({ ok: false, required: false })
    expect(summary?.detail).toContain("walk cut")
  })

  it.live("stops the addon walk at its entry, addon and byte limits", () =>
    Effect.gen(function* () {
      const root = temp("wide")
      for (let i = 0; i < 30; i++) fakeAddon(root, join(`p${i}`, "a.node"), "napi_register_module_v1")
      const byEntries = yield* inventoryAddons(root, { maxEntries: 20 })
      expect(byEntries.entries).toBe(20)
      expect(byEntries.cut.join()).toContain("after 20 directory entries")
      const byAddons = yield* inventoryAddons(root, { maxAddons: 5 })
      expect(byAddons.addons).toHaveLength(5)
      expect(byAddons.cut.join()).toContain("after 5 addons")
      const byBytes = yield* inventoryAddons(root, { maxTotalScanBytes: 10_000 })
      expect(byBytes.addons.filter((a) => a.abi.kind === "napi")).toHaveLength(3)
      expect(byBytes.addons.filter((a) => a.abi.kind === "unknown")).toHaveLength(27)
      expect(byBytes.cut.join()).toContain("read from names only")
      const whole = yield* inventoryAddons(root)
      expect(whole.addons).toHaveLength(30)
      expect(whole.cut).toEqual([])
    })
  )

  it.live("kills a binary that does not answer in time, and refuses output over the cap", () =>
    Effect.gen(function* () {
      const dir = temp("probe")
      const pidFile = join(dir, "pid")
      const silent = join(dir, "silent")
      writeFileSync(silent, `#!/bin/sh\necho $$ > ${JSON.stringify(pidFile)}\nexec sleep 600\n`)
      const chatty = join(dir, "chatty")
      writeFileSync(chatty, "#!/bin/sh\nhead -c 200000 /dev/zero\n")
      chmodSync(silent, 0o755)
      chmodSync(chatty, 0o755)
      const timedOut = yield* Effect.either(probeVersions(silent, { timeoutMs: 3_000 }))
      expect(Either.isLeft(timedOut) && timedOut.left.reason).toContain("did not answer within 3000 ms: killed")
      const pid = Number(readFileSync(pidFile, "utf8").trim())
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/)
      const capped = yield* Effect.either(probeVersions(chatty))
      expect(Either.isLeft(capped) && capped.left.reason).toContain("more than 65536 bytes")
    })
  )
})
