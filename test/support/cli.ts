/** Runs the built `stagewright` binary (dist/cli.js; `npm test` builds it first). */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { packageRoot } from "../../src/layers/electron-runtime.js"

export const CLI = join(packageRoot(), "dist", "cli.js")

export const runCli = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first (npm test does)`)
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env, timeout: 60_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
