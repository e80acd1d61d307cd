import { describe, expect, it } from "@effect/vitest"
import { envName, prepareArgv, RESERVED_ENV } from "../../src/cli/argv.js"
import { forPeople, oneLine, wantsColour } from "../../src/cli/console.js"
import { commandTable } from "../../src/cli/main.js"
import { CLI, runCli } from "../support/cli.js"

const args = (...rest: Array<string>) => prepareArgv(["node", "stagewright", ...rest], commandTable, {})

describe("the command line before the parser", () => {
  it("makes the bare command serve, whatever its options' values", () => {
    for (const line of [
      ["--plugin", "production"],
      ["--plugin", "production", "--plugin", "storage"],
      ["--output-dir", "tools"],
      ["--app-root", "doctor"],
      ["--plugin=replay"],
      []
    ]) {
      expect(args(...line)).toEqual({ _tag: "Args", args: ["node", "stagewright", "serve", ...line] })
    }
    expect(args("doctor", "--app-root", "serve")).toEqual({ _tag: "Args", args: ["node", "stagewright", "doctor", "--app-root", "serve"] })
    expect(args("--help")).toEqual({ _tag: "Args", args: ["node", "stagewright", "--help"] })
  })

  it("refuses an unknown option or command in one line, with the closest one", () => {
    expect(args("--plugn", "x")).toEqual({
      _tag: "UsageError",
      message: "unknown option --plugn for serve (did you mean --plugin?); see stagewright serve --help"
    })
    expect(args("--bogus")).toMatchObject({ _tag: "UsageError", message: expect.stringMatching(/^unknown option --bogus for serve; /) })
    expect(args("--log-level", "bogus")).toMatchObject({ _tag: "UsageError", message: expect.stringContaining("unknown option --log-level") })
    expect(args("sevre")).toMatchObject({ _tag: "UsageError", message: expect.stringContaining("unknown command sevre (did you mean serve?)") })
    expect(args("--max-apps", "x")).toEqual({ _tag: "UsageError", message: "--max-apps x: expected a whole number" })
    expect(args("--tool-profile", "tesing")).toEqual({
      _tag: "UsageError",
      message: "--tool-profile tesing: expected one of essential, testing, debug, full (did you mean testing?)"
    })
    expect(args("--port")).toMatchObject({ _tag: "UsageError", message: "--port needs a value; see stagewright serve --help" })
  })

  it("takes every serve option from STAGEWRIGHT_<OPTION>, the command line first", () => {
    const env = {
      STAGEWRIGHT_PLUGIN: "production, storage",
      STAGEWRIGHT_APP_ROOT: "/srv/app",
      STAGEWRIGHT_ALLOW_PROFILE_SWITCH: "1",
      STAGEWRIGHT_PLUGIN_CONFIG: 'trace={"a":1,"b":2}\nclock={}',
      STAGEWRIGHT_JSON: "1"
    }
    expect(prepareArgv(["node", "sw", "--app-root", "/mine"], commandTable, env)).toEqual({
      _tag: "Args",
      args: [
        "node",
        "sw",
        "serve",
        "--app-root",
        "/mine",
        "--allow-profile-switch",
        "--plugin",
        "production",
        "--plugin",
        "storage",
        "--plugin-config",
        'trace={"a":1,"b":2}',
        "clock={}"
      ]
    })
    // doctor reads serve's variables (it checks what serve would run), not its own --json.
    expect(prepareArgv(["node", "sw", "doctor"], commandTable, env)).toMatchObject({ args: expect.not.arrayContaining(["--json"]) })
    expect(prepareArgv(["node", "sw", "tools"], commandTable, env)).toEqual({ _tag: "Args", args: ["node", "sw", "tools"] })
    expect(prepareArgv(["node", "sw"], commandTable, { STAGEWRIGHT_MAX_APPS: "many" })).toEqual({
      _tag: "UsageError",
      message: "STAGEWRIGHT_MAX_APPS=many: --max-apps many: expected a whole number"
    })
    expect(prepareArgv(["node", "sw"], commandTable, { STAGEWRIGHT_ALLOW_PROFILE_SWITCH: "maybe" })).toMatchObject({ _tag: "UsageError" })
  })

  it("maps no option onto a variable that already has a meaning", () => {
    const names = [...commandTable.commands.values()].flatMap((flags) => (flags ?? []).map((f) => envName(f.name)))
    expect(names).toContain("STAGEWRIGHT_APP_ROOT")
    for (const reserved of RESERVED_ENV) expect(names).not.toContain(reserved)
  })

  it("writes help for people: no parser filler, plain unless a terminal without NO_COLOR", () => {
    expect(forPeople("--plugin NAME\n\n  A user-defined piece of text.\n\n  Load a plugin\n\n  This option may be repeated zero or more times.\n")).toBe(
      "--plugin NAME\n\n  Load a plugin\n\n"
    )
    expect(wantsColour({ isTTY: true }, {})).toBe(true)
    expect(wantsColour({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(wantsColour({ isTTY: false }, {})).toBe(false)
    expect(oneLine("\x1b[1mReceived\x1b[0m\n\n  a thing\n")).toBe("Received a thing")
  })
})

describe("the built bin's usage and start-up errors", { timeout: 120_000 }, () => {
  it("one line, exit 2 for usage, exit 1 naming the setting for a start-up failure; help plain and without filler", async () => {
    expect(CLI).toMatch(/cli\.js$/)
    const misspelled = await runCli(["--plugn", "production"])
    expect(misspelled.status).toBe(2)
    expect(misspelled.stderr.trim().split("\n")).toEqual([
      "stagewright: unknown option --plugn for serve (did you mean --plugin?); see stagewright serve --help"
    ])
    const badValue = await runCli(["--allow-eval", "kernel"])
    expect(badValue.status).toBe(2)
    expect(badValue.stderr.trim().split("\n")).toEqual(["stagewright: --allow-eval kernel: expected renderer, main or all"])
    const plugin = await runCli(["--plugin", "nosuch"])
    expect(plugin.status).toBe(1)
    const errors = plugin.stderr.split("\n").filter((l) => l.startsWith("stagewright:"))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^stagewright: --plugin nosuch: Plugin "nosuch" not found/)
    expect(plugin.stderr).not.toMatch(/\n\s+at /)
    const help = await runCli(["--help"])
    expect(help.status).toBe(0)
    expect(help.stdout).not.toContain("\x1b[")
    expect(help.stdout).not.toContain("A user-defined piece of text")
    expect(help.stdout).toContain("STAGEWRIGHT_APP_ROOT")
    expect(help.stdout).toContain("--plugin NAME")
  })
})
