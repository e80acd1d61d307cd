/**
 * The production plugin's release checks end to end over the in-memory MCP pair: electron_production_report
 * on synthetic packaged projects (a signed and notarized-looking macOS bundle, an ad-hoc one, a Windows
 * build with an unsigned executable and a signed installer and a leaky http feed, a Linux build with
 * AppImages, a link out of the build and a dev feed), each check pass / fail / warn / not checked; and the
 * macOS tools' branch (codesign, spctl) with a stand-in host, as this machine has neither.
 */
import { createPackage } from "@electron/asar"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { buildAt } from "../../src/plugins/production/build.js"
import { releaseChecks, systemHost, type ReleaseHost } from "../../src/plugins/production/release.js"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { tempProject } from "./production-fixture.js"
import { appImageSections, elf, fatMachO, machO, pe } from "./release-fixture.js"

let mcp: TestClient
const mac = tempProject("release-mac")
const adhoc = tempProject("release-adhoc")
const win = tempProject("release-win")
const linux = tempProject("release-linux")

const put = (path: string, data: string | Buffer, mode = 0o644) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, data)
  chmodSync(path, mode)
}

/** resources/app.asar of a tiny app whose package.json lists `dependencies`. */
const asar = async (asarPath: string, dependencies: Record<string, string>) => {
  const app = `${asarPath}.src`
  put(join(app, "package.json"), JSON.stringify({ name: "demo", version: "1.0.0", main: "index.js", dependencies, repository: "https://github.com/acme/demo" }))
  put(join(app, "index.js"), "require('electron')\n")
  mkdirSync(dirname(asarPath), { recursive: true })
  await createPackage(app, asarPath)
  rmSync(app, { recursive: true, force: true })
}

const bundle = async (project: string, product: string, executable: Buffer, signed: boolean) => {
  const contents = join(project, "dist", "mac", `${product}.app`, "Contents")
  put(
    join(contents, "Info.plist"),
    `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>CFBundleExecutable</key><string>${product}</string></dict></plist>\n`
  )
  put(join(contents, "MacOS", product), executable, 0o755)
  await asar(join(contents, "Resources", "app.asar"), { "electron-updater": "^6.3.9" })
  if (signed) {
    put(
      join(contents, "_CodeSignature", "CodeResources"),
      '<?xml version="1.0"?>\n<plist version="1.0"><dict><key>files</key><dict/><key>files2</key><dict/></dict></plist>\n'
    )
    put(join(contents, "CodeResources"), Buffer.concat([Buffer.from("s8ch"), Buffer.alloc(200, 5)]))
    put(join(contents, "Resources", "app-update.yml"), "owner: acme\nrepo: demo\nprovider: github\nupdaterCacheDirName: demo-updater\n")
  }
  return join(project, "dist", "mac", `${product}.app`)
}

beforeAll(async () => {
  const signedSlice = (arch: "x86_64" | "arm64") => machO({ signature: "certificate", hardenedRuntime: true, arch })
  await bundle(mac, "Signed Demo", fatMachO([signedSlice("x86_64"), signedSlice("arm64")]), true)
  await bundle(adhoc, "Adhoc Demo", machO({ signature: "adhoc", arch: "arm64" }), false)

  const unpacked = join(win, "dist", "win-unpacked")
  put(join(unpacked, "Demo.exe"), pe())
  await asar(join(unpacked, "resources", "app.asar"), { "electron-updater": "^6.3.9" })
  put(
    join(unpacked, "resources", "app-update.yml"),
    "provider: generic\nurl: http://updates.example.com/demo/latest?token=s3cr3t-value\nupdaterCacheDirName: demo-updater\n"
  )
  put(join(win, "dist", "Demo Setup 1.0.0.exe"), pe(2))

  const linuxBuild = join(linux, "dist", "linux-unpacked")
  put(join(linuxBuild, "demo"), "#!/bin/sh\n", 0o755)
  await asar(join(linuxBuild, "resources", "app.asar"), { "electron-updater": "^6.3.9" })
  put(join(linux, "outside-app-update.yml"), "provider: generic\nurl: https://example.com/\n")
  symlinkSync(join(linux, "outside-app-update.yml"), join(linuxBuild, "resources", "app-update.yml"))
  put(join(linux, "dist", "Demo-1.0.0.AppImage"), elf(appImageSections(true)), 0o755)
  put(join(linux, "dist", "Demo-0.9.0.AppImage"), elf(appImageSections(false)), 0o755)
  const past = new Date(Date.now() - 3_600_000)
  utimesSync(join(linux, "dist", "Demo-0.9.0.AppImage"), past, past)
  put(join(linux, "dev-app-update.yml"), "provider: generic\nurl: http://localhost:8080/\n")

  mcp = await inMemoryClient({ plugins: ["production"] })
}, 60_000)

