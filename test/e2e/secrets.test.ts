/**
 * Secrets stay out of answers, end to end on the `hardened` sample app (its Passphrase field is an
 * `<input type=password>`): a password field's value is masked in snapshots, diffs, change summaries,
 * electron_find, electron_get_attribute, electron_expect_value and electron_inspect; the last_error
 * breadcrumb keeps no URL password even after Playwright normalised the URL; and electron_export_test
 * refuses a test name with a line break and writes every other string inert.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer as createNetServer } from "node:net"
import { join } from "node:path"
import ts from "typescript"
import { sampleAppPath } from "../../src/samples.js"
import { runNode } from "../support/cli.js"
import { freshUserData, inMemoryClient, type TestClient, type ToolCallOutcome } from "../support/mcp.js"

const MASK = "••••"
// Spaces, a colon and a quote: Playwright's snapshot quotes and collapses such a value.
const PASSWORD = 'Pa55  w0rd: "zebra"'
const PASSWORD_FORMS = [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), PASSWORD.replace(/\s+/g, " "), "Pa55", "zebra"]

let mcp: TestClient
let outputDir: string

const everything = (result: ToolCallOutcome) => `${result.text}\n${JSON.stringify(result.structured ?? null)}`
const expectNoPassword = (result: ToolCallOutcome, forms: ReadonlyArray<string> = PASSWORD_FORMS) => {
  for (const form of forms) expect(everything(result), `leaked ${form}`).not.toContain(form)
}

beforeAll(async () => {
  outputDir = freshUserData()
  mcp = await inMemoryClient({ allowEval: ["renderer"], outputDir })
  const launched = await mcp.call("electron_launch", { app: sampleAppPath("hardened"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })
  expect(launched.isError, launched.text).toBe(false)
  const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  expect(ready.isError, ready.text).toBe(false)
})

afterAll(async () => {
  await mcp?.close()
})

describe("a password field's value never appears in an answer", () => {
  it("snapshot, fill's change summary, incremental snapshot, find", async () => {
    const before = await mcp.call("electron_snapshot")
    expect(before.text).toMatch(/textbox "Passphrase" \[ref=e\d+\]$/m)
    const filled = await mcp.call("electron_fill", { target: "testid=passphrase-input", value: PASSWORD })
    expect(filled.isError, filled.text).toBe(false)
    expectNoPassword(filled)
    expect(filled.text).toContain(MASK)
    const snapshot = await mcp.call("electron_snapshot")
    expectNoPassword(snapshot)
    expect(snapshot.text).toMatch(/textbox "Passphrase"(?: \[active\])? \[ref=e\d+\]: ••••$/m)
    // Another value: the quiet change summary still says the field changed, masked.
    const again = await mcp.call("electron_fill", { target: "label=Passphrase", value: `${PASSWORD} zebra2` })
    expectNoPassword(again, [...PASSWORD_FORMS, "zebra2"])
    expect(again.text).toContain(`"Passphrase" = "${MASK}"`)
    const diff = await mcp.call("electron_snapshot", { since: "last" })
    expectNoPassword(diff, [...PASSWORD_FORMS, "zebra2"])
    const scoped = await mcp.call("electron_snapshot", { target: "testid=passphrase-input" })
    expectNoPassword(scoped, [...PASSWORD_FORMS, "zebra2"])
    expect(scoped.text).toContain(MASK)
    const found = await mcp.call("electron_find", { target: "label=Passphrase" })
    expect(found.structured.count).toBe(1)
    expectNoPassword(found, [...PASSWORD_FORMS, "zebra2"])
    expect(found.structured.items[0].line).toMatch(/^textbox "Passphrase"(?: \[active\])? \[ref=e\d+\]: ••••$/)
    expect((await mcp.call("electron_fill", { target: "testid=passphrase-input", value: PASSWORD })).isError).toBe(false)
  })

  it("a change summary that takes a snapshot (the page changed beyond the field) masks the value its check read while arming", async () => {
    // Typing into the field now also changes the page elsewhere: the summary is not quiet, so it snapshots the page.
    const wired = await mcp.call("electron_eval_renderer", {
      function:
        "() => { const note = document.createElement('p'); note.id = 'typed-note'; document.body.append(note); document.querySelector('[data-testid=passphrase-input]').addEventListener('input', (e) => { note.textContent = 'typed ' + e.target.value.length }) }"
    })
    expect(wired.isError, wired.text).toBe(false)
    // Emptied first, so the snapshot shows the field without a value and the summary's diff shows it filled.
    expect((await mcp.call("electron_fill", { target: "testid=passphrase-input", value: "" })).isError).toBe(false)
    expect((await mcp.call("electron_snapshot")).text).toMatch(/textbox "Passphrase"(?: \[active\])? \[ref=e\d+\]$/m)
    const filled = await mcp.call("electron_fill", { target: "testid=passphrase-input", value: `${PASSWORD} armed` })
    expect(filled.isError, filled.text).toBe(false)
    expect(filled.text).toMatch(/typed \d+/)
    expect(filled.text).toMatch(/textbox "Passphrase"(?: \[active\])? \[ref=e\d+\]: ••••$/m)
    expectNoPassword(filled, [...PASSWORD_FORMS, "armed"])
    const snapshot = await mcp.call("electron_snapshot")
    expectNoPassword(snapshot, [...PASSWORD_FORMS, "armed"])
    expect((await mcp.call("electron_fill", { target: "testid=passphrase-input", value: PASSWORD })).isError).toBe(false)
  })

  it("get_attribute value, expect_value's actual, inspect", async () => {
    const value = await mcp.call("electron_get_attribute", { target: "testid=passphrase-input", name: "value" })
    expect(value.structured).toMatchObject({ name: "value", value: MASK })
    expectNoPassword(value)
    // An ordinary field still answers its value.
    expect((await mcp.call("electron_fill", { target: "testid=ping-input", value: "plain text" })).isError).toBe(false)
    expect((await mcp.call("electron_get_attribute", { target: "testid=ping-input", name: "value" })).structured.value).toBe("plain text")

    const wrong = await mcp.call("electron_expect_value", { target: "testid=passphrase-input", value: "not it", timeoutMs: 300 })
    expect(wrong.code).toBe("ASSERTION_FAILED")
    expect(JSON.stringify(wrong.structured)).toContain(MASK)
    expectNoPassword(wrong)
    const right = await mcp.call("electron_expect_value", { target: "label=Passphrase", value: PASSWORD })
    expect(right.isError, right.text).toBe(false)
    expect(right.structured.actual).toBe(MASK)
    expect(right.text).toContain(`actual "${MASK}"`)

    // Frameworks keep the value attribute in sync with what was typed: inspect masks it, here and in a container.
    const set = await mcp.call("electron_eval_renderer", {
      function: `() => { document.querySelector("#passphrase-input").setAttribute("value", ${JSON.stringify(PASSWORD)}) }`
    })
    expect(set.isError, set.text).toBe(false)
    const attribute = await mcp.call("electron_get_attribute", { target: "testid=passphrase-input", name: "VALUE" })
    expect(attribute.structured.value).toBe(MASK)
    const field = await mcp.call("electron_inspect", { target: "testid=passphrase-input" })
    expect(field.isError, field.text).toBe(false)
    expect(field.structured.html).toContain(`value="${MASK}"`)
    expect(field.structured.html).toContain('type="password"')
    expectNoPassword(field, [...PASSWORD_FORMS, "&quot;zebra&quot;"])
    const container = await mcp.call("electron_inspect", { target: "css=.field:has(#passphrase-input)", maxHtml: 5_000 })
    expect(container.structured.html).toContain("Passphrase</label>")
    expect(container.structured.html).toContain(`value="${MASK}"`)
    expectNoPassword(container, [...PASSWORD_FORMS, "&quot;zebra&quot;"])

    const status = await mcp.call("electron_status")
    expectNoPassword(status)
  })
})

/** Whether TypeScript parses `code` without a syntax error, and the calls it makes (callee text). */
const parsed = (code: string) => {
  const source = ts.createSourceFile("spec.ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
  const calls: Array<string> = []
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) calls.push(node.expression.getText(source))
    ts.forEachChild(node, visit)
  }
  visit(source)
  const diagnostics = (source as unknown as { parseDiagnostics: ReadonlyArray<ts.Diagnostic> }).parseDiagnostics
  const topLevel = source.statements.map((s) =>
    ts.isImportDeclaration(s) ? "import" : ts.isVariableStatement(s) ? "const" : ts.isExpressionStatement(s) ? "expression" : ts.SyntaxKind[s.kind]
  )
  const testCall = source.statements
    .filter(ts.isExpressionStatement)
    .map((s) => s.expression)
    .find((e): e is ts.CallExpression => ts.isCallExpression(e) && e.expression.getText(source) === "test")
  const title = testCall !== undefined && ts.isStringLiteral(testCall.arguments[0]!) ? testCall.arguments[0].text : undefined
  return { diagnostics, calls, topLevel, title }
}

