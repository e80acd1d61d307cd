/**
 * The production report's pure logic (src/plugins/production/checklist.ts): facts in, findings tied to
 * checklist items out, and the checks that could not run; and the build layouts build.ts recognizes.
 */
import { describe, expect, it } from "@effect/vitest"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative } from "node:path"
import { buildAt, findBuilds } from "../../src/plugins/production/build.js"
import {
  contentKind,
  cspWeaknesses,
  evaluate,
  formatReport,
  type AppFacts,
  type WebPrefsFacts,
  type WindowFacts
} from "../../src/plugins/production/checklist.js"
import { effectivePrefs } from "../../src/plugins/production/inapp.js"

const secure: WebPrefsFacts = effectivePrefs({})

const window = (overrides: Partial<WindowFacts> = {}): WindowFacts => ({
  id: "w1",
  url: "file:///app/index.html",
  prefs: secure,
  cspMeta: ["default-src 'self'; script-src 'self'"],
  cspHeader: undefined,
  willNavigateListeners: 1,
  windowOpenHandler: true,
  permissionHandler: true,
  devToolsOpened: false,
  ...overrides
})

const app = (windows: ReadonlyArray<WindowFacts>, overrides: Partial<AppFacts> = {}): AppFacts => ({
  electron: "33.0.0",
  packaged: true,
  windows,
  openExternal: [],
  hookedEarly: true,
  ...overrides
})

const ids = (facts: Parameters<typeof evaluate>[0]) => evaluate(facts).findings.map((f) => `${f.severity}:${f.item}:${f.id}`)

describe("production checklist", () => {
  it("Electron's defaults fill unset webPreferences (sandbox follows nodeIntegration)", () => {
    expect(secure).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, allowRunningInsecureContent: false })
    expect(effectivePrefs({ nodeIntegration: true }).sandbox).toBe(false)
    expect(effectivePrefs({ webSecurity: false }).allowRunningInsecureContent).toBe(true)
  })

  it("a hardened window gives only the CSP as info", () => {
    expect(ids({ app: app([window()]) })).toEqual(["info:7:csp"])
  })

  it("each insecure preference is a finding tied to its checklist item", () => {
    const prefs = {
      ...secure,
      contextIsolation: false,
      sandbox: false,
      nodeIntegration: true,
      webSecurity: false,
      allowRunningInsecureContent: true,
      experimentalFeatures: true,
      enableBlinkFeatures: "CSSVariables"
    }
    const found = ids({ app: app([window({ prefs, cspMeta: [], willNavigateListeners: 0, windowOpenHandler: false, permissionHandler: false })]) })
    expect(found).toEqual([
      "high:2:node-integration",
      "high:3:context-isolation-off",
      "high:6:web-security-off",
      "medium:4:sandbox-off",
      "medium:7:no-csp",
      "medium:8:insecure-content-allowed",
      "medium:9:experimental-features",
      "medium:10:blink-features",
      "medium:13:no-navigation-guard",
      "medium:14:no-window-open-handler",
      "low:5:no-permission-handler"
    ])
  })

  it("remote content raises the severity of missing guards, and plain http is high (item 1)", () => {
    const found = ids({ app: app([window({ url: "http://example.com/", willNavigateListeners: 0, windowOpenHandler: false, permissionHandler: false })]) })
    expect(found).toEqual([
      "high:1:insecure-content",
      "high:5:no-permission-handler",
      "high:13:no-navigation-guard",
      "high:14:no-window-open-handler",
      "info:7:csp"
    ])
  })

  it("a weak CSP is medium; unknown handlers and unreadable pages are listed as not checked", () => {
    const report = evaluate({
      app: app([window({ cspMeta: ["default-src *; script-src 'self' 'unsafe-inline'"], windowOpenHandler: "unknown", permissionHandler: "unknown" })])
    })
    expect(report.findings.map((f) => f.id)).toEqual(["weak-csp"])
    expect(report.notRun.map((n) => n.item)).toEqual([14, 5])
    expect(report.notRun[1]!.reason).toMatch(/no getter/)
    expect(cspWeaknesses("script-src 'self' 'nonce-abc' 'unsafe-inline'")).toEqual([])
    expect(cspWeaknesses("img-src *")).toEqual(["no script-src or default-src"])
  })

  it("shell.openExternal: https is info, other schemes are high (item 15)", () => {
    expect(ids({ app: app([], { openExternal: ["https://example.com/", "file:///etc/passwd"] }) })).toEqual([
      "high:15:open-external-unsafe",
      "info:15:open-external"
    ])
  })

  it("fuses and asar integrity give item 19 findings; Linux cannot check the header hash", () => {
    const wire = {
      RunAsNode: "enabled",
      EnableNodeOptionsEnvironmentVariable: "enabled",
      EnableNodeCliInspectArguments: "enabled",
      EnableEmbeddedAsarIntegrityValidation: "disabled",
      OnlyLoadAppFromAsar: "disabled",
      EnableCookieEncryption: "disabled",
      GrantFileProtocolExtraPrivileges: "enabled"
    } as const
    const asar = { path: "app.asar", files: 3, corrupt: [], withoutIntegrity: 0, headerIntegrity: { status: "unchecked" as const, reason: "Linux" } }
    const report = evaluate({ build: { path: "/b", platform: "linux", fuses: { wire }, asar } })
    expect(report.findings.map((f) => `${f.severity}:${f.item}:${f.id}`)).toEqual([
      "medium:19:fuse-RunAsNode",
      "medium:19:fuse-EnableNodeOptionsEnvironmentVariable",
      "medium:19:fuse-OnlyLoadAppFromAsar",
      "low:19:fuse-EnableNodeCliInspectArguments",
      "low:19:fuse-EnableCookieEncryption",
      "low:19:fuse-GrantFileProtocolExtraPrivileges",
      "info:19:fuse-EnableEmbeddedAsarIntegrityValidation"
    ])
    expect(report.notRun).toEqual([{ check: "asar header integrity", item: 19, reason: "Linux" }])
    const tampered = evaluate({
      build: { path: "/b", platform: "macos", fuses: { error: "no wire" }, asar: { ...asar, corrupt: ["main.js"], headerIntegrity: { status: "mismatch" } } }
    })
    expect(tampered.findings.map((f) => f.id)).toEqual(["asar-corrupt", "asar-header-mismatch"])
    expect(tampered.counts.high).toBe(2)
    expect(tampered.notRun[0]).toMatchObject({ check: "fuses", reason: "no wire" })
  })

  it("release checks: pass is info, fail medium and warn low unless they say, not-checked a check not run; all kept in order in report.release", () => {
    const release = [
      { id: "win-authenticode", check: "Authenticode signature", status: "fail", detail: "not signed", where: "App.exe" },
      { id: "win-authenticode", check: "Authenticode signature", status: "pass", detail: "present; not verified on this OS", where: "Setup.exe" },
      { id: "update-feed", check: "update feed", status: "fail", severity: "high", detail: "plain http", where: "app-update.yml" },
      { id: "appimage-signature", check: "AppImage signature", status: "warn", detail: "not signed", where: "App.AppImage" },
      { id: "mac-codesign", check: "codesign --verify", status: "not-checked", detail: "not checked on this OS: codesign needs macOS", where: "App.app" }
    ] as const
    const report = evaluate({ build: { path: "/b", platform: "windows", fuses: { error: "no wire" }, asar: undefined, release } })
    expect(report.findings.filter((f) => f.item === null).map((f) => `${f.severity}:${f.id}@${f.where}`)).toEqual([
      "high:update-feed-fail@app-update.yml",
      "medium:win-authenticode-fail@App.exe",
      "low:appimage-signature-warn@App.AppImage",
      "info:win-authenticode-pass@Setup.exe"
    ])
    expect(report.notRun).toContainEqual({ check: "codesign --verify (App.app)", item: null, reason: "not checked on this OS: codesign needs macOS" })
    expect(report.release).toEqual(release)
    const text = formatReport(report, "Report")
    expect(text).toMatch(/^INFO {3}\[release hygiene\] Setup\.exe: Authenticode signature PASS: present; not verified on this OS$/m)
    expect(text).toMatch(/^- codesign --verify \(App\.app\): not checked on this OS: codesign needs macOS$/m)
    expect(evaluate({ app: app([window()]) }).release).toEqual([])
  })

  it("formats findings with their checklist item and the checks not run", () => {
    const text = formatReport(evaluate({ app: app([window({ cspMeta: undefined, devToolsOpened: true })]) }), "Report")
    expect(text).toMatch(/^Report: 0 high, 1 medium, 0 low, 0 info$/m)
    expect(text).toMatch(/^MEDIUM \[release hygiene\] w1: DevTools are open/m)
    expect(text).toMatch(/^- CSP of w1 \(item 7\): the page could not be read$/m)
  })

  it("classifies content by URL", () => {
    expect(["https://a/", "http://a/", "file:///x", "app://main/", "about:blank", ""].map(contentKind)).toEqual([
      "remote-secure",
      "remote-insecure",
      "local",
      "local",
      "blank",
      "blank"
    ])
  })
})

