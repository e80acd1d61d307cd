/**
 * The record of a session, end to end on the sample apps: a session of six calls on the tasks app,
 * recorded by the trace plugin, replays headless (`stagewright replay`, the built CLI) against a fresh
 * launch and passes; replayed against a copy of the app whose heading changed, it exits non-zero naming
 * the assertion step. On the hardened app, no secret reaches the trace file: a Bearer token in an argument,
 * values typed into its password field (fill, type, fill_form) and a launch's env value.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { runCli } from "../support/cli.js"
import { freshUserData, inMemoryClient } from "../support/mcp.js"

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))

describe("replaying a recorded session", () => {
  let trace: string

  beforeAll(async () => {
    const outputDir = temp("sw-trace-record-")
    const mcp = await inMemoryClient({ plugins: ["trace"], outputDir, pluginConfig: { trace: { file: "six-calls" } } })
    try {
      const steps: Array<[string, Record<string, unknown>]> = [
        ["electron_launch", { app: sampleAppPath("tasks"), env: { SAMPLE_APP_USER_DATA: freshUserData() } }],
        ["electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" }],
        ["electron_fill", { target: "testid=ping-input", value: "replayed" }],
        ["electron_click", { target: 'role=button[name="Ping"]' }],
        ["electron_expect_text", { target: "role=heading[level=1]", text: "Task Board" }],
        ["electron_expect_text", { target: "testid=ping-result", text: "pong:replayed" }]
      ]
      for (const [tool, args] of steps) {
        const result = await mcp.call(tool, args)
        expect(result.isError, `${tool}: ${result.text}`).toBe(false)
      }
    } finally {
      await mcp.close()
    }
    trace = join(outputDir, "six-calls.jsonl")
  })

  it("records six calls after the header, the launch's env value redacted", () => {
    const lines = readFileSync(trace, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    expect(lines[0]).toMatchObject({ type: "header", schema: 1 })
    expect(lines.slice(1).map((l) => `${l.tool}:${l.outcome}`)).toEqual([
      "electron_launch:ok",
      "electron_wait_for:ok",
      "electron_fill:ok",
      "electron_click:ok",
      "electron_expect_text:ok",
      "electron_expect_text:ok"
    ])
    expect(lines[1]).toMatchObject({ redacted: true, args: { env: { SAMPLE_APP_USER_DATA: "«redacted»" } } })
    expect(lines[3]).toMatchObject({ redacted: false, args: { value: "replayed" } })
  })

  it("replays headless against a fresh launch and passes (exit 0)", async () => {
    const run = await runCli(["replay", "--env", `SAMPLE_APP_USER_DATA=${freshUserData()}`, "--output-dir", temp("sw-replay-out-"), trace])
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    const steps = run.stdout.split("\n").filter((l) => /^(ok|FAIL|skip) /.test(l))
    expect(steps).toHaveLength(6)
    expect(steps.every((l) => l.startsWith("ok "))).toBe(true)
    expect(steps[0]).toMatch(/^ok +1 electron_launch$/)
    expect(run.stdout).toContain("Replay passed: 6 run, 0 failed, 0 skipped.")
  })

  it("fails naming the step when the app changed (a copy whose heading says something else)", async () => {
    const app = join(temp("sw-replay-app-"), "tasks")
    cpSync(sampleAppPath("tasks"), app, { recursive: true })
    const page = join(app, "renderer", "index.html")
    const html = readFileSync(page, "utf8")
    expect(html).toContain("<h1>Task Board</h1>")
    writeFileSync(page, html.replace("<h1>Task Board</h1>", "<h1>Task List</h1>"))
    const run = await runCli(["replay", "--app", app, "--env", `SAMPLE_APP_USER_DATA=${freshUserData()}`, "--output-dir", temp("sw-replay-out-"), trace])
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1)
    expect(run.stdout).toMatch(/^FAIL +5 electron_expect_text: was ok, now ASSERTION_FAILED: /m)
    expect(run.stdout).toMatch(/^ok +6 electron_expect_text$/m)
    expect(run.stdout).toContain("Replay failed: 6 run, 1 failed, 0 skipped. First failure: step 5 electron_expect_text (ASSERTION_FAILED).")
  })
})

describe("no secret reaches the trace file", () => {
  const BEARER = "sk_live_Zq81bearerToken"
  const FILLED = "Pa55-fill-zebra"
  const TYPED = "typed-pass-7788"
  const FORM = "form-pass-4455"
  const ENV_VALUE = "env-value-must-not-leak-31"
  let text: string
  const outputDir = temp("sw-trace-secrets-")

  beforeAll(async () => {
    const mcp = await inMemoryClient({ plugins: ["trace"], outputDir, pluginConfig: { trace: { file: "secrets" } } })
    const calls: Array<[string, Record<string, unknown>]> = [
      ["electron_launch", { app: sampleAppPath("hardened"), env: { SAMPLE_APP_USER_DATA: freshUserData(), DEMO_API_KEY: ENV_VALUE } }],
      ["electron_wait_for", { target: 'css=body[data-ready="true"]', state: "attached" }],
      ["electron_fill", { target: "testid=ping-input", value: `Authorization: Bearer ${BEARER}` }],
      ["electron_fill", { target: "testid=passphrase-input", value: FILLED }],
      ["electron_type", { target: "label=Passphrase", text: TYPED }],
      ["electron_click", { target: "testid=passphrase-input" }],
      ["electron_type", { text: "-more" }],
      [
        "electron_fill_form",
        {
          fields: [
            { target: "testid=ping-input", value: "plain-visible-value" },
            { target: "testid=passphrase-input", value: FORM }
          ]
        }
      ]
    ]
    try {
      for (const [tool, args] of calls) {
        const result = await mcp.call(tool, args)
        expect(result.isError, `${tool}: ${result.text}`).toBe(false)
      }
    } finally {
      await mcp.close()
    }
    text = readFileSync(join(outputDir, "secrets.jsonl"), "utf8")
  })

  it("holds every call, with what is not secret as given", () => {
    const calls = text
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l))
    expect(calls.map((c) => c.tool)).toEqual([
      "electron_launch",
      "electron_wait_for",
      "electron_fill",
      "electron_fill",
      "electron_type",
      "electron_click",
      "electron_type",
      "electron_fill_form"
    ])
    // The file does record arguments: a plain value typed into a text field is there.
    expect(text).toContain("plain-visible-value")
    expect(calls[0].args.env).toEqual({ SAMPLE_APP_USER_DATA: "«redacted»", DEMO_API_KEY: "«redacted»" })
    expect(calls[2].args.value).toBe("Authorization: Bearer «redacted»")
    expect(calls[7].args.fields).toEqual([
      { target: "testid=ping-input", value: "plain-visible-value" },
      { target: "testid=passphrase-input", value: "«redacted»" }
    ])
  })

  it("greps clean for the Bearer token, the password values and the env value", () => {
    for (const secret of [BEARER, FILLED, TYPED, "-more", FORM, ENV_VALUE]) expect(text, `leaked ${secret}`).not.toContain(secret)
  })
})

describe("replaying a trace that switched the tool profile", () => {
  it("replays electron_profile and the calls after it (the replay server allows the switch the trace made)", async () => {
    const outputDir = temp("sw-trace-profile-")
    const mcp = await inMemoryClient({ plugins: ["trace"], outputDir, allowProfileSwitch: true, pluginConfig: { trace: { file: "profile-switch" } } })
    try {
      for (const [tool, args] of [
        ["electron_profile", { profile: "essential" }],
        ["electron_status", {}],
        ["electron_profile", { profile: "full" }]
      ] as const) {
        const result = await mcp.call(tool, args)
        expect(result.isError, `${tool}: ${result.text}`).toBe(false)
      }
    } finally {
      await mcp.close()
    }
    const run = await runCli(["replay", "--output-dir", temp("sw-replay-profile-out-"), join(outputDir, "profile-switch.jsonl")])
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toMatch(/ok +1 electron_profile/)
    expect(run.stdout).toContain("Replay passed: 3 run, 0 failed, 0 skipped.")
  })
})
