#!/usr/bin/env node
// Makes sure Debian's Chromium is present (the Electron stand-in and the tests need it) and, on Linux,
// Xvfb (a headed app without DISPLAY gets a private virtual display: src/layers/driver/xvfb.ts; the tests
// run the stand-in headed on one). Installs what is missing with apt-get when running as root;
// otherwise says exactly what to run. Nothing here downloads anything but Debian's own packages.
import { existsSync } from "node:fs"
import { spawnSync } from "node:child_process"

const CHROMIUM = process.env.STAGEWRIGHT_CHROMIUM ?? "/usr/lib/chromium/chromium"
const log = (line) => process.stderr.write(`[setup] ${line}\n`)

const haveChromium = () => existsSync(CHROMIUM)
const onPath = (name) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0
const haveXvfb = () => process.platform !== "linux" || onPath("Xvfb")

if (!haveChromium() && process.env.STAGEWRIGHT_ELECTRON) {
  log(`Chromium not found at ${CHROMIUM}; continuing because STAGEWRIGHT_ELECTRON is set (${process.env.STAGEWRIGHT_ELECTRON}).`)
}

/** What is missing, as Debian package names (Chromium is not needed with a real Electron). */
const missing = () => [
  ...(!haveChromium() && !process.env.STAGEWRIGHT_ELECTRON ? ["chromium"] : []),
  ...(!haveXvfb() ? ["xvfb"] : [])
]

const wanted = missing()
if (wanted.length === 0) process.exit(0)

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const hasApt = onPath("apt-get")
if (isRoot && hasApt) {
  log(`Debian's ${wanted.join(" and ")} package${wanted.length > 1 ? "s are" : " is"} missing: installing with apt-get (this takes a minute) ...`)
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env })
  const install = update.status === 0
    ? spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...wanted], { stdio: ["ignore", "ignore", "inherit"], env })
    : update
  const still = missing()
  if (install.status === 0 && still.length === 0) {
    log(`installed: ${wanted.join(", ")}`)
    process.exit(0)
  }
  log(`apt-get could not install ${wanted.join(" and ")} (see its messages above).`)
}
const left = missing()
if (left.includes("chromium")) {
  log(`Chromium is required at ${CHROMIUM} (Debian's chromium package) and was not found.`)
  log("Install it with:  sudo apt-get update && sudo apt-get install -y chromium")
  log("or point STAGEWRIGHT_CHROMIUM at a Chromium binary, or STAGEWRIGHT_ELECTRON at a real Electron.")
}
if (left.includes("xvfb")) {
  log("Xvfb is required on Linux (a headed app without DISPLAY runs on a private Xvfb display) and was not found on PATH.")
  log("Install it with:  sudo apt-get update && sudo apt-get install -y xvfb")
}
process.exit(left.length === 0 ? 0 : 1)
