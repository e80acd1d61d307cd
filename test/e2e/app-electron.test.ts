/**
 * Without executablePath, electron_launch runs the Electron the app depends on (its electron package's
 * binary, found in the app's own folders, read from path.txt), never a fallback: with no
 * electron package and no STAGEWRIGHT_ELECTRON the launch fails at once naming where it looked, and an
 * electron package in a folder above the app's package.json (planted in a parent) is never looked at. The app's "electron" here is a script that
 * records it ran, then runs the stand-in (or the real Electron given by STAGEWRIGHT_ELECTRON).
 */
import { describe, expect, it } from "@effect/vitest"
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { resolveElectronRuntime } from "../../src/index.js"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, stdioClient } from "../support/mcp.js"

/** An app folder (a copy of the tasks app) under `parent`, and an electron package in `packageHome`'s node_modules. */
const appWithElectron = (parent: string, packageHome: string, marker: string) => {
  const app = join(parent, "my-app")
  cpSync(sampleAppPath("tasks"), app, { recursive: true })
  const pkg = join(packageHome, "node_modules", "electron")
  mkdirSync(join(pkg, "dist"), { recursive: true })
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "electron", version: "99.1.0-test" }))
  writeFileSync(join(pkg, "path.txt"), "electron")
  // Electron's own index.js would start a download: it must never be imported.
  writeFileSync(join(pkg, "index.js"), `require("fs").writeFileSync(${JSON.stringify(marker + ".index")}, "imported"); module.exports = "nope"`)
  const real = resolveElectronRuntime({ ...process.env, STAGEWRIGHT_ELECTRON: process.env.STAGEWRIGHT_ELECTRON || "standin" }).executablePath
  writeFileSync(join(pkg, "dist", "electron"), `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\nexec ${JSON.stringify(real)} "$@"\n`)
  chmodSync(join(pkg, "dist", "electron"), 0o755)
  return { app, pkg }
}

describe("the app's own Electron", () => {
  it("runs the binary of the app's electron package, says so, and never imports its index.js", async () => {
    const home = mkdtempSync(join(tmpdir(), "sw-own-electron-"))
    const marker = join(home, "ran")
    const { app } = appWithElectron(home, join(home, "my-app"), marker)
    const mcp = await inMemoryClient()
    try {
      const launched = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
      expect(launched.isError, launched.text).toBe(false)
      expect(launched.structured.runtimeReason).toContain("the app's own electron 99.1.0-test")
      expect(launched.structured.executablePath).toBe(join(app, "node_modules", "electron", "dist", "electron"))
      expect(existsSync(marker)).toBe(true)
      expect(existsSync(marker + ".index")).toBe(false)
      expect((await mcp.call("electron_close")).isError).toBe(false)
    } finally {
      await mcp.close()
    }
  })

  it("with no electron package and no STAGEWRIGHT_ELECTRON, fails at once naming where it looked", async () => {
    const home = mkdtempSync(join(tmpdir(), "sw-no-electron-"))
    const app = join(home, "bare-app")
    cpSync(sampleAppPath("tasks"), app, { recursive: true })
    const mcp = await stdioClient([], { STAGEWRIGHT_ELECTRON: "" })
    try {
      const started = Date.now()
      const result = await mcp.call("electron_launch", { app })
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(result.code).toBe("LAUNCH_FAILED")
      expect(result.text).toContain(`no electron package resolves from ${app}`)
      expect(result.text).toContain("STAGEWRIGHT_ELECTRON is not set")
      expect(result.text).toContain("npm install --save-dev electron")
    } finally {
      await mcp.close()
    }
  })

  it("an electron package above the app's package.json never runs (with or without --app-root): the operator's STAGEWRIGHT_ELECTRON does, and the answer says so", async () => {
    const home = mkdtempSync(join(tmpdir(), "sw-outside-electron-"))
    const root = join(home, "root")
    mkdirSync(root)
    const marker = join(home, "ran")
    const { app } = appWithElectron(root, home, marker)
    for (const options of [{ appRoot: root }, {}]) {
      const mcp = await inMemoryClient(options)
      try {
        const result = await mcp.call("electron_launch", { app, env: { SAMPLE_APP_USER_DATA: freshUserData() } })
        expect(result.isError, result.text).toBe(false)
        expect(result.text).toContain("STAGEWRIGHT_ELECTRON")
        expect(existsSync(marker)).toBe(false)
        expect((await mcp.call("electron_close")).isError).toBe(false)
      } finally {
        await mcp.close()
      }
    }
    rmSync(home, { recursive: true, force: true })
  })
})
