/**
 * The production plugin end to end over the in-memory MCP pair, on packaged-build fixtures made in setup
 * (test/plugins/production-fixture.ts) from the `hardened` and `insecure` sample apps, and the
 * `stagewright production validate` command on both apps (built dist/cli.js).
 */
import { FuseV1Options } from "@electron/fuses"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { activityLines } from "../support/activity.js"
import { runCli } from "../support/cli.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"
import { linuxBuild, macBuild, RELEASE_FUSES, tempProject } from "./production-fixture.js"

let mcp: TestClient
const hardened = tempProject("hardened-build")
const insecure = tempProject("insecure-build")
const locked = tempProject("locked-build")
const empty = tempProject("no-build")
let mac: Awaited<ReturnType<typeof macBuild>>

const idsOf = (structured: any): Set<string> => new Set((structured.findings as Array<{ id: string; where?: string }>).map((f) => `${f.id}@${f.where}`))

beforeAll(async () => {
  await linuxBuild(hardened, "hardened", RELEASE_FUSES)
  mac = await macBuild(hardened, "hardened", RELEASE_FUSES)
  await linuxBuild(insecure, "insecure", {})
  await linuxBuild(locked, "hardened", { ...RELEASE_FUSES, [FuseV1Options.EnableNodeCliInspectArguments]: false })
  mcp = await inMemoryClient({ plugins: ["production"], allowEval: ["main"] })
}, 120_000)

afterAll(async () => {
  await mcp?.close()
  for (const dir of [hardened, insecure, locked, empty]) rmSync(dir, { recursive: true, force: true })
})

