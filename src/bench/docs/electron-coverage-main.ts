/**
 * Writes docs/electron-coverage.md (the stand-in against electron.d.ts): `npm run coverage:electron`.
 * `npm run coverage:electron -- check` only compares, and fails when the file is out of step.
 */
import { readFileSync, writeFileSync } from "node:fs"
import {
  COVERAGE_MD_PATH,
  coverageTotals,
  electronTypesVersion,
  measureCoverage,
  renderCoverage,
  renderReadmeBlock,
  STANDIN_README_PATH,
  withReadmeBlock
} from "./electron-coverage.js"

const rows = measureCoverage()
const text = renderCoverage(rows, electronTypesVersion())
const readme = readFileSync(STANDIN_README_PATH, "utf8")
const newReadme = withReadmeBlock(readme, renderReadmeBlock(rows, electronTypesVersion()))
if (newReadme === undefined) {
  console.error(`${STANDIN_README_PATH} lacks the electron-coverage markers`)
  process.exitCode = 1
}
const extras = rows.flatMap((r) => r.runtimeExtras.map((n) => `${r.label}.${n}`))
if (extras.length > 0) {
  console.error(
    `members of the live stand-in that electron.d.ts lacks (list them in KnownLiveExtra in conformance.ts, with why, or remove them): ${extras.join(", ")}`
  )
  process.exitCode = 1
}
const t = coverageTotals(rows)
const summary = `${t.members} members, ${t.implemented} implemented, ${t.inert} inert, ${t.lacking} lacking (${t.otherPlatforms} macOS/Windows-only not counted)`
if (process.argv.includes("check")) {
  if (readFileSync(COVERAGE_MD_PATH, "utf8") !== text || (newReadme !== undefined && newReadme !== readme)) {
    console.error("docs/electron-coverage.md or the stand-in README's coverage block is out of step: run npm run coverage:electron")
    process.exitCode = 1
  } else console.error(`docs/electron-coverage.md is in step: ${summary}`)
} else {
  writeFileSync(COVERAGE_MD_PATH, text)
  if (newReadme !== undefined && newReadme !== readme) writeFileSync(STANDIN_README_PATH, newReadme)
  console.error(`docs/electron-coverage.md: ${summary}`)
}
