/**
 * Independent checks: what the app wrote to its data folder, what playwright-core reads from a fresh
 * launch of the app on that folder, and whether an exported test passes under @playwright/test. None
 * of them goes through the Stagewright server.
 */
import { execFile } from "node:child_process"
import { existsSync, readFileSync, readdirSync, rmSync, symlinkSync, mkdirSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { resolveElectronRuntime } from "../../index.js"
import { type Activity, readActivity, sampleAppPath } from "../../samples.js"

export interface Check {
  readonly ok: boolean
  readonly detail: string
}

export const pass = (detail: string): Check => ({ ok: true, detail })
export const fail = (detail: string): Check => ({ ok: false, detail })
export const all = (...checks: ReadonlyArray<Check>): Check => {
  const bad = checks.find((c) => !c.ok)
  return bad ?? pass(checks.map((c) => c.detail).join("; "))
}

export const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as unknown
  } catch {
    return undefined
  }
}

export interface SavedTask {
  readonly title: string
  readonly notes: string
  readonly priority: string
  readonly urgent: boolean
  readonly category: string
  readonly done: boolean
}
export interface SavedBoard {
  readonly board: { readonly name: string }
  readonly tasks: ReadonlyArray<SavedTask>
}

/** `<userData>/tasks.json` of the tasks app, when it saved one. */
export const savedBoard = (userData: string): SavedBoard | undefined => {
  const v = readJson(join(userData, "tasks.json")) as SavedBoard | undefined
  return v !== undefined && Array.isArray(v.tasks) ? v : undefined
}

export const savedSettings = (userData: string): { readonly theme?: string; readonly showCompleted?: boolean } | undefined =>
  readJson(join(userData, "settings.json")) as { theme?: string; showCompleted?: boolean } | undefined

/** The app's activity log for a check: an unreadable log reads as empty (the check then fails saying what is missing). */
export const activityOf = (userData: string): ReadonlyArray<Activity> => {
  try {
    return readActivity(userData)
  } catch {
    return []
  }
}

/** Passes when the app's activity log has an entry of this kind (and detail). */
export const routeTaken = (
  userData: string,
  kind: string,
  detail?: string | RegExp,
  what = `${kind}${detail !== undefined ? ` ${String(detail)}` : ""}`
): Check =>
  activityOf(userData).some((a) => a.kind === kind && (detail === undefined || (typeof detail === "string" ? a.detail === detail : detail.test(a.detail))))
    ? pass(`the app's log says: ${what}`)
    : fail(
        `the app's activity log does not say ${what} (it has: ${
          activityOf(userData)
            .map((a) => `${a.kind} ${a.detail}`)
            .join(", ") || "nothing"
        })`
      )

/** The tasks app's seeded board, from the app's own seed module (the truth read-only tasks are checked against). */
export const seedTasks = (): ReadonlyArray<SavedTask> => {
  const require = createRequire(import.meta.url)
  const seed = require(join(sampleAppPath("tasks"), "seed.js")) as { seedBoard: () => SavedBoard }
  return seed.seedBoard().tasks
}

/** Launches the app with playwright-core directly on the data folder and reads the main window. */
export const relaunchAndRead = async <A>(
  app: "tasks" | "hardened",
  userData: string,
  read: (page: import("playwright-core").Page) => Promise<A>
): Promise<A> => {
  const { _electron } = await import("playwright-core")
  const electronApp = await _electron.launch({
    executablePath: resolveElectronRuntime().executablePath,
    args: [sampleAppPath(app)],
    env: { ...process.env, SAMPLE_APP_USER_DATA: userData } as Record<string, string>,
    timeout: 30_000
  })
  try {
    const page = await electronApp.firstWindow()
    await page.locator("body[data-ready=true]").waitFor({ timeout: 15_000 })
    return await read(page)
  } finally {
    await electronApp.close().catch(() => undefined)
  }
}

/** The task titles the app shows after a fresh launch on the data folder. */
export const titlesAfterRelaunch = (userData: string) =>
  relaunchAndRead("tasks", userData, (page) => page.locator("[data-testid=task-title]").allTextContents())

/** PNG signature and IHDR size of a file. */
export const pngSize = (file: string): { readonly width: number; readonly height: number } | undefined => {
  try {
    const b = readFileSync(file)
    if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47) return undefined
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
  } catch {
    return undefined
  }
}

export const filesIn = (dir: string): ReadonlyArray<string> => (existsSync(dir) ? readdirSync(dir) : [])

/** Runs an exported spec with @playwright/test in its folder (node_modules linked in); resolves with pass/fail. */
export const runExportedTest = (file: string, dir: string, userData: string, repoRoot: string): Promise<Check> => {
  const modules = join(dir, "node_modules")
  if (!existsSync(modules)) symlinkSync(join(repoRoot, "node_modules"), modules, "dir")
  // The exported test replays the session from the start: give it the fresh board the session started with.
  rmSync(userData, { recursive: true, force: true })
  mkdirSync(userData, { recursive: true })
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot, "node_modules", "@playwright", "test", "cli.js"), "test", file, "--reporter=line", "--workers=1", "--timeout=60000"],
      { cwd: dir, timeout: 120_000, env: { ...process.env, CI: "1" } },
      (error, stdout, stderr) => {
        const tail = `${stdout}\n${stderr}`.trim().split("\n").slice(-3).join(" | ")
        resolve(error === null ? pass(`exported test passed: ${tail}`) : fail(`exported test failed: ${tail}`))
      }
    )
  })
}
