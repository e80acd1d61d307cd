/** Runs the built `stagewright` binary (dist/cli.js; `npm test` builds it first). */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"

export const CLI = join(packageRoot(), "dist", "cli.js")

export interface Finished {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs a Node script to its end without blocking the test process (a synchronous spawn stalls the test
 * worker's own messages to vitest, and any app the worker drives, while a slow machine runs the child).
 */
export const runNode = (
  args: ReadonlyArray<string>,
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string; readonly timeoutMs?: number } = {}
): Promise<Finished> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { env: options.env ?? process.env, cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000)
    child.once("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once("close", (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
  })

/** Runs the built CLI to its end. */
export const runCli = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env): Promise<Finished> => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm test does)`)
  return runNode([CLI, ...args], { env })
}