describe("production build layouts", () => {
  const touch = (path: string, mode = 0o644, ageMs = 0) => {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, "x")
    chmodSync(path, mode)
    const when = new Date(Date.now() - ageMs)
    utimesSync(path, when, when)
  }

  it("finds electron-builder, Forge and nested release layouts for Windows, Linux and macOS, newest first", () => {
    const root = mkdtempSync(join(tmpdir(), "stagewright-layouts-"))
    try {
      touch(join(root, "release", "1.2.0", "win-unpacked", "Foo App.exe"))
      touch(join(root, "release", "1.2.0", "win-unpacked", "Uninstall Foo App.exe"))
      touch(join(root, "release", "1.2.0", "win-unpacked", "resources", "app.asar"), 0o644, 1_000)
      touch(join(root, "out", "foo-linux-x64", "foo"), 0o755)
      touch(join(root, "out", "foo-linux-x64", "chrome-sandbox"), 0o755)
      touch(join(root, "out", "foo-linux-x64", "libffmpeg.so"), 0o755)
      touch(join(root, "out", "foo-linux-x64", "resources", "app.asar"), 0o644, 60_000)
      touch(join(root, "out", "foo-darwin-arm64", "Foo.app", "Contents", "MacOS", "Foo"), 0o755)
      touch(join(root, "out", "foo-darwin-arm64", "Foo.app", "Contents", "Resources", "app.asar"), 0o644, 120_000)
      touch(join(root, "dist", "assets", "index.js"))
      const builds = findBuilds(root).map((b) => [relative(root, b.path), b.platform, b.layout, b.executable && relative(root, b.executable)])
      expect(builds).toEqual([
        ["release/1.2.0/win-unpacked", "windows", "electron-builder", "release/1.2.0/win-unpacked/Foo App.exe"],
        ["out/foo-linux-x64", "linux", "forge", "out/foo-linux-x64/foo"],
        ["out/foo-darwin-arm64/Foo.app", "macos", "forge", "out/foo-darwin-arm64/Foo.app/Contents/MacOS/Foo"]
      ])
      expect(findBuilds(join(root, "out", "foo-linux-x64")).map((b) => b.layout)).toEqual(["forge"])
      expect(buildAt(join(root, "dist"))).toBeUndefined()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
