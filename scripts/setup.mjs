#!/usr/bin/env node
// Makes sure Debian's Chromium is present: the Electron stand-in and the tests need it.
// Installs it with apt-get when running as root and it is missing; otherwise says exactly what to run.
// Nothing here downloads a browser from anywhere but Debian's own package archive.
import { existsSync } from "node:fs"
import { spawnSync } from "node:child_process"

const CHROMIUM = process.env.STAGEWRIGHT_CHROMIUM ?? "/usr/lib/chromium/chromium"
const log = (line) => process.stderr.write(`[setup] ${line}\n`)

const haveChromium = () => existsSync(CHROMIUM)

if (haveChromium()) {
  process.exit(0)
}
if (process.env.STAGEWRIGHT_ELECTRON) {
  log(`Chromium not found at ${CHROMIUM}; continuing because STAGEWRIGHT_ELECTRON is set (${process.env.STAGEWRIGHT_ELECTRON}).`)
  process.exit(0)
}
const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0
if (isRoot && hasApt) {
  log("Debian's chromium package is missing: installing it with apt-get (this takes a minute) ...")
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env })
  const install = update.status === 0
    ? spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { stdio: ["ignore", "ignore", "inherit"], env })
    : update
  if (install.status === 0 && haveChromium()) {
    log(`installed: ${CHROMIUM}`)
    process.exit(0)
  }
  log("apt-get could not install chromium (see its messages above).")
}
log(`Chromium is required at ${CHROMIUM} (Debian's chromium package) and was not found.`)
log("Install it with:  sudo apt-get update && sudo apt-get install -y chromium")
log("or point STAGEWRIGHT_CHROMIUM at a Chromium binary, or STAGEWRIGHT_ELECTRON at a real Electron.")
process.exit(1)
