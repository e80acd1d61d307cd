/**
 * The house rules are enforced by tools, and the rules themselves are tested: dependency-cruiser's rule set
 * fails on a wrong arrow and on a cycle (a fixture with both), passes on src/, and no file under src/
 * passes 400 lines.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"

const root = packageRoot()
const run = promisify(execFile)

interface CruiseResult {
  readonly summary: { readonly violations: ReadonlyArray<{ readonly rule: { readonly name: string }; readonly from: string; readonly to: string }> }
}

/** Runs dependency-cruiser with the project's rules over `dir` (relative to `cwd`); resolves its JSON report. */
const cruise = async (cwd: string, dir: string): Promise<CruiseResult> => {
  const bin = join(root, "node_modules", ".bin", "depcruise")
  const out = await run(bin, [dir, "--config", join(root, ".dependency-cruiser.cjs"), "--output-type", "json"], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "" })
  )
  return JSON.parse(out.stdout) as CruiseResult
}

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : /\.(ts|mts|mjs|js)$/.test(name) ? [path] : []
  })

describe("architecture rules", () => {
  it("dependency-cruiser refuses an upward import and a cycle (the rule set itself)", async () => {
    const result = await cruise(join(root, "test", "fixtures", "deps-violation"), "src")
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    expect(found).toContain("tools-stay-below-the-server: src/tools/bad.ts -> src/server/Dispatcher.ts")
    expect(found).toContain("samples-for-demo-and-bench-only: src/server/uses-samples.ts -> src/samples.ts")
    expect(found).toContain("tools-use-driver-services: src/tools/reaches-store.ts -> src/layers/driver/SessionStore.ts")
    expect(found.some((line) => line.startsWith("no-circular: src/eval-policy/"))).toBe(true)
  }, 120_000)

  it("src/ follows the rules: no violation", async () => {
    const result = await cruise(root, "src")
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([])
  }, 120_000)

  it("no file under src/ passes 400 lines", () => {
    const long = walk(join(root, "src"))
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, "utf8").split("\n").length }))
      .filter((f) => f.lines > 400)
      .map((f) => `${f.file}: ${f.lines} lines`)
    expect(long).toEqual([])
  })
})
