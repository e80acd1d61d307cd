/**
 * Secrets never enter the record (issue 33): the operator's secrets (`secrets`, as --secrets FILE) are
 * typed by name, `{{secret:NAME}}`, substituted only at the page, and never returned or recorded (answers,
 * snapshots, the trace, the exported test, last_error); keys pressed and values asserted in a password
 * field are redacted in the trace like typed ones.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { mkdtempSync, readFileSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

const SECRET = "s3cr3t-Placeholder-9931"
const PRESSED = "qkz"
const ASSERTED = "asserted-pass-5521"

describe("secret placeholders", () => {
  const outputDir = mkdtempSync(join(tmpdir(), "sw-secret-ph-"))
  let mcp: TestClient
  const answers: Array<string> = []
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await mcp.call(tool, args)
    answers.push(JSON.stringify(result))
    return result
  }

  beforeAll(async () => {
    mcp = await inMemoryClient({ plugins: ["trace"], outputDir, pluginConfig: { trace: { file: "placeholders" } }, secrets: { LOGIN_PW: SECRET } })
    expect((await call("electron_launch", { app: sampleAppPath("hardened"), env: { SAMPLE_APP_USER_DATA: freshUserData() } })).isError).toBe(false)
    await call("electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" })
  })
  afterAll(async () => {
    await mcp.close()
  })

  it("types the secret by name into the page, and every answer shows the placeholder instead", async () => {
    expect((await call("electron_fill", { target: "testid=ping-input", value: "{{secret:LOGIN_PW}}" })).isError).toBe(false)
    // The page holds the value (the assertion compares it there), the answers only the placeholder.
    const passed = await call("electron_expect_value", { target: "testid=ping-input", value: "{{secret:LOGIN_PW}}" })
    expect(passed.isError, passed.text).toBe(false)
    const read = await call("electron_get_attribute", { target: "testid=ping-input", name: "value" })
    expect(JSON.stringify(read)).not.toContain(SECRET)
    const snapshot = await call("electron_snapshot")
    expect(snapshot.isError).toBe(false)
    expect(snapshot.text).toContain("{{secret:LOGIN_PW}}")
    expect((await call("electron_fill", { target: "testid=passphrase-input", value: "{{secret:LOGIN_PW}}" })).isError).toBe(false)
    const unknown = await call("electron_fill", { target: "testid=ping-input", value: "{{secret:NOPE}}" })
    expect(unknown.code).toBe("INVALID_ARGUMENT")
    expect(unknown.text).toContain("LOGIN_PW")
    // Keys pressed and a value asserted in the password field.
    await call("electron_click", { target: "testid=passphrase-input" })
    expect((await call("electron_press_key", { key: PRESSED.split("").join(" ") })).isError).toBe(false)
    expect((await call("electron_expect_value", { target: "testid=passphrase-input", value: ASSERTED, timeoutMs: 200 })).code).toBe("ASSERTION_FAILED")
    const exported = await call("electron_export_test", { name: "secret-flow" })
    expect(exported.isError, exported.text).toBe(false)
    const status = await call("electron_status")
    for (const answer of answers) expect(answer).not.toContain(SECRET)
    expect(JSON.stringify(status)).not.toContain(ASSERTED)
    const files = readdirSync(outputDir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => join(f.parentPath, f.name))
    expect(files.some((f) => f.endsWith(".jsonl"))).toBe(true)
    for (const file of files) {
      const text = readFileSync(file, "utf8")
      expect(text, file).not.toContain(SECRET)
      if (file.endsWith(".jsonl")) {
        expect(text, file).not.toContain(ASSERTED)
        expect(text, file).not.toContain(PRESSED.split("").join(" "))
      }
    }
  })

  it("keeps a password typed without a placeholder out of the exported test's steps, as the trace does", async () => {
    const typed = { fill: "plain-fill-4417", type: "plain-type-8823", form: "plain-form-3391", asserted: "plain-assert-5521" }
    expect((await call("electron_fill", { target: "testid=passphrase-input", value: typed.fill })).isError).toBe(false)
    expect((await call("electron_type", { target: "testid=passphrase-input", text: typed.type })).isError).toBe(false)
    expect((await call("electron_fill_form", { fields: [{ target: "testid=passphrase-input", value: typed.form }] })).isError).toBe(false)
    expect((await call("electron_press_key", { target: "testid=passphrase-input", key: "w" })).isError).toBe(false)
    expect((await call("electron_press_key", { key: "j k" })).isError).toBe(false)
    expect((await call("electron_press_key", { target: "testid=passphrase-input", key: "Enter" })).isError).toBe(false)
    // A value asserted on the password field is a password too.
    expect((await call("electron_fill", { target: "testid=passphrase-input", value: typed.asserted })).isError).toBe(false)
    const asserted = await call("electron_expect_value", { target: "testid=passphrase-input", value: typed.asserted })
    expect(asserted.isError, asserted.text).toBe(false)
    // The same tools into a plain field keep their values: replaying the test types them.
    expect((await call("electron_fill", { target: "testid=ping-input", value: "plain-visible-1" })).isError).toBe(false)
    const exported = await call("electron_export_test", { name: "typed-passwords", inline: true })
    expect(exported.isError, exported.text).toBe(false)
    for (const value of Object.values(typed)) expect(exported.text).not.toContain(value)
    expect(exported.text).not.toMatch(/press\("[wjk]"\)/)
    expect(exported.text).toContain('press("Enter")')
    expect(exported.text).toContain("plain-visible-1")
    expect(exported.text).toContain("«redacted»")
  })
})
