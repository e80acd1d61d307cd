/**
 * Helpers for the tests of the Electron stand-in (test/fixtures/electron-standin). The same tests run on a
 * real Electron when one is configured (STAGEWRIGHT_ELECTRON): anything that reads the stand-in's
 * `__standin` export is named "[stand-in only]" and skipped there.
 */
import { _electron, type ElectronApplication, type Page } from "playwright-core"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { resolveElectronRuntime } from "../../src/layers/driver/electron-runtime.js"
import { descendants, isAlive } from "../support/processes.js"

export const runtime = resolveElectronRuntime()
export const isStandin = runtime.kind === "standin"

const here = dirname(fileURLToPath(import.meta.url))
export const fixturesDir = join(here, "..", "fixtures", "electron-standin-tests")

/** Path of a fixture app (folder) or script under test/fixtures/electron-standin-tests. */
export const fixture = (name: string): string => join(fixturesDir, name)

/** Launches an app (folder or main script) on the chosen runtime. */
export const launch = (app: string, options: { args?: Array<string>; env?: Record<string, string> } = {}): Promise<ElectronApplication> =>
  _electron.launch({
    executablePath: runtime.executablePath,
    args: [app, ...(options.args ?? [])],
    env: { ...(process.env as Record<string, string>), ...options.env },
    timeout: 30_000
  })

/** The first window once it has loaded a URL matching `url` (firstWindow() resolves when its first document commits, before load). */
export const loadedFirstWindow = async (app: ElectronApplication, url: RegExp): Promise<Page> => {
  const page = await app.firstWindow()
  await page.waitForURL(url)
  await page.waitForLoadState("load")
  return page
}

/** Polls until no pid runs and no path exists, up to `timeoutMs`; returns what is left. */
export const waitUntilGone = async (
  pids: ReadonlyArray<number>,
  paths: ReadonlyArray<string>,
  timeoutMs = 15_000
): Promise<{ pids: Array<number>; paths: Array<string> }> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const left = { pids: pids.filter(isAlive), paths: paths.filter((p) => existsSync(p)) }
    if ((left.pids.length === 0 && left.paths.length === 0) || Date.now() > deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Polls `read` until `accept` holds (or throws with the last value after `timeoutMs`). */
export const eventually = async <T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  let last: T
  for (;;) {
    last = await read()
    if (accept(last)) return last
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Every process of the app (main + descendants) and, on the stand-in, its Chromium profile folder. */
export const appFootprint = async (app: ElectronApplication): Promise<{ pids: Array<number>; paths: Array<string> }> => {
  const pid = app.process().pid!
  const paths = isStandin ? [await app.evaluate(({ __standin }: any) => __standin.chromium.profileDir as string)] : []
  return { pids: [pid, ...descendants(pid)], paths }
}

/** The app's page whose URL matches `url`, once it has loaded (a window may load several pages in turn). */
export const pageWithUrl = async (app: ElectronApplication, url: RegExp, timeoutMs = 15_000): Promise<Page> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = app.windows().find((candidate) => url.test(candidate.url()))
    if (found) {
      await found.waitForLoadState("load")
      return found
    }
    if (Date.now() > deadline)
      throw new Error(
        `no window at ${url} within ${timeoutMs} ms; windows: ${app
          .windows()
          .map((p) => p.url())
          .join(", ")}`
      )
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
