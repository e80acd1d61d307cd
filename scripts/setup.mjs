#!/usr/bin/env node
// Makes sure Debian's Chromium is present (the Electron stand-in and the tests need it) and, on Linux,
// Xvfb (a headed app without DISPLAY gets a private virtual display: src/layers/driver/xvfb.ts; the tests
// run the stand-in headed on one), and, optionally, ffmpeg (the video plugin encodes its recordings with it;
// without it the plugin says so and records nothing: a missing ffmpeg never fails the setup). Installs what
// is missing with apt-get when running as root; otherwise says exactly what to run. Nothing here downloads
// anything but Debian's own packages.
import { existsSync } from "node:fs"
import { spawnSync } from "node:child_process"

const CHROMIUM = process.env.STAGEWRIGHT_CHROMIUM ?? "/usr/lib/chromium/chromium"
const log = (line) => process.stderr.write(`[setup] ${line}\n`)

const haveChromium = () => existsSync(CHROMIUM)
const onPath = (name) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0
const haveXvfb = () => process.platform !== "linux" || onPath("Xvfb")
const haveFfmpeg = () => onPath("ffmpeg") && onPath("ffprobe")

if (!haveChromium() && process.env.STAGEWRIGHT_ELECTRON) {
  log(`Chromium not found at ${CHROMIUM}; continuing because STAGEWRIGHT_ELECTRON is set (${process.env.STAGEWRIGHT_ELECTRON}).`)
}

/** What is missing, as Debian package names (Chromium is not needed with a real Electron). */
const missing = () => [...(!haveChromium() && !process.env.STAGEWRIGHT_ELECTRON ? ["chromium"] : []), ...(!haveXvfb() ? ["xvfb"] : [])]

/** Optional: the video plugin's encoder (Debian's ffmpeg package has ffprobe too). */
const missingOptional = () => (haveFfmpeg() ? [] : ["ffmpeg"])

const wanted = missing()
const optional = missingOptional()
if (wanted.length === 0 && optional.length === 0) process.exit(0)

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const hasApt = onPath("apt-get")
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
const aptInstall = (packages) =>
  spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: ["ignore", "ignore", "inherit"], env })
if (isRoot && hasApt) {
  const all = [...wanted, ...optional]
  log(`Debian's ${all.join(" and ")} package${all.length > 1 ? "s are" : " is"} missing: installing with apt-get (this takes a minute) ...`)
  const update = spawnSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env })
  // The required packages first and on their own: an optional one that cannot be installed never holds them up.
  if (update.status === 0 && wanted.length > 0) aptInstall(wanted)
  if (update.status === 0 && optional.length > 0) aptInstall(optional)
  const done = all.filter((p) => ![...missing(), ...missingOptional()].includes(p))
  if (done.length > 0) log(`installed: ${done.join(", ")}`)
  const failed = all.filter((p) => !done.includes(p))
  if (failed.length > 0) log(`apt-get could not install ${failed.join(" and ")} (see its messages above).`)
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
if (missingOptional().includes("ffmpeg")) {
  log("ffmpeg (optional) was not found on PATH: the video plugin (--plugin video) records nothing without it and says so; its tests need it.")
  log('Install it with:  sudo apt-get update && sudo apt-get install -y ffmpeg   (or give its path: --plugin-config video={"ffmpeg":"/path/to/ffmpeg"})')
}
process.exit(left.length === 0 ? 0 : 1)
