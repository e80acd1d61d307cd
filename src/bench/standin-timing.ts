/**
 * Records launch-to-first-window and close times of the Electron runtime (the stand-in unless
 * STAGEWRIGHT_ELECTRON names a real Electron) over several runs, with unmodified playwright-core.
 *
 *   npm run bench:standin -- [runs]        (default 10 runs, on the tasks sample app)
 *
 * Writes bench/out/standin-timing.json and prints min / median / max.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { _electron } from "playwright-core"
import { resolveElectronRuntime } from "../index.js"
import { sampleAppPath } from "../samples.js"
import { repoRoot } from "./repo-root.js"

const runs = Number(process.argv[2] ?? 10)
const runtime = resolveElectronRuntime()

const stats = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted[sorted.length - 1]! }
}

const main = async () => {
  const launch: Array<number> = []
  const content: Array<number> = []
  const close: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const userData = mkdtempSync(join(tmpdir(), "stagewright-bench-"))
    const t0 = performance.now()
    const app = await _electron.launch({
      executablePath: runtime.executablePath,
      args: [sampleAppPath("tasks")],
      env: { ...process.env, SAMPLE_APP_USER_DATA: userData } as Record<string, string>
    })
    const page = await app.firstWindow()
    const t1 = performance.now()
    await page.getByRole("heading", { name: "Task Board" }).waitFor()
    const t2 = performance.now()
    await app.close()
    const t3 = performance.now()
    launch.push(t1 - t0)
    content.push(t2 - t0)
    close.push(t3 - t2)
    rmSync(userData, { recursive: true, force: true })
  }
  const report = {
    date: new Date().toISOString(),
    runtime: runtime.kind,
    runs,
    launchToFirstWindowMs: stats(launch),
    launchToContentMs: stats(content),
    closeMs: stats(close)
  }
  mkdirSync(join(repoRoot(), "bench", "out"), { recursive: true })
  writeFileSync(join(repoRoot(), "bench", "out", "standin-timing.json"), JSON.stringify(report, null, 2) + "\n")
  const fmt = (s: { min: number; median: number; max: number }) => `min ${s.min.toFixed(0)} / median ${s.median.toFixed(0)} / max ${s.max.toFixed(0)} ms`
  process.stdout.write(`${runtime.kind}, ${runs} runs on the tasks app\n`)
  process.stdout.write(`launch -> first window: ${fmt(report.launchToFirstWindowMs)}\n`)
  process.stdout.write(`launch -> heading visible: ${fmt(report.launchToContentMs)}\n`)
  process.stdout.write(`close: ${fmt(report.closeMs)}\n`)
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exitCode = 1
})
