/**
 * Electron's published types (the `electron` devDependency) check our main-process code and the stand-in:
 * the stand-in's conformance check (test/fixtures/electron-standin/types/conformance.ts, part of
 * `npm run typecheck`) passes on the real tree and fails, naming the member, when a stand-in module gets a
 * member Electron lacks or a member of the wrong shape (the lib file is replaced in memory only); main-process
 * code typed with ElectronModule fails on a misspelt member; docs/electron-coverage.md is in step.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import {
  COVERAGE_MD_PATH,
  electronTypesVersion,
  measureCoverage,
  renderCoverage,
  renderReadmeBlock,
  STANDIN_README_PATH,
  withReadmeBlock
} from "../../src/bench/docs/electron-coverage.js"
import { libFile, ROOT, standinProgram } from "../../src/bench/docs/standin-types.js"

const DIALOG = libFile("dialog.js")
const dialogSource = () => readFileSync(DIALOG, "utf8")

/** The stand-in's program with dialog.js replaced by `edit(its text)`; the edit must apply. */
const withDialog = (edit: (text: string) => string) => {
  const original = dialogSource()
  const changed = edit(original)
  expect(changed).not.toBe(original)
  return standinProgram(new Map([[DIALOG, changed]])).errors()
}

// Each test type-checks synchronously for seconds. Between tests the worker's event loop gets a full turn
// (setImmediate runs after the I/O poll), so vitest's replies to this worker are read before their timers
// fire: back to back, thirteen checks (88 s under CI load) made a reply wait past vitest's 60 s RPC timeout.
afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)))

describe("the stand-in against electron.d.ts", () => {
  it("conforms on the real tree", () => {
    expect(standinProgram().errors()).toEqual([])
  })

  it("fails naming a member Electron's dialog lacks", () => {
    const errors = withDialog((text) => text.replace("const dialog = {\n", "const dialog = {\n  showColourDialog() {\n    return null;\n  },\n"))
    expect(errors.join("\n")).toContain(`"dialog.showColourDialog": "not in Electron's type"`)
    expect(errors).toHaveLength(1)
  })

  it("fails naming a member whose result has the wrong shape", () => {
    const errors = withDialog((text) =>
      text.replace(
        "@returns {string} */\n  showSaveDialogSync(...args) {\n    note('showSaveDialogSync', args);\n    return '';",
        "@returns {number} */\n  showSaveDialogSync(...args) {\n    note('showSaveDialogSync', args);\n    return 0;"
      )
    )
    expect(errors.join("\n")).toContain(`"dialog.showSaveDialogSync": "not assignable to Electron's type"`)
  })

  it("fails on a body whose result is not the shape its JSDoc declares (checkJs: bodies are checked)", () => {
    const errors = withDialog((text) =>
      text.replace("return Promise.resolve({ canceled: true, filePaths: [] });", "return Promise.resolve({ cancelled: true, files: [] });")
    )
    expect(errors.join("\n")).toMatch(/dialog\.js.*cancelled/s)
  })

  it("fails naming a member whose declared result lacks Electron's required members ({cancelled, files})", () => {
    const errors = withDialog((text) =>
      text
        .replace(
          "@returns {Promise<{canceled: boolean, filePaths: string[], bookmarks?: string[]}>}",
          "@returns {Promise<{cancelled: boolean, files: string[]}>}"
        )
        .replace("return Promise.resolve({ canceled: true, filePaths: [] });", "return Promise.resolve({ cancelled: true, files: [] });")
    )
    expect(errors.join("\n")).toContain(`"dialog.showOpenDialog": "not assignable to Electron's type"`)
    expect(errors).toHaveLength(1)
  })

  it("fails naming a member that needs an argument Electron's callers do not pass", () => {
    const errors = withDialog((text) =>
      text.replace(
        "   * @param {string} content\n   */\n  showErrorBox(title, content) {",
        "   * @param {string} content\n   * @param {number} code\n   */\n  showErrorBox(title, content, code) {"
      )
    )
    expect(errors.join("\n")).toContain(`"dialog.showErrorBox": "not assignable to Electron's type"`)
  })
})

