/** What a launch says when the app's electron package was installed without its binary: doctor's command to fix it. */
import { describe, expect, it } from "@effect/vitest"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { resolveElectronRuntime } from "../../src/layers/driver/electron-runtime.js"

describe("the Electron a launch runs", () => {
  it("an electron package without its binary: the error gives doctor's download command", () => {
    const app = mkdtempSync(join(tmpdir(), "sw-nobinary-"))
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "nobinary", main: "main.js", devDependencies: { electron: "^30.0.0" } }))
    writeFileSync(join(app, "main.js"), "")
    const pkg = join(app, "node_modules", "electron")
    mkdirSync(pkg, { recursive: true })
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "electron", version: "30.0.0" }))
    expect(() => resolveElectronRuntime({}, app)).toThrow(`download it with node ${join(pkg, "install.js")}`)
  })
})