describe("production plugin, outside the app", () => {
  it("electron_production_find_build lists the builds newest first (electron-builder Linux and macOS layouts)", async () => {
    const found = await mcp.call("electron_production_find_build", { folder: hardened })
    expect(found.isError, found.text).toBe(false)
    expect(found.text).toMatch(/^2 build\(s\) in /)
    expect(found.text).toMatch(
      /^\* dist\/linux-unpacked \(linux, electron-builder, .*executable: dist\/linux-unpacked\/hardened, asar: dist\/linux-unpacked\/resources\/app\.asar$/m
    )
    expect(found.text).toMatch(
      /^ {2}dist\/mac\/Hardened Demo\.app \(macos, electron-builder, .*executable: dist\/mac\/Hardened Demo\.app\/Contents\/MacOS\/Hardened Demo/m
    )
    expect((await mcp.call("electron_production_find_build", { folder: empty })).code).toBe("OPERATION_FAILED")
    const missing = await mcp.call("electron_production_find_build", { folder: join(empty, "nope") })
    expect(missing.code).toBe("INVALID_ARGUMENT")
    expect(missing.text).toMatch(/folder: .* does not exist/)
    expect((await mcp.call("electron_production_find_build", { folder: "" })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_production_fuses reads the wire (executable on Linux, Electron Framework on macOS) and warns when --inspect is off", async () => {
    const release = await mcp.call("electron_production_fuses", { build: hardened })
    expect(release.isError, release.text).toBe(false)
    expect(release.structured.fuses).toMatchObject({
      RunAsNode: "disabled",
      EnableCookieEncryption: "enabled",
      EnableNodeCliInspectArguments: "enabled",
      OnlyLoadAppFromAsar: "enabled"
    })
    expect(release.text).not.toMatch(/Warning/)
    const macFuses = await mcp.call("electron_production_fuses", { build: mac.bundle })
    expect(macFuses.structured.fuses).toMatchObject({ RunAsNode: "disabled", EnableEmbeddedAsarIntegrityValidation: "enabled" })
    const stock = await mcp.call("electron_production_fuses", { build: insecure })
    expect(stock.structured.fuses).toMatchObject({ RunAsNode: "enabled", EnableNodeOptionsEnvironmentVariable: "enabled" })
    const off = await mcp.call("electron_production_fuses", { build: locked })
    expect(off.text).toMatch(/^Warning: EnableNodeCliInspectArguments is off: Electron ignores --inspect.*main-process tools/m)
    expect((await mcp.call("electron_production_fuses", { build: empty })).code).toBe("OPERATION_FAILED")
  })

  it("electron_production_asar lists the archive and verifies file integrity; the header hash only where the build records it", async () => {
    const linux = await mcp.call("electron_production_asar", { build: hardened, files: 100 })
    expect(linux.isError, linux.text).toBe(false)
    expect(linux.text).toMatch(/every file matches its recorded integrity/)
    expect(linux.text).toMatch(/^ {2}main\.js \d+ B$/m)
    expect(linux.text).toMatch(/not checked \(Electron does not validate asar integrity on Linux/)
    const macOk = await mcp.call("electron_production_asar", { build: mac.bundle })
    expect(macOk.text).toMatch(new RegExp(`header hash ${mac.hash}: matches the build's ElectronAsarIntegrity`))
    mac.writePlist("0".repeat(64))
    expect((await mcp.call("electron_production_asar", { build: mac.bundle })).text).toMatch(/DOES NOT match/)
    mac.writePlist(mac.hash)
    // Change one byte of main.js's content inside the archive: its recorded integrity no longer matches.
    const bytes = readFileSync(mac.asarPath)
    const at = bytes.lastIndexOf("Hardened Demo")
    bytes[at] = "h".charCodeAt(0)
    writeFileSync(mac.asarPath, bytes)
    // Keep the macOS build the older one (find_build picks the newest by the asar's date).
    utimesSync(mac.asarPath, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000))
    const corrupt = await mcp.call("electron_production_asar", { build: mac.bundle })
    expect(corrupt.structured.corrupt.length).toBe(1)
    expect(corrupt.text).toMatch(/1 CORRUPT: /)
    expect((await mcp.call("electron_production_asar", { build: hardened, files: -1 })).code).toBe("INVALID_ARGUMENT")
  })

  it("electron_production_launch launches a build whose EnableNodeCliInspectArguments fuse is off over CDP, and says what that costs", async () => {
    const launched = await mcp.call("electron_production_launch", { build: locked })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.structured).toMatchObject({ overCdp: true, mainProcess: false })
    expect(launched.text).toMatch(/^Launched over CDP: the EnableNodeCliInspectArguments fuse is off; main-process tools .* are unavailable/m)
    expect((await mcp.call("electron_get_text", { target: "role=heading[level=1]" })).text).toBe("Hardened Demo")
    const audit = await mcp.call("electron_production_audit")
    expect(audit.code, audit.text).toBe("NEEDS_MAIN_PROCESS")
    expect(audit.text).toContain("inspect fuse off: launched over CDP")
    expect((await mcp.call("electron_close")).isError).toBe(false)
  })

  it("tools without an app: audit answers APP_NOT_RUNNING, and so does a report with nothing to check", async () => {
    expect((await mcp.call("electron_production_audit")).code).toBe("APP_NOT_RUNNING")
    expect((await mcp.call("electron_production_report")).code).toBe("APP_NOT_RUNNING")
  })

  it("every tool answers INVALID_ARGUMENT naming a bad field", async () => {
    const bad: ReadonlyArray<readonly [string, Record<string, unknown>, RegExp]> = [
      ["electron_production_find_build", {}, /folder/],
      ["electron_production_fuses", { build: 3 }, /build/],
      ["electron_production_asar", { build: hardened, files: 2.5 }, /files/],
      ["electron_production_audit", { window: "w1" }, /window/],
      ["electron_production_launch", { build: hardened, timeoutMs: -1 }, /timeoutMs/],
      ["electron_production_report", { build: "" }, /build/]
    ]
    for (const [tool, args, field] of bad) {
      const result = await mcp.call(tool, args)
      expect(result.code, `${tool}: ${result.text}`).toBe("INVALID_ARGUMENT")
      expect(result.text).toMatch(field)
    }
  })
})

describe("production plugin, in the running app", () => {
  let hardenedIds: Set<string>

  it("electron_production_launch starts the packaged hardened build through its own executable", async () => {
    const launched = await mcp.call("electron_production_launch", { build: hardened, env: { SAMPLE_APP_USER_DATA: freshUserData() }, timeoutMs: 45_000 })
    expect(launched.isError, launched.text).toBe(false)
    expect(launched.text).toMatch(/^Launched dist\/linux-unpacked \(linux, electron-builder/)
    expect(launched.text).toMatch(/standin-app\/index\.html/)
    const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' })
    expect(ready.isError, ready.text).toBe(false)
  })

  it("electron_production_audit shows the hardened window's preferences, CSP and handlers", async () => {
    const audit = await mcp.call("electron_production_audit")
    expect(audit.isError, audit.text).toBe(false)
    expect(audit.text).toMatch(
      /contextIsolation on, sandbox on, nodeIntegration off, webSecurity on, allowRunningInsecureContent off, experimentalFeatures off/
    )
    expect(audit.text).toMatch(/CSP: default-src 'self'; script-src 'self' \(headers not visible\); will-navigate listeners: 1; window-open handler: yes/)
    // The app set its permission handler at start-up, before the hook: Electron cannot be asked afterwards.
    expect(audit.text).toMatch(/permission handler: unknown/)
  })

  it("electron_production_report on the hardened build: no high or medium finding, and what could not be checked", async () => {
    const report = await mcp.call("electron_production_report", { build: hardened })
    expect(report.isError, report.text).toBe(false)
    expect(report.structured.counts).toMatchObject({ high: 0, medium: 0 })
    expect(report.text).toMatch(/^INFO {3}\[7\. Define a Content Security Policy\] w1: CSP: default-src 'self'; script-src 'self'$/m)
    expect(report.text).toMatch(/^LOW {4}\[19\. Check which fuses you can change\] build: fuse EnableNodeCliInspectArguments is enabled/m)
    expect(report.text).toMatch(/^- asar header integrity \(item 19\): Electron does not validate asar integrity on Linux/m)
    expect(report.text).toMatch(/^- permission request handler of w1's session \(item 5\): Electron has no getter/m)
    hardenedIds = idsOf(report.structured)
    expect((await mcp.call("electron_production_report", { build: empty })).code).toBe("OPERATION_FAILED")
  })

  it("the insecure build's report differs finding by finding, including an unvalidated shell.openExternal", async () => {
    const userData = freshUserData()
    const launched = await mcp.call("electron_production_launch", { build: insecure, env: { SAMPLE_APP_USER_DATA: userData }, timeoutMs: 45_000 })
    expect(launched.isError, launched.text).toBe(false)
    // The build starts cold under the whole suite's load: its page may take longer than the 10 s default.
    const ready = await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]', timeoutMs: 30_000 })
    expect(ready.isError, ready.text).toBe(false)
    expect((await mcp.call("electron_fill", { target: "label=URL to open", value: "file:///etc/passwd" })).isError).toBe(false)
    expect((await mcp.call("electron_click", { target: "testid=open-url-button" })).isError).toBe(false)
    // The app shows nothing of it (the OS opens the URL); its activity log records the call once made.
    await expect.poll(() => activityLines(userData, "open-external"), { timeout: 15_000 }).toEqual(["open-external file:///etc/passwd"])
    const report = await mcp.call("electron_production_report", { build: insecure })
    expect(report.isError, report.text).toBe(false)
    const insecureIds = idsOf(report.structured)
    const onlyInsecure = [...insecureIds].filter((id) => !hardenedIds.has(id)).sort()
    const onlyHardened = [...hardenedIds].filter((id) => !insecureIds.has(id)).sort()
    expect(onlyInsecure).toEqual(
      [
        "context-isolation-off@w1",
        "fuse-EnableCookieEncryption@build",
        "fuse-EnableEmbeddedAsarIntegrityValidation@build",
        "fuse-EnableNodeOptionsEnvironmentVariable@build",
        "fuse-GrantFileProtocolExtraPrivileges@build",
        "fuse-OnlyLoadAppFromAsar@build",
        "fuse-RunAsNode@build",
        "insecure-content-allowed@w1",
        "no-csp@w1",
        "no-navigation-guard@w1",
        "no-window-open-handler@w1",
        "node-integration@w1",
        "open-external-unsafe@main",
        "sandbox-off@w1",
        "web-security-off@w1"
      ].sort()
    )
    expect(onlyHardened).toEqual(["csp@w1"])
    expect(report.text).toMatch(
      /^HIGH {3}\[15\. Do not use shell\.openExternal with untrusted content\] main: shell\.openExternal called with a file: URL \(file:\/\/\/etc\/passwd\)/m
    )
    expect(report.structured.counts.high).toBeGreaterThanOrEqual(4)
  })

  it("remote content over http and open DevTools show in the audit and raise the report's severities", async () => {
    const server = createServer((_request, response) => response.end("<!doctype html><title>Remote</title><p>remote page</p>"))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      const devtools = await mcp.call("electron_eval_main", {
        function: "({ BrowserWindow }) => { BrowserWindow.getAllWindows()[0].webContents.openDevTools(); return true }"
      })
      expect(devtools.isError, devtools.text).toBe(false)
      expect((await mcp.call("electron_navigate", { url })).isError).toBe(false)
      const audit = await mcp.call("electron_production_audit")
      expect(audit.text).toContain(`w1 ${url}`)
      expect(audit.text).toMatch(/CSP: none \(headers not visible\).*DevTools open/)
      const report = await mcp.call("electron_production_report")
      expect(report.text).toMatch(
        new RegExp(`^HIGH {3}\\[1\\. Only load secure content\\] w1: loads ${url.replace(/[./]/g, "\\$&")} over an insecure protocol$`, "m")
      )
      expect(report.text).toMatch(/^HIGH {3}\[13\. Disable or limit navigation\] w1: no will-navigate listener/m)
      expect(report.text).toMatch(/^HIGH {3}\[4\. Enable process sandboxing\] w1: sandbox is off/m)
      expect(report.text).toMatch(/^INFO {3}\[release hygiene\] w1: DevTools are open in this window$/m)
    } finally {
      server.close()
      await mcp.call("electron_close")
    }
  })

  it("paths the agent gives are confined to --app-root", async () => {
    const confined = await inMemoryClient({ plugins: ["production"], appRoot: empty })
    try {
      for (const [tool, args] of [
        ["electron_production_find_build", { folder: hardened }],
        ["electron_production_fuses", { build: hardened }],
        ["electron_production_asar", { build: hardened }],
        ["electron_production_launch", { build: hardened }],
        ["electron_production_report", { build: hardened }]
      ] as const) {
        const result = await confined.call(tool, args)
        expect(result.code, `${tool}: ${result.text}`).toBe("PATH_NOT_ALLOWED")
        expect(result.text).toMatch(/is outside the app root/)
      }
    } finally {
      await confined.close()
    }
  })

  it("an unloaded plugin's tool answers PLUGIN_NOT_LOADED with the flag to restart with", async () => {
    const bare = await inMemoryClient({})
    try {
      const result = await bare.call("electron_production_report")
      expect(result.code).toBe("PLUGIN_NOT_LOADED")
      expect(result.text).toMatch(/Hint: restart with --plugin production$/)
    } finally {
      await bare.close()
    }
  })
})

describe("stagewright production validate", () => {
  it("lists the differences between the hardened and insecure apps, with different exit codes", async () => {
    const [good, bad] = await Promise.all([
      runCli(["production", "validate", sampleAppPath("hardened"), "--json"]),
      runCli(["production", "validate", sampleAppPath("insecure"), "--json"])
    ])
    expect(good.status, good.stderr).toBe(0)
    expect(bad.status, bad.stderr).toBe(1)
    const ids = (out: string) => new Set((JSON.parse(out).findings as Array<{ id: string; severity: string }>).map((f) => `${f.severity}:${f.id}`))
    const hardenedFindings = ids(good.stdout)
    const insecureFindings = ids(bad.stdout)
    expect([...hardenedFindings]).toEqual(["info:csp"])
    // The hook is preloaded before the app's code, so missing permission handlers are seen too.
    expect([...insecureFindings].sort()).toEqual(
      [
        "high:node-integration",
        "high:context-isolation-off",
        "high:web-security-off",
        "medium:sandbox-off",
        "medium:no-csp",
        "medium:insecure-content-allowed",
        "medium:no-navigation-guard",
        "medium:no-window-open-handler",
        "low:no-permission-handler"
      ].sort()
    )
    expect(JSON.parse(good.stdout).notRun.map((n: { check: string }) => n.check)).toEqual(["build checks (fuses, asar, signatures, update feed)"])
  }, 120_000)

  it("checks a packaged build's fuses and asar from outside, and says the in-app checks did not run", async () => {
    const result = await runCli(["production", "validate", insecure])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Security report for dist\/linux-unpacked \(linux, electron-builder/)
    expect(result.stdout).toMatch(/^MEDIUM \[19\. Check which fuses you can change\] build: fuse RunAsNode is enabled/m)
    expect(result.stdout).toMatch(/^- in-app checks .*: a packaged build is not launched by validate/m)
    const missing = await runCli(["production", "validate", join(empty, "nope")])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/does not exist/)
  }, 120_000)
})
