#!/usr/bin/env node
// The code figures the refactoring notes quote, for a checkout (default: this one): the longest functions
// under src/ (src/bench aside), casts to any, and the call sites that hand tools a raw playwright-core page.
// Usage: node scripts/code-figures.mjs [checkout]
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"

const root = resolve(process.argv[2] ?? ".")
const ts = createRequire(import.meta.url)("typescript")
const files = execFileSync("git", ["-C", root, "ls-files", "src/*.ts"])
  .toString()
  .trim()
  .split("\n")
  .filter((f) => !f.startsWith("src/bench/"))
const sources = files.map((f) => [f, readFileSync(`${root}/${f}`, "utf8")])

const longest = []
for (const [file, text] of sources) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node)) {
      const from = sf.getLineAndCharacterOfPosition(node.getStart()).line
      const to = sf.getLineAndCharacterOfPosition(node.getEnd()).line
      longest.push({ lines: to - from + 1, at: `${file}:${from + 1}` })
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
}
longest.sort((a, b) => b.lines - a.lines)

const count = (pattern) => sources.reduce((n, [, text]) => n + (text.match(pattern) ?? []).length, 0)
console.log(
  `longest functions: ${longest
    .slice(0, 3)
    .map((f) => `${f.lines} lines ${f.at}`)
    .join("; ")}`
)
console.log(`as any: ${count(/\bas any\b/g)}; as unknown as: ${count(/\bas unknown as\b/g)}; ": any": ${count(/: any\b/g)}`)
console.log(`raw page calls (driver.run / pages.run, chained included): ${count(/\b(?:driver|pages)(?:\.run\(|\s*\n\s*\.run\()/g)}`)
console.log(`typed page operations (pages.evaluate / count / withCdp): ${count(/\bpages(?:\.|\s*\n\s*\.)(?:evaluate|count|withCdp)\(/g)}`)
console.log(`module-level WeakMap<AppSession>: ${count(/new WeakMap<AppSession/g)}`)
