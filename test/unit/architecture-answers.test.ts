/**
 * A tool answers through the answer builder (src/tools/contract/respond.ts: `answer`, `listAnswer`,
 * `amended`), never through a `{ text, structured }` literal of its own: the check reads every source under
 * src/tools and src/plugins with TypeScript's parser and fails on an object literal shaped like a tool result
 * (only `text`, `structured` and `images`, or those beside a spread of another result). The few literals of
 * that shape that are not answers are allowed by name, each with why. And a handler does not write its own
 * tool's name (a recorded step's `tool`, the name a policy error gives): the call handle has it from the pipeline.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { packageRoot } from "../../src/layers/driver/electron-runtime.js"

const root = packageRoot()

const RESULT_KEYS = new Set(["text", "structured", "images"])

/** The builder's functions (their first argument is the text, the rest are facts). */
const BUILDERS = new Set(["answer", "amended", "listAnswer"])

/** The builder itself, where a result is put together. */
const BUILDER = "src/tools/contract/respond.ts"

/** Literals of a result's shape that are not tool answers: file, the literal's start, why. */
const NOT_ANSWERS: ReadonlyArray<{ readonly file: string; readonly starts: string; readonly why: string }> = [
  { file: "src/tools/native/native.ts", starts: "{ text: input.text }", why: "the clipboard text handed to the main process" },
  { file: "src/plugins/network/har.ts", starts: "{ text: body.toString", why: "a HAR entry's postData (the HAR format's field)" },
  { file: "src/plugins/network/capture-store.ts", starts: "{ ...base, text }", why: "a captured body kept inline" },
  { file: "src/tools/pipeline/new-errors.ts", starts: "{ ...e, text: cut(", why: "one new error's record, its text cut" }
]

const walk = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : /\.ts$/.test(name) ? [path] : []
  })

const nameOf = (property: ts.ObjectLiteralElementLike): string | undefined =>
  (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) && ts.isIdentifier(property.name) ? property.name.text : undefined

/** Whether an object literal is shaped like a tool result: a `text` beside nothing but `structured`, `images` and spreads. */
const resultShaped = (node: ts.ObjectLiteralExpression): boolean => {
  const names = node.properties.map((p) => (ts.isSpreadAssignment(p) ? "..." : (nameOf(p) ?? "?")))
  return names.includes("text") && names.every((name) => name === "..." || RESULT_KEYS.has(name)) && !factsOf(node)
}

/** Whether a literal is the structured content of an answer (a field's value, or the builder's facts argument). */
const factsOf = (node: ts.ObjectLiteralExpression): boolean =>
  ts.isPropertyAssignment(node.parent) ||
  (ts.isCallExpression(node.parent) &&
    ts.isIdentifier(node.parent.expression) &&
    BUILDERS.has(node.parent.expression.text) &&
    node.parent.arguments[0] !== node)

/** The result-shaped literals of one source: "file:line: literal" (its first 80 characters). */
const handBuiltAnswers = (file: string, code: string): ReadonlyArray<string> => {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && resultShaped(node)) {
      const text = node.getText(source)
      if (!NOT_ANSWERS.some((allowed) => allowed.file === file && text.startsWith(allowed.starts))) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
        found.push(`${file}:${line}: ${text.replace(/\s+/g, " ").slice(0, 80)}`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The calls whose first argument names the tool that runs (the pipeline's name is the call handle's `tool`). */
const NAMED_BY_CALL = new Set(["gateCode", "vetLaunch"])

/** Places a handler writes a tool's name of its own: a `tool: "electron_…"` field, or one given to a call that takes the running tool's. */
const ownToolNames = (file: string, code: string): ReadonlyArray<string> => {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true)
  const found: Array<string> = []
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) && node.text.startsWith("electron_")) {
      const parent = node.parent
      const field = ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name) && parent.name.text === "tool"
      const callee = ts.isCallExpression(parent) && parent.arguments[0] === node ? parent.expression : undefined
      const named =
        callee !== undefined &&
        (ts.isIdentifier(callee) ? NAMED_BY_CALL.has(callee.text) : ts.isPropertyAccessExpression(callee) && callee.name.text === "answerModal")
      if (field || named) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${parent.getText(source).slice(0, 60)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe("tools answer through the builder", () => {
  it("no file under src/tools or src/plugins builds a result by hand", () => {
    const found = [...walk(join(root, "src", "tools")), ...walk(join(root, "src", "plugins"))]
      .map((path) => relative(root, path))
      .filter((file) => file !== BUILDER)
      .flatMap((file) => handBuiltAnswers(file, readFileSync(join(root, file), "utf8")))
    expect(found).toEqual([])
  })

  it("the check finds a hand-built result, a reshaped one and one in an arrow's body; not other objects", () => {
    const code = [
      'const a = () => Effect.succeed({ text: "Done.", structured: { window: "w1" } })',
      'const b = (result: ToolResult) => ({ ...result, text: result.text + " more" })',
      "const c = (text: string) => ({ text })",
      'const d = { text: "a snapshot row", ref: "e1" }',
      'const e = { structured: { text: "a field" } }',
      'const f = answer("Read.", { text: "the facts" })'
    ].join("\n")
    expect(handBuiltAnswers("src/tools/x.ts", code).map((hit) => hit.split(": ")[0])).toEqual(["src/tools/x.ts:1", "src/tools/x.ts:2", "src/tools/x.ts:3"])
  })

  it("no handler writes its own tool's name: the call handle has it from the pipeline (defineTool's name)", () => {
    const found = [...walk(join(root, "src", "tools")), ...walk(join(root, "src", "plugins"))]
      .map((path) => relative(root, path))
      .flatMap((file) => ownToolNames(file, readFileSync(join(root, file), "utf8")))
    expect(found).toEqual([])
    const probe = [
      'yield* call.record({ tool: "electron_scroll", window: "w1", code })',
      'yield* gateCode("electron_navigate", [])',
      'call.answerModal("electron_fill", s, c, i)'
    ]
    expect(ownToolNames("src/tools/x.ts", probe.join("\n")).length).toBe(3)
  })

  it("each allowed literal is still in its file (an allowance for a literal gone is removed)", () => {
    const missing = NOT_ANSWERS.filter((allowed) => !readFileSync(join(root, allowed.file), "utf8").includes(allowed.starts)).map((a) => `${a.file}: ${a.why}`)
    expect(missing).toEqual([])
  })
})
