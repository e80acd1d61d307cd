/**
 * Vitest global setup: bundles the React `framework` sample app once before any test runs
 * (test/fixtures/apps/framework/build.mjs skips the build when dist/renderer.js is up to date).
 */
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { packageRoot } from "../src/layers/electron-runtime.js"

interface FrameworkBuild {
  readonly buildFrameworkApp: (options?: { force?: boolean; log?: (line: string) => void }) => Promise<{
    outfile: string
    built: boolean
    ms: number
  }>
}

export default async function setup(): Promise<void> {
  const script = join(packageRoot(), "test", "fixtures", "apps", "framework", "build.mjs")
  const { buildFrameworkApp } = (await import(pathToFileURL(script).href)) as FrameworkBuild
  await buildFrameworkApp()
}
