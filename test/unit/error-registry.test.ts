/**
 * One row per error code (src/errors/registry.ts): the error classes take their default hint from it, the
 * agent-facing answer its code and `retryable`, the manifest the codes the pipeline adds; and a tool that
 * declares a code its handler cannot raise does not compile (the fixture test/fixtures/declared-errors/tools.ts,
 * type-checked here with the TypeScript API and the project's compiler options).
 */
import { describe, expect, it } from "@effect/vitest"
import { join } from "node:path"
import ts from "typescript"
import { ERROR_ROWS, codesAt, type ErrorTag } from "../../src/errors/registry.js"
import * as Errors from "../../src/index.js"
import { InternalError, PluginNotLoaded, UnknownTool } from "../../src/server/errors.js"
import { errorResult } from "../../src/server/results.js"
import { CallRefused } from "../../src/plugins/observer.js"
import { manifestEntry } from "../../src/tools/pipeline/manifest.js"
import { defineTool, type Tool } from "../../src/tools/contract/Tool.js"
import { Effect, Schema } from "effect"

const root = join(import.meta.dirname, "..", "..")
const FIXTURE = join(root, "test", "fixtures", "declared-errors", "tools.ts")

const CLASSES: Readonly<Record<ErrorTag, new (fields: { message: string }) => { readonly _tag: string; readonly hint: string }>> = {
  AppNotRunning: Errors.AppNotRunning,
  LaunchFailed: Errors.LaunchFailed,
  WindowNotFound: Errors.WindowNotFound,
  RefStale: Errors.RefStale,
  ElementNotFound: Errors.ElementNotFound,
  AmbiguousLocator: Errors.AmbiguousLocator,
  NotInteractable: Errors.NotInteractable,
  Timeout: Errors.Timeout,
  AssertionFailed: class extends Errors.AssertionFailed {
    constructor(fields: { message: string }) {
      super({ ...fields, expected: 1, actual: 2 })
    }
  },
  InvalidArgument: Errors.InvalidArgument,
  ToolExcludedByProfile: class extends Errors.ToolExcludedByProfile {
    constructor(fields: { message: string }) {
      super({ ...fields, tool: "t", activeProfile: "essential", profiles: [] })
    }
  },
  EvalNotAuthorized: class extends Errors.EvalNotAuthorized {
    constructor(fields: { message: string }) {
      super({ ...fields, tool: "t", target: "main", flag: "--allow-eval main" })
    }
  },
  PluginNotLoaded: class extends PluginNotLoaded {
    constructor(fields: { message: string }) {
      super({ ...fields, tool: "t", plugin: "p" })
    }
  },
  UnknownTool: class extends UnknownTool {
    constructor(fields: { message: string }) {
      super({ ...fields, tool: "t", suggestions: [] })
    }
  },
  AppCrashed: Errors.AppCrashed,
  PathNotAllowed: Errors.PathNotAllowed,
  NeedsMainProcess: Errors.NeedsMainProcess,
  OperationFailed: Errors.OperationFailed,
  DialogOpen: class extends Errors.DialogOpen {
    constructor(fields: { message: string }) {
      super({ ...fields, window: "w1", dialog: "alert", dialogMessage: "hi" })
    }
  },
  CallRefused: class extends CallRefused {
    constructor(fields: { message: string }) {
      super({ ...fields, tool: "t", by: "p" })
    }
  },
  InternalError
}

/** The fixture's diagnostics, type-checked with the project's compiler options. */
const fixtureDiagnostics = () => {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })
  const program = ts.createProgram([FIXTURE], { ...config!.options, noEmit: true })
  const source = program.getSourceFile(FIXTURE)!
  return ts.getPreEmitDiagnostics(program, source).map((d) => {
    const line = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0
    return { line, text: ts.flattenDiagnosticMessageText(d.messageText, "\n") }
  })
}

describe("the error registry", () => {
  it("gives every error class its tag's default hint, and every answer its code and retryable", () => {
    for (const tag of Object.keys(ERROR_ROWS) as Array<ErrorTag>) {
      const error = new CLASSES[tag]({ message: "m" })
      expect(error._tag, tag).toBe(tag)
      expect(error.hint, tag).toBe(ERROR_ROWS[tag].hint)
      const answer = errorResult(error as never)
      const structured = answer.structuredContent as { error: { code: string; retryable: boolean } }
      expect(structured.error.code, tag).toBe(ERROR_ROWS[tag].code)
      expect(structured.error.retryable, tag).toBe(ERROR_ROWS[tag].retryable)
      expect((answer.content[0] as { text: string }).text.startsWith(`${ERROR_ROWS[tag].code}: m`), tag).toBe(true)
    }
    expect(Errors.isRetryable(new Errors.Timeout({ message: "m", details: { retryable: false } }))).toBe(false)
  })

  it("lists in a tool's manifest entry the codes of the stages it goes through", () => {
    const base = { name: "fixture_tool", description: "d", type: "read", input: Schema.Struct({}), handler: () => Effect.succeed({ text: "" }) } as const
    const plain = manifestEntry({ ...base, errors: [], touchesPage: false } as Tool).errors
    expect(plain).toEqual([...codesAt("call")].sort())
    const page = manifestEntry({ ...base, errors: [] } as Tool).errors
    expect(page).toEqual([...new Set([...codesAt("call"), ...codesAt("page")])].sort())
    const files = manifestEntry({ ...base, errors: [], touchesPage: false, files: ["file"] } as Tool).errors
    expect(files).toContain("PATH_NOT_ALLOWED")
    const code = manifestEntry({ ...base, errors: [], touchesPage: false, evalTarget: "renderer" } as Tool).errors
    expect(code).toContain("EVAL_NOT_AUTHORIZED")
  })

  it("refuses to compile a tool that declares an error its handler cannot raise, naming the code", () => {
    const diagnostics = fixtureDiagnostics()
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]!.line).toBe(44)
    expect(diagnostics[0]!.text).toContain('HandlerCannotRaise<"REF_STALE">')
    expect(diagnostics[0]!.text).toContain('"REF_STALE"')
  }, 120_000)

  it("keeps a correctly declared tool a Tool", () => {
    const tool = defineTool({
      name: "fixture_ok",
      description: "d",
      type: "read",
      errors: ["APP_NOT_RUNNING"],
      input: Schema.Struct({}),
      handler: () => Effect.fail(new Errors.AppNotRunning({ message: "m" }))
    })
    const list: ReadonlyArray<Tool> = [tool]
    expect(list[0]!.errors).toEqual(["APP_NOT_RUNNING"])
  })
})
