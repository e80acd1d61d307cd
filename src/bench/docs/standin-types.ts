/**
 * The Electron stand-in's type program (test/fixtures/electron-standin/tsconfig.json: its CommonJS lib,
 * JSDoc-typed, and types/conformance.ts, which compares it with electron.d.ts), built with the TypeScript
 * compiler API. Shared by the coverage table (`npm run coverage:electron`) and the tests of the conformance
 * check, which can replace a lib file's text in memory to prove that the check fails.
 */
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

export const ROOT = resolve(fileURLToPath(new URL("../../../", import.meta.url)))
export const STANDIN_DIR = join(ROOT, "test", "fixtures", "electron-standin")
export const STANDIN_TSCONFIG = join(STANDIN_DIR, "tsconfig.json")
export const CONFORMANCE = join(STANDIN_DIR, "types", "conformance.ts")

export interface StandinProgram {
  readonly program: ts.Program
  readonly checker: ts.TypeChecker
  /** The diagnostics `tsc -p` would report, as text (`file(line,col): message`). */
  readonly errors: () => ReadonlyArray<string>
}

/**
 * The program of the stand-in's tsconfig. `overrides` maps a file's absolute path to the text to check in
 * its place (the file on disk is left alone).
 */
export const standinProgram = (overrides: ReadonlyMap<string, string> = new Map()): StandinProgram => {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    STANDIN_TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"))
      }
    }
  )
  if (!parsed) throw new Error(`cannot read ${STANDIN_TSCONFIG}`)
  const host = ts.createCompilerHost(parsed.options)
  const replaced = new Map([...overrides].map(([file, text]) => [resolve(file), text]))
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (file, language, onError, fresh) => {
    const text = replaced.get(resolve(file))
    return text !== undefined ? ts.createSourceFile(file, text, language) : getSourceFile(file, language, onError, fresh)
  }
  const readFile = host.readFile.bind(host)
  host.readFile = (file) => replaced.get(resolve(file)) ?? readFile(file)
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host })
  const errors = () =>
    ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, "\n")
      if (!d.file || d.start === undefined) return text
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start)
      return `${d.file.fileName.slice(ROOT.length + 1)}(${line + 1},${character + 1}): ${text}`
    })
  return { program, checker: program.getTypeChecker(), errors }
}

/** An exported type alias or interface of the conformance file, by name. */
export const conformanceExport = (p: StandinProgram, name: string): ts.Symbol => {
  const file = p.program.getSourceFile(CONFORMANCE)
  const module = file && p.checker.getSymbolAtLocation(file)
  const found = module && p.checker.getExportsOfModule(module).find((s) => s.name === name)
  if (!found) throw new Error(`${CONFORMANCE} exports no ${name}`)
  return found
}

/** The string literals of a union type alias of the conformance file (e.g. `KnownExtra`). */
export const conformanceNames = (p: StandinProgram, name: string): ReadonlyArray<string> => {
  const type = p.checker.getDeclaredTypeOfSymbol(conformanceExport(p, name))
  const parts = type.isUnion() ? type.types : [type]
  return parts.filter((t): t is ts.StringLiteralType => t.isStringLiteral()).map((t) => t.value)
}

/** Each subject of `Subjects`: its label, the stand-in's type and Electron's. */
export const subjects = (p: StandinProgram): ReadonlyArray<{ readonly label: string; readonly ours: ts.Type; readonly theirs: ts.Type }> => {
  const declared = p.checker.getDeclaredTypeOfSymbol(conformanceExport(p, "Subjects"))
  return p.checker.getPropertiesOfType(declared).map((prop) => {
    const pair = p.checker.getTypeOfSymbol(prop) as ts.TypeReference
    const [ours, theirs] = p.checker.getTypeArguments(pair)
    if (!ours || !theirs) throw new Error(`Subjects.${prop.name} is not a pair`)
    return { label: prop.name, ours, theirs }
  })
}

export const libFile = (name: string) => join(STANDIN_DIR, "lib", name)
