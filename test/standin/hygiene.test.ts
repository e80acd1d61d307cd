/**
 * Process hygiene: no Node or Chromium process and no profile folder is left after a normal close, after
 * the process that launched the app is killed, and after the app's main process crashes. Checked by pid
 * and path with bounded polls, never by sleeping.
 */
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { appFootprint, fixture, fixturesDir, isStandin, launch, loadedFirstWindow, runtime, waitUntilGone } from "./helpers.js"

describe(`process hygiene on ${runtime.kind}`, () => {
  it("leaves no process and no profile after a normal close", async () => {
    const app = await launch(fixture("bare/main.js"))
    await loadedFirstWindow(app, /^data:/)
    const footprint = await appFootprint(app)
    expect(footprint.pids.length).toBeGreaterThan(2)
    if (isStandin) expect(existsSync(footprint.paths[0]!)).toBe(true)
    const started = Date.now()
    await app.close()
    const closeMs = Date.now() - started
    await expect(waitUntilGone(footprint.pids, footprint.paths)).resolves.toEqual({ pids: [], paths: [] })
    expect(closeMs).toBeLessThan(15_000)
  })

  // Real Electron does not watch the process that launched it (Playwright's process-group kill covers a test
  // process that exits normally); quitting when the launcher is gone is the stand-in's own guarantee.
  it.skipIf(!isStandin)("[stand-in only] leaves nothing behind when the process that launched the app is killed", async () => {
    // The killed launcher cannot remove playwright-core's artifacts folder: give it a temp folder of its own.
    const temp = mkdtempSync(join(tmpdir(), "sw-hygiene-tmp-"))
    const child = spawn(
      process.execPath,
      [`${fixturesDir}/launcher-child.mjs`, runtime.executablePath, fixture("bare/main.js"), ...(isStandin ? ["--standin"] : [])],
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: temp } }
    )
    let output = ""
    const report = await new Promise<{ pid: number; pids: Array<number>; profileDir: string | null }>((resolve, reject) => {
      child.stdout!.on("data", (chunk) => {
        output += String(chunk)
        if (output.includes("\n")) resolve(JSON.parse(output.split("\n")[0]!))
      })
      child.once("exit", (code) => reject(new Error(`launcher exited early (${code}): ${output}`)))
    })
    expect(report.pids.length).toBeGreaterThan(2)
    child.kill("SIGKILL")
    const left = await waitUntilGone(report.pids, report.profileDir ? [report.profileDir] : [])
    expect(left).toEqual({ pids: [], paths: [] })
    rmSync(temp, { recursive: true, force: true })
  })

  it("leaves nothing behind when the main process crashes", async () => {
    const app = await launch(fixture("bare/main.js"))
    await loadedFirstWindow(app, /^data:/)
    const footprint = await appFootprint(app)
    const closed = new Promise<void>((resolve) => app.once("close", () => resolve()))
    await app.evaluate(() => {
      setTimeout(() => process.kill(process.pid, "SIGKILL"), 20)
    })
    await closed
    await expect(waitUntilGone(footprint.pids, footprint.paths)).resolves.toEqual({ pids: [], paths: [] })
  })
})
