/**
 * The runtime never depends on the benchmark: nothing outside src/bench imports gpt-tokenizer or
 * src/bench, in the sources or in the built dist/, and gpt-tokenizer stays a devDependency.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const SRC = join(ROOT, "src")
const DIST = join(ROOT, "dist")
const BENCH_DIRS = [join(SRC, "bench"), join(DIST, "bench")]

const SPECIFIER =
  /\b(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\brequire\s*\(\s*["']([^"']+)["']\s*\)/g

/** The module specifiers a file's text imports, re-exports, requires or dynamically imports. */
export const specifiersOf = (text: string): ReadonlyArray<string> => [...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? m[3]!)

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep)

/** Why a specifier in `file` is forbidden, or undefined. */
export const violationOf = (file: string, specifier: string): string | undefined => {
  if (specifier === "gpt-tokenizer" || specifier.startsWith("gpt-tokenizer/")) return `imports ${specifier} (a devDependency for src/bench only)`
  if (specifier.startsWith(".")) {
    const target = resolve(dirname(file), specifier)
    if (BENCH_DIRS.some((dir) => inside(target, dir))) return `imports the benchmark (${specifier})`
  }
  return undefined
}

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return BENCH_DIRS.includes(path) && path.startsWith(SRC) ? [] : walk(path)
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith(".map") ? [path] : []
  })

const violations = (files: ReadonlyArray<string>) =>
  files.flatMap((file) =>
    specifiersOf(readFileSync(file, "utf8")).flatMap((specifier) => {
      const why = violationOf(file, specifier)
      return why === undefined ? [] : [`${relative(ROOT, file)}: ${why}`]
    })
  )

describe("benchmark isolation", () => {
  it("the detector finds every import form", () => {
    const text = [
      'import { countTokens } from "gpt-tokenizer/encoding/o200k_base"',
      "import type { Measurement } from '../bench/manifest-measure.js'",
      'export * from "./bench/manifest-gate.js"',
      'const t = await import("gpt-tokenizer")',
      'const r = require("../bench/x.js")',
      'import "../bench/side-effect.js"',
      'import { Effect } from "effect"'
    ].join("\n")
    const file = join(SRC, "layers", "Example.ts")
    const found = specifiersOf(text)
    expect(found).toHaveLength(7)
    expect(found.map((s) => violationOf(file, s) !== undefined)).toEqual([true, true, false, true, true, true, false])
    expect(violationOf(join(SRC, "index.ts"), "./bench/manifest.js")).toBeDefined()
    expect(violationOf(join(DIST, "cli", "main.js"), "../bench/manifest.js")).toBeDefined()
    expect(violationOf(join(SRC, "index.ts"), "./benchmarks.js")).toBeUndefined()
  })

  it("nothing in src/ outside src/bench imports gpt-tokenizer or src/bench", () => {
    const files = walk(SRC)
    expect(files.length).toBeGreaterThan(10)
    expect(files.some((f) => inside(f, join(SRC, "bench")))).toBe(false)
    expect(violations(files)).toEqual([])
  })

  it.skipIf(!existsSync(DIST))("nothing in dist/ imports gpt-tokenizer or the benchmark (needs a build: npm test builds first)", () => {
    expect(existsSync(join(DIST, "bench")), "dist/bench exists: tsconfig.build.json must keep excluding src/bench").toBe(false)
    expect(violations(walk(DIST))).toEqual([])
  })

  it("the benchmark is its own TypeScript project: every file of it there, none in the library's configs", () => {
    const filesOf = (config: string) => {
      const read = ts.readConfigFile(join(ROOT, config), ts.sys.readFile)
      expect(read.error, config).toBeUndefined()
      const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(join(ROOT, config)))
      expect(parsed.errors, config).toEqual([])
      return parsed.fileNames.map((file) => resolve(file))
    }
    const benchSources = walk(join(SRC, "bench")).filter((file) => file.endsWith(".ts"))
    expect(benchSources.length).toBeGreaterThan(10)
    const own = new Set(filesOf("src/bench/tsconfig.json"))
    expect(benchSources.filter((file) => !own.has(file))).toEqual([])
    for (const config of ["tsconfig.json", "tsconfig.build.json"]) {
      expect(
        filesOf(config).filter((file) => inside(file, join(SRC, "bench"))),
        config
      ).toEqual([])
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    expect(pkg.scripts.typecheck).toContain("tsc -p src/bench/tsconfig.json")
  })

  it("gpt-tokenizer is a devDependency only", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>
    expect(pkg.devDependencies?.["gpt-tokenizer"]).toBeDefined()
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) expect(pkg[field]?.["gpt-tokenizer"]).toBeUndefined()
    const build = JSON.parse(readFileSync(join(ROOT, "tsconfig.build.json"), "utf8")) as { exclude?: ReadonlyArray<string> }
    expect(build.exclude ?? []).toContain("src/bench")
  })
})
