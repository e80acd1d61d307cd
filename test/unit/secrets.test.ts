/**
 * The pure halves of keeping secrets out of answers: the breadcrumb's redaction (every form a secret
 * takes once Playwright normalised or encoded it, and credentials in any URL), the masking of password
 * values in aria snapshots, and generated test code that stays inert whatever strings it quotes.
 */
import { describe, expect, it } from "@effect/vitest"
import ts from "typescript"
import type { AppSession, RecordedStep } from "../../src/layers/driver/ElectronDriver.js"
import { maskPasswordValues } from "../../src/layers/driver/snapshot-ops.js"
import { MAX_BREADCRUMB_CHARS, redactMessage, redactUrls, stringLeaves } from "../../src/server/ServerState.js"
import { renderTest, testNameProblem } from "../../src/tools/author/author.js"
import { codeString, selectorCode } from "../../src/tools/contract/step-code.js"

describe("breadcrumb redaction works on the stored text", () => {
  it("cuts a URL argument in the form Playwright printed it (normalised, percent-encoded)", () => {
    const url = 'HTTP://User:s3 cr"et!@LOCALHOST:9?token=tok123&x=1'
    const message = "page.goto: net::ERR_CONNECTION_REFUSED at http://User:s3%20cr%22et!@localhost:9/?token=tok123&x=1"
    const kept = redactMessage(message, stringLeaves({ url }))
    for (const secret of ["s3%20cr", "s3 cr", "tok123"]) expect(kept).not.toContain(secret)
    expect(kept).toContain("ERR_CONNECTION_REFUSED")
  })

  it("cuts the credentials of any URL, also inside another URL, and secret-named parameters", () => {
    const text = redactUrls(
      "at https://alice:pw1@host/a?x=1&api_key=K1&session_id=S1#access_token=F1 then http%3A%2F%2Fbob%3Apw2%40h%2F and http:\\/\\/c:pw3@h and Authorization: Bearer abcdefgh123"
    )
    for (const secret of ["alice", "pw1", "K1", "S1", "F1", "bob", "pw2", "pw3", "abcdefgh123"]) expect(text).not.toContain(secret)
    expect(text).toContain("https://«redacted»@host/a?x=1&api_key=«redacted»")
  })

  it("cuts credentials after 300,000 characters of scheme-like text (each run scanned once), and in a scheme run like x-https", () => {
    const run = "a-a".repeat(100_000)
    const text = redactUrls(`${run} https://carol:pw4@host/ ${run}x-https://dave:pw5@h ?next=https%3A%2F%2Feve%3Apw6%40h`)
    for (const secret of ["carol", "pw4", "dave", "pw5", "eve", "pw6"]) expect(text).not.toContain(secret)
    expect(text.startsWith(run)).toBe(true)
  })

  it("cuts typed text and environment values raw, JSON-escaped and URL-encoded", () => {
    const typed = 'Se cret"\\value\n2nd line here'
    const env = "ENV/VALUE&x=1"
    const leaves = stringLeaves({ text: typed, env: { A: env } })
    const kept = redactMessage(
      `typed ${JSON.stringify(typed)} sent as ${encodeURIComponent(typed)} and ${encodeURIComponent(env).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}, raw ${env}`,
      leaves
    )
    for (const secret of ["Se cret", "Se%20cret", "value", "ENV/VALUE", "ENV%2fVALUE"]) expect(kept).not.toContain(secret)
  })

  it("bounds the text and cuts a secret that the bound left half-quoted", () => {
    const secret = "PARTIAL-SECRET-0123456789"
    const filler = "F".repeat(4_000)
    const kept = redactMessage(`${filler.slice(0, 3_830)} ${secret}`, [filler.slice(0, 3_830), secret])
    expect(kept).not.toContain("PARTIAL")
    expect(kept.length).toBeLessThanOrEqual(MAX_BREADCRUMB_CHARS)
    expect(redactMessage("x".repeat(100_000), ["y".repeat(100_000)]).length).toBeLessThanOrEqual(MAX_BREADCRUMB_CHARS)
  })
})

describe("password values in aria snapshots", () => {
  it("masks a textbox's value and a text child, quoted or not, and nothing else", () => {
    const snapshot = [
      '- textbox "Passphrase" [ref=e18]: hunter2',
      '- textbox "Quoted" [ref=e19]: "Pa55  w0rd: x"',
      '- textbox "Placeholder" [ref=e20]:',
      "  - /placeholder: secret",
      "  - text: hunter2",
      '- textbox "Other" [ref=e21]: hunter2 and more',
      "- paragraph [ref=e22]: hunter"
    ].join("\n")
    const masked = maskPasswordValues(snapshot, ["hunter2", "Pa55  w0rd: x", "Pa55 w0rd: x"])
    expect(masked.split("\n")).toEqual([
      '- textbox "Passphrase" [ref=e18]: ••••',
      '- textbox "Quoted" [ref=e19]: ••••',
      '- textbox "Placeholder" [ref=e20]:',
      "  - /placeholder: secret",
      "  - text: ••••",
      '- textbox "Other" [ref=e21]: hunter2 and more',
      "- paragraph [ref=e22]: hunter"
    ])
    expect(maskPasswordValues(snapshot, [])).toBe(snapshot)
  })
})

describe("generated test code is inert", () => {
  const session = (steps: ReadonlyArray<RecordedStep>) =>
    ({ launch: { executablePath: "/opt/app\u2028x", app: '/apps/a"b', args: ['--x="); evil()'], env: { K: "v\u2029" } }, steps }) as unknown as AppSession

  it("refuses test names with control characters, line terminators, folders or no bound", () => {
    expect(testNameProblem("checkout.spec.ts")).toBeUndefined()
    expect(testNameProblem('quotes "and" (parens); fine')).toBeUndefined()
    for (const name of ["a\nb", "a\rb", "a\u2028b", "a\u0000b", "a\u202eb", "x".repeat(121), " "]) expect(testNameProblem(name)?._tag).toBe("InvalidArgument")
    for (const name of ["a/b.spec.ts", "..\\b", ".."]) expect(testNameProblem(name)?._tag).toBe("PathNotAllowed")
  })

  it("quotes every string as a literal: a parsed spec has only its own statements", () => {
    expect(codeString('a\u2028b"')).toBe('"a\\u2028b\\""')
    expect(selectorCode('label=x"); evil(); ("')).toBe('getByLabel("x\\"); evil(); (\\"")')
    const steps: Array<RecordedStep> = [
      { tool: "electron_fill", window: "w1", code: `await window.${selectorCode('css=#a"); evil("')}.fill(${codeString('"); evil(); ("')})` },
      { tool: "electron_menu_click", window: "w2\nevil()", windowUrl: "file:///x\u2028evil()", code: `// menu File > ${JSON.stringify("a\u2028evil()")}` }
    ]
    const code = renderTest(session(steps), 'name"); evil(); ("')
    const source = ts.createSourceFile("spec.ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)
    expect((source as unknown as { parseDiagnostics: ReadonlyArray<unknown> }).parseDiagnostics).toEqual([])
    const calls: Array<string> = []
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) calls.push(node.expression.getText(source))
      ts.forEachChild(node, visit)
    }
    visit(source)
    expect(calls).not.toContain("evil")
    expect(code).not.toMatch(/[\u2028\u2029]/)
    expect(source.statements).toHaveLength(3)
  })
})
