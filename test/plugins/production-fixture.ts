/**
 * Packaged-build fixtures for the production plugin, made in a test's setup (nothing binary is committed):
 * - an electron-builder Linux layout `dist/linux-unpacked/<name>` + `resources/app.asar` packed with
 *   @electron/asar from a sample app. Its executable is a small Node script that carries a fuse wire in
 *   @electron/fuses' own format (the sentinel, the wire version 1, the wire length, one '0'/'1' byte per fuse)
 *   in a comment, and runs the stand-in on the asar's content (the stand-in cannot read asar archives, so
 *   the archive is extracted beside it); fuses are flipped with @electron/fuses' flipFuses. Like Electron,
 *   it ignores --inspect when EnableNodeCliInspectArguments is off, and ELECTRON_RUN_AS_NODE when RunAsNode is off.
 * - a macOS layout `<Product>.app` with Info.plist (CFBundleExecutable, ElectronAsarIntegrity = SHA256 of
 *   the asar header) and the fuse wire in `Frameworks/Electron Framework.framework/Electron Framework`.
 */
import { createPackage, extractAll, getRawHeader } from "@electron/asar"
import { flipFuses, FuseV1Options, FuseVersion } from "@electron/fuses"
import { createHash } from "node:crypto"
import { chmodSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"
import { sampleAppPath } from "../../src/samples.js"

export const SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX"
/** A stock Electron wire of 8 fuses (version byte 1, length byte 8), at Electron's defaults: RunAsNode, NodeOptions, --inspect and file: privileges on; cookie encryption, asar integrity, asar-only and the browser snapshot off. */
const STOCK_WIRE = `${SENTINEL}\x01\x0810110001`

export type FuseSettings = Partial<Record<FuseV1Options, boolean>>

/** Release settings: what Electron's docs recommend, but with --inspect kept on so Stagewright can drive it. */
export const RELEASE_FUSES: FuseSettings = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: true,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false
}

const launcher = (boot: string) => `#!/usr/bin/env node
// Test fixture: the executable of a packaged Electron build, played by the Electron stand-in.
// ${STOCK_WIRE}
'use strict'
const fs = require('fs')
const path = require('path')
const self = fs.readFileSync(__filename, 'latin1')
// The sentinel is spelt in two halves here: it must occur once in the file, in the wire above.
const sentinel = ['${SENTINEL.slice(0, 16)}', '${SENTINEL.slice(16)}'].join('')
const wire = self.slice(self.indexOf(sentinel) + sentinel.length)
const inspectAllowed = wire.charAt(2 + ${FuseV1Options.EnableNodeCliInspectArguments}) !== '0'
let args = process.argv.slice(2)
if (!inspectAllowed) args = args.filter((arg) => !/^--inspect/.test(arg))
// With the fuse off Electron does not open its inspector on SIGUSR1 either (a listener keeps Node from doing so).
if (!inspectAllowed) process.on('SIGUSR1', () => {})
// With RunAsNode off, Electron ignores ELECTRON_RUN_AS_NODE; with it on, the binary is plain Node (no app).
if (wire.charAt(2 + ${FuseV1Options.RunAsNode}) === '0') delete process.env.ELECTRON_RUN_AS_NODE
if (!process.env.ELECTRON_RUN_AS_NODE) {
  // A packaged app takes no app path: Electron runs resources/app.asar (here its extracted copy).
  const at = args.findIndex((arg) => !arg.startsWith('-'))
  args.splice(at === -1 ? args.length : at, 0, path.join(__dirname, 'standin-app'))
}
process.argv = [process.argv[0], process.argv[1], ...args]
require(${JSON.stringify(boot)}).main()
`

const pack = async (app: string, asarPath: string) => {
  await createPackage(app, asarPath)
  return createHash("sha256").update(getRawHeader(asarPath).headerString).digest("hex")
}

/** A Linux electron-builder build of a sample app under `project/dist/linux-unpacked`. */
export const linuxBuild = async (project: string, app: "hardened" | "insecure", fuses: FuseSettings, executableName = app) => {
  const dir = join(project, "dist", "linux-unpacked")
  mkdirSync(join(dir, "resources"), { recursive: true })
  const asarPath = join(dir, "resources", "app.asar")
  await pack(sampleAppPath(app), asarPath)
  extractAll(asarPath, join(dir, "standin-app"))
  const executable = join(dir, executableName)
  writeFileSync(executable, launcher(join(packageRoot(), "test", "fixtures", "electron-standin", "lib", "boot.js")), "latin1")
  chmodSync(executable, 0o755)
  writeFileSync(join(dir, "chrome-sandbox"), "")
  chmodSync(join(dir, "chrome-sandbox"), 0o755)
  await flipFuses(executable, { version: FuseVersion.V1, ...fuses })
  return { dir, executable, asarPath }
}

/** A macOS electron-builder build (`project/dist/mac/<Product>.app`), dated `ageMs` ago, with ElectronAsarIntegrity recorded. */
export const macBuild = async (project: string, app: "hardened" | "insecure", fuses: FuseSettings, ageMs = 3_600_000) => {
  const product = app === "hardened" ? "Hardened Demo" : "Insecure Demo"
  const bundle = join(project, "dist", "mac", `${product}.app`)
  const contents = join(bundle, "Contents")
  const framework = join(contents, "Frameworks", "Electron Framework.framework")
  for (const dir of [join(contents, "MacOS"), join(contents, "Resources"), framework]) mkdirSync(dir, { recursive: true })
  const asarPath = join(contents, "Resources", "app.asar")
  const hash = await pack(sampleAppPath(app), asarPath)
  writeFileSync(join(contents, "MacOS", product), "#!/bin/sh\necho 'a macOS executable (fixture)'\n")
  chmodSync(join(contents, "MacOS", product), 0o755)
  writeFileSync(join(framework, "Electron Framework"), `fixture framework binary ${STOCK_WIRE} end`, "latin1")
  await flipFuses(bundle, { version: FuseVersion.V1, ...fuses })
  const plist = (recorded: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>CFBundleExecutable</key>
  <string>${product}</string>
  <key>ElectronAsarIntegrity</key>
  <dict>
    <key>Resources/app.asar</key>
    <dict>
      <key>algorithm</key>
      <string>SHA256</string>
      <key>hash</key>
      <string>${recorded}</string>
    </dict>
  </dict>
</dict>
</plist>
`
  const writePlist = (recorded: string) => writeFileSync(join(contents, "Info.plist"), plist(recorded))
  writePlist(hash)
  const past = new Date(Date.now() - ageMs)
  utimesSync(asarPath, past, past)
  return { bundle, asarPath, hash, writePlist }
}

export const tempProject = (name: string) => mkdtempSync(join(tmpdir(), `stagewright-${name}-`))