describe("electron_export_test writes inert code", () => {
  const injected = `"); require("fs").writeFileSync("pwned.txt", "1"); ("`

  it("refuses a test name with a line break or other control characters, and folders", async () => {
    const typed = await mcp.call("electron_fill", { target: "testid=ping-input", value: `${injected}\u2028require("fs").rmSync("x")\n//` })
    expect(typed.isError, typed.text).toBe(false)
    const before = readdirSync(outputDir).length
    for (const name of [`evil\n${injected}`, `evil\u2028${injected}`, `evil\r.spec.ts`, `evil\u202e.spec.ts`]) {
      const refused = await mcp.call("electron_export_test", { name })
      expect(refused.code, JSON.stringify(name)).toBe("INVALID_ARGUMENT")
    }
    expect((await mcp.call("electron_export_test", { name: "sub/evil.spec.ts" })).code).toBe("PATH_NOT_ALLOWED")
    expect((await mcp.call("electron_export_test", { name: "x".repeat(150) })).code).toBe("INVALID_ARGUMENT")
    expect(readdirSync(outputDir).length).toBe(before)
  })

  it("writes quotes in a name, typed text and selectors as string literals: the spec parses and runs nothing injected", async () => {
    const name = `evil${injected}`
    const exported = await mcp.call("electron_export_test", { name })
    expect(exported.isError, exported.text).toBe(false)
    const path = exported.structured.path as string
    expect(path.startsWith(outputDir)).toBe(true)
    const code = readFileSync(path, "utf8")
    const { diagnostics, calls, topLevel, title } = parsed(code)
    expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([])
    expect(topLevel).toEqual(["import", "const", "expression"])
    expect(title).toBe(name)
    expect(calls.filter((c) => /require|writeFileSync|rmSync/.test(c))).toEqual([])
    expect(code).not.toMatch(/[\u2028\u2029]/)
    expect(code).toContain(JSON.stringify(name))
    // Node itself agrees once the types are gone.
    const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
    const copy = join(outputDir, "evil-check.mjs")
    writeFileSync(copy, js)
    const check = await runNode(["--check", copy])
    expect(check.status, check.stderr).toBe(0)
    expect(existsSync(join(outputDir, "pwned.txt"))).toBe(false)
  })
})