describe("the sample apps against electron.d.ts (test/fixtures/apps/tsconfig.json, checkJs)", () => {
  /** The apps' program's errors, with `file`'s text replaced by `edit(its text)` (the file on disk is left alone). */
  const appErrors = (file?: string, edit?: (text: string) => string) => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, "test", "fixtures", "apps", "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined }
    )!
    const host = ts.createCompilerHost(parsed.options)
    const getSourceFile = host.getSourceFile.bind(host)
    host.getSourceFile = (name, language, ...rest) =>
      file !== undefined && edit !== undefined && name === file
        ? ts.createSourceFile(name, edit(readFileSync(file, "utf8")), language)
        : getSourceFile(name, language, ...rest)
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true }, host })
    return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)
  }

  it("pass as they are, and an app reading a result shape Electron lacks (showOpenDialog's `files`) fails", () => {
    expect(appErrors()).toEqual([])
    const main = join(ROOT, "test", "fixtures", "apps", "scheme", "main.js")
    const errors = appErrors(
      main,
      (text) =>
        `${text}\nasync function pick () {\n  const result = await require('electron').dialog.showOpenDialog({})\n  return result.cancelled ? [] : result.files\n}\nmodule.exports = { pick }\n`
    )
    expect(errors).toEqual([
      expect.stringMatching(/scheme\/main\.js: Property 'cancelled' does not exist on type 'OpenDialogReturnValue'/),
      expect.stringMatching(/scheme\/main\.js: Property 'files' does not exist on type 'OpenDialogReturnValue'/)
    ])
  })

  it.each(["tasks", "framework", "hardened", "insecure"])("%s/main.js is checked: a menu role or dialog type Electron lacks fails", (app) => {
    const main = join(ROOT, "test", "fixtures", "apps", app, "main.js")
    /** Every error is in that app's main.js, and one names the wrong literal. */
    const expectRejected = (errors: ReadonlyArray<string>, literal: string) => {
      expect(errors.length).toBeGreaterThan(0)
      expect(errors.filter((e) => !e.startsWith(`${main}: `))).toEqual([])
      expect(errors.join("\n")).toContain(`Type '"${literal}"' is not assignable to type`)
    }
    expectRejected(
      appErrors(main, (text) => text.replace("{ role: 'reload' }", "{ role: 'reloadPage' }")),
      "reloadPage"
    )
    expectRejected(
      appErrors(main, (text) => text.replace(/type: '(info|warning)'/, "type: 'notice'")),
      "notice"
    )
  })
})

describe("main-process code typed with ElectronModule", () => {
  it("fails tsc on a member Electron's app lacks", () => {
    const file = join(ROOT, "test", "unit", "__electron-module-probe.ts")
    const text = [
      'import type { ElectronModule } from "../../src/layers/driver/shape.js"',
      "export const good = ({ app }: ElectronModule) => app.getName()",
      "export const bad = ({ app }: ElectronModule) => app.getNmae()"
    ].join("\n")
    const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!
    const host = ts.createCompilerHost(parsed.options)
    const getSourceFile = host.getSourceFile.bind(host)
    host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest))
    const fileExists = host.fileExists.bind(host)
    host.fileExists = (name) => name === file || fileExists(name)
    const program = ts.createProgram({ rootNames: [file], options: { ...parsed.options, noEmit: true }, host })
    const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    expect(messages).toEqual([expect.stringContaining("Property 'getNmae' does not exist on type 'App'")])
  })
})

describe("docs/electron-coverage.md", () => {
  it("is in step with npm run coverage:electron, and the live stand-in has no member Electron lacks", () => {
    const rows = measureCoverage()
    expect(rows.flatMap((r) => r.runtimeExtras.map((n) => `${r.label}.${n}`))).toEqual([])
    expect(readFileSync(COVERAGE_MD_PATH, "utf8"), "docs/electron-coverage.md is stale: run npm run coverage:electron").toBe(
      renderCoverage(rows, electronTypesVersion())
    )
    // The stand-in's README states its fidelity from the same measurement, not as prose.
    const readme = readFileSync(STANDIN_README_PATH, "utf8")
    const block = renderReadmeBlock(rows, electronTypesVersion())
    expect(block).toContain(`${rows.reduce((n, r) => n + r.implemented.length, 0)} of`)
    expect(withReadmeBlock(readme, block), "the stand-in README's coverage block is stale: run npm run coverage:electron").toBe(readme)
  })
})
