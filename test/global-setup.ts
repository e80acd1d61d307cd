/**
 * Vitest global setup: bundles the React `framework` sample app once before any test runs
 * (test/fixtures/apps/framework/build.mjs skips the build when dist/renderer.js is up to date), and gives
 * the run a temp folder of its own (TMPDIR, inherited by the test processes, the servers and apps they
 * start, and Chromium), removed when the run ends: user-data folders, output folders, profiles and
 * playwright-core's artifacts folders of a run do not pile up in the system's temp folder.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { packageRoot } from "../src/layers/driver/electron-runtime.js"

interface FrameworkBuild {
  readonly buildFrameworkApp: (options?: { force?: boolean; log?: (line: string) => void }) => Promise<{
    outfile: string
    built: boolean
    ms: number
  }>
}

export default async function setup(): Promise<() => void> {
  const script = join(packageRoot(), "test", "fixtures", "apps", "framework", "build.mjs")
  const { buildFrameworkApp } = (await import(pathToFileURL(script).href)) as FrameworkBuild
  await buildFrameworkApp()
  const runTemp = mkdtempSync(join(tmpdir(), "stagewright-tests-"))
  process.env.TMPDIR = runTemp
  // The tests run on the project's Electron stand-in, chosen by name (the product never falls back to it);
  // a real Electron is used instead when STAGEWRIGHT_ELECTRON names one.
  process.env.STAGEWRIGHT_ELECTRON ||= "standin"
  return () => rmSync(runTemp, { recursive: true, force: true })
}