/** A loopback port that nothing listens on (a navigation to it fails at once). */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createNetServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

describe("the last_error breadcrumb keeps no URL credentials", () => {
  it("after a failing navigation, in the forms Playwright prints the URL", async () => {
    const port = await closedPort()
    const cases: ReadonlyArray<readonly [url: string, secrets: ReadonlyArray<string>]> = [
      [`http://user:s3cretA1@127.0.0.1:${port}/`, ["s3cretA1"]],
      [`HTTP://User:S3cretB2%21@127.0.0.1:${port}`, ["S3cretB2"]],
      [`http://user:s3 cr"etC3@127.0.0.1:${port}/p?token=tokVALUE9&x=1`, ["s3 cr", "s3%20cr", "etC3", "tokVALUE9"]],
      [`http://us%65r:p%40ssD4@LOCALHOST:${port}/#access_token=fragTOKEN7`, ["p%40ssD4", "p@ssD4", "ssD4", "fragTOKEN7"]]
    ]
    for (const [url, secrets] of cases) {
      const failed = await mcp.call("electron_navigate", { url, timeoutMs: 10_000 })
      expect(failed.isError, `${url}: ${failed.text}`).toBe(true)
      const status = await mcp.call("electron_status")
      expect(status.structured.server.lastError).toMatchObject({ tool: "electron_navigate" })
      for (const secret of secrets) {
        expect(status.text, `${url} leaked ${secret}`).not.toContain(secret)
        expect(JSON.stringify(status.structured), `${url} leaked ${secret}`).not.toContain(secret)
      }
    }
  })
})