afterAll(async () => {
  await mcp?.close()
  for (const dir of [mac, adhoc, win, linux]) rmSync(dir, { recursive: true, force: true })
})

type Check = { id: string; status: string; where: string; detail: string }
const statuses = (structured: any) => (structured.release as Array<Check>).map((c) => `${c.id}@${c.where}:${c.status}`)

describe("electron_production_report: release signatures and update feed", () => {
  it("a signed, notarized-looking macOS bundle passes the parsed checks; codesign and spctl are not checked on this OS", async () => {
    const report = await mcp.call("electron_production_report", { build: mac })
    expect(report.isError, report.text).toBe(false)
    const where = "dist/mac/Signed Demo.app"
    expect(statuses(report.structured)).toEqual([
      `mac-codesign@${where}:not-checked`,
      `mac-gatekeeper@${where}:not-checked`,
      `mac-sealed-resources@${where}:pass`,
      `mac-code-signature@${where}:pass`,
      `mac-hardened-runtime@${where}:pass`,
      `mac-notarization-staple@${where}:pass`,
      `update-feed@${where}/Contents/Resources/app-update.yml:pass`
    ])
    expect(report.text).toMatch(
      /^INFO {3}\[release hygiene\] dist\/mac\/Signed Demo\.app: code signature of the main executable PASS: Contents\/MacOS\/Signed Demo carries a certificate signature \(CMS\) for x86_64, arm64; present, not verified on this OS/m
    )
    expect(report.text).toMatch(/^INFO .*notarization ticket \(stapled\) PASS: a ticket is stapled \(Contents\/CodeResources, 204 bytes\)/m)
    expect(report.text).toMatch(
      /^INFO .*update feed PASS: github acme\/demo on github\.com \(https\), updaterCacheDirName demo-updater; electron-updater \^6\.3\.9$/m
    )
    expect(report.text).toMatch(/^- codesign --verify --deep --strict \(dist\/mac\/Signed Demo\.app\): not checked on this OS: codesign needs macOS/m)
    expect(report.text).toMatch(/^- spctl --assess \(Gatekeeper\) \(dist\/mac\/Signed Demo\.app\): not checked on this OS/m)
  })

  it("an ad-hoc signed bundle fails: ad-hoc only, resources not sealed, no ticket; electron-updater without a feed warns", async () => {
    const report = await mcp.call("electron_production_report", { build: adhoc })
    expect(report.isError, report.text).toBe(false)
    const ids = (report.structured.findings as Array<{ id: string; severity: string }>).map((f) => `${f.severity}:${f.id}`)
    expect(ids).toEqual(
      expect.arrayContaining(["medium:mac-sealed-resources-fail", "medium:mac-code-signature-fail", "low:mac-notarization-staple-warn", "low:update-feed-warn"])
    )
    expect(ids.some((id) => id.startsWith("info:mac-hardened-runtime") || id.includes("hardened"))).toBe(false)
    expect(report.text).toMatch(
      /code signature of the main executable FAIL: Contents\/MacOS\/Adhoc Demo has an ad-hoc signature only \(linker-signed\) for arm64/
    )
    expect(report.text).toMatch(
      /update feed WARN: electron-updater is in the app but dist\/mac\/Adhoc Demo\.app\/Contents\/Resources\/app-update\.yml is missing/
    )
  })

  it("Windows: an unsigned executable fails, the signed installer beside it passes (not verified on this OS); an http feed with a token fails high, token never shown", async () => {
    const report = await mcp.call("electron_production_report", { build: win })
    expect(report.isError, report.text).toBe(false)
    expect(statuses(report.structured)).toEqual([
      "win-authenticode@dist/win-unpacked/Demo.exe:fail",
      "win-authenticode@dist/Demo Setup 1.0.0.exe:pass",
      "update-feed-credential@dist/win-unpacked/resources/app-update.yml:fail",
      "update-feed@dist/win-unpacked/resources/app-update.yml:fail"
    ])
    expect(report.text).toMatch(
      /^MEDIUM \[release hygiene\] dist\/win-unpacked\/Demo\.exe: Authenticode signature FAIL: not signed \(the PE security directory is empty\)/m
    )
    expect(report.text).toMatch(
      /^INFO .*dist\/Demo Setup 1\.0\.0\.exe: Authenticode signature PASS: present \(PKCS#7 SignedData, 48 bytes, x64\); not verified on this OS/m
    )
    expect(report.text).toMatch(/^HIGH .*update feed FAIL: the feed is plain http \(updates\.example\.com\)/m)
    expect(report.text).toMatch(/^HIGH .*update feed FAIL: app-update\.yml ships a credential in url \(value not shown\)/m)
    expect(report.structured.counts.high).toBe(2)
    expect(JSON.stringify(report.raw)).not.toMatch(/s3cr3t|\/demo\/latest/)
  })

  it("Linux: the AppImages beside the build (signed passes, unsigned warns), a link out of the build is not followed, the dev feed is reported", async () => {
    const report = await mcp.call("electron_production_report", { build: linux })
    expect(report.isError, report.text).toBe(false)
    expect(statuses(report.structured)).toEqual([
      "appimage-signature@dist/Demo-1.0.0.AppImage:pass",
      "appimage-signature@dist/Demo-0.9.0.AppImage:warn",
      "update-feed@dist/linux-unpacked/resources/app-update.yml:not-checked",
      "dev-update-feed@dev-app-update.yml:warn"
    ])
    expect(report.text).toMatch(
      /AppImage signature PASS: \.sha256_sig holds a PGP signature \(section of 1024 bytes\), \.sig_key the public key; present, not verified .*; update information: gh-releases-zsync acme\/app$/m
    )
    expect(report.text).toMatch(/AppImage signature WARN: not signed \(\.sha256_sig is zero-filled\)/)
    expect(report.text).toMatch(
      /^- update feed \(dist\/linux-unpacked\/resources\/app-update\.yml\): dist\/linux-unpacked\/resources\/app-update\.yml is a link that leads outside the build/m
    )
    expect(report.text).toMatch(/development update feed \(dev-app-update\.yml\) WARN: generic on localhost:8080 \(http\); plain http \(localhost:8080\)/)
  })

  it("the build passed directly: nothing beside it is read, and the missing AppImage is not checked, with the reason", async () => {
    const report = await mcp.call("electron_production_report", { build: join(linux, "dist", "linux-unpacked") })
    expect(statuses(report.structured)[0]).toBe("appimage-signature@.:not-checked")
    expect(report.text).toMatch(/^- AppImage signature \(\.\): no \.AppImage beside the build/m)
  })
})

describe("release checks with Apple's tools (a stand-in host: this machine has none)", () => {
  it("runs codesign --verify --deep --strict and spctl --assess on the bundle and reports their verdicts", async () => {
    const calls: Array<string> = []
    const host: ReleaseHost = {
      platform: "darwin",
      tool: (name) => `/usr/bin/${name}`,
      run: (file, args) =>
        Effect.sync(() => {
          calls.push([file, ...args.slice(0, -1)].join(" "))
          return file.endsWith("codesign")
            ? { code: 0, output: "Signed Demo.app: valid on disk\nSigned Demo.app: satisfies its Designated Requirement\n" }
            : { code: 3, output: "Signed Demo.app: rejected\nsource=Unnotarized Developer ID\n" }
        })
    }
    const build = buildAt(join(mac, "dist", "mac", "Signed Demo.app"))!
    const checks = await Effect.runPromise(releaseChecks(build, mac, host))
    expect(calls).toEqual(["/usr/bin/codesign --verify --deep --strict --verbose=2", "/usr/bin/spctl --assess --type execute --verbose=2"])
    expect(checks.slice(0, 2).map((c) => [c.id, c.status, c.detail])).toEqual([
      ["mac-codesign", "pass", "Signed Demo.app: valid on disk | Signed Demo.app: satisfies its Designated Requirement"],
      ["mac-gatekeeper", "fail", "Signed Demo.app: rejected | source=Unnotarized Developer ID"]
    ])
    const missing = await Effect.runPromise(releaseChecks(build, mac, { ...host, tool: () => undefined }))
    expect(missing[0]!.detail).toMatch(/^not checked: codesign was not found \(install Xcode's command line tools\)/)
  })

  it("the system host runs a tool to its exit code, and answers null when it cannot start", async () => {
    expect(await Effect.runPromise(systemHost.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"]))).toEqual({ code: 3, output: "err\n" })
    expect(await Effect.runPromise(systemHost.run("/bin/sh", ["-c", "echo fine"]))).toEqual({ code: 0, output: "fine\n" })
    expect((await Effect.runPromise(systemHost.run("/nonexistent/codesign", []))).code).toBeNull()
  })
})
