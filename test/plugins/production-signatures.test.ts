/**
 * The release-signature parsers of the production plugin (macho.ts, pe-elf.ts), the update-feed reading
 * (updater.ts) and the confined reads (bounded.ts), on synthetic files built by test/plugins/release-fixture.ts:
 * signed and unsigned for each format, and truncated or garbage input, which must answer "unreadable"
 * with a reason, never throw.
 */
import { describe, expect, it } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bufferSource, locate, readSmall, withSource } from "../../src/plugins/production/bounded.js"
import { machoSignature } from "../../src/plugins/production/macho.js"
import { elfSections, peSignature } from "../../src/plugins/production/pe-elf.js"
import { describeFeed, parseFlatYaml } from "../../src/plugins/production/updater.js"
import { appImageSections, elf, fatMachO, machO, pe } from "./release-fixture.js"

const SIG = [".sha256_sig", ".sig_key", ".upd_info"]

/** Every prefix of `data` cut at these lengths, and random bytes: none may throw. */
const damaged = (data: Buffer) =>
  [0, 3, 7, 16, 31, 60, 100, 300, 4097, data.length - 40, data.length - 1].filter((n) => n >= 0 && n < data.length).map((n) => data.subarray(0, n))

describe("Mach-O code signature", () => {
  it("tells unsigned, ad-hoc (linker-signed) and certificate signatures apart, with the hardened runtime flag", async () => {
    expect(await machoSignature(bufferSource(machO({ signature: "none" })))).toEqual({
      kind: "macho",
      slices: [{ arch: "arm64", signature: "none", linkerSigned: false, hardenedRuntime: false }]
    })
    expect(await machoSignature(bufferSource(machO({ signature: "adhoc" })))).toEqual({
      kind: "macho",
      slices: [{ arch: "arm64", signature: "adhoc", linkerSigned: true, hardenedRuntime: false }]
    })
    expect(await machoSignature(bufferSource(machO({ signature: "certificate", hardenedRuntime: true, arch: "x86_64" })))).toEqual({
      kind: "macho",
      slices: [{ arch: "x86_64", signature: "certificate", linkerSigned: false, hardenedRuntime: true }]
    })
  })

  it("reads every slice of a fat binary", async () => {
    const universal = fatMachO([machO({ signature: "certificate", hardenedRuntime: true, arch: "x86_64" }), machO({ signature: "adhoc", arch: "arm64" })])
    const parsed = await machoSignature(bufferSource(universal))
    expect(parsed.kind === "macho" && parsed.slices.map((s) => `${s.arch}:${s.signature}`)).toEqual(["x86_64:certificate", "arm64:adhoc"])
  })

  it("answers unreadable with a reason for truncated, garbage and non-Mach-O input", async () => {
    for (const source of [machO({ signature: "certificate" }), fatMachO([machO({ signature: "none" })])]) {
      for (const cut of damaged(source)) {
        const parsed = await machoSignature(bufferSource(cut))
        expect(parsed.kind, `cut at ${cut.length}`).toBe("unreadable")
        expect(parsed.kind === "unreadable" && parsed.reason).toMatch(/truncated|outside|not a Mach-O|beyond|impossible/)
      }
    }
    for (let i = 0; i < 50; i++) expect((await machoSignature(bufferSource(randomBytes(64 + i * 97)))).kind).toBe("unreadable")
    expect(await machoSignature(bufferSource(Buffer.from("#!/bin/sh\necho hi\n")))).toEqual({
      kind: "unreadable",
      reason: "not a Mach-O file (magic 0x23212f62)"
    })
    // A Java class file shares the fat magic; its version numbers read as far too many architectures.
    expect(await machoSignature(bufferSource(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52, ...Buffer.alloc(100)])))).toMatchObject({
      reason: /52 architectures/
    })
    // A load command claiming a huge size, and a signature pointing past the end.
    const huge = machO({ signature: "adhoc" })
    huge.writeUInt32LE(0x7fffffff, 32 + 4)
    expect(await machoSignature(bufferSource(huge))).toMatchObject({ kind: "unreadable", reason: /impossible size/ })
    const past = machO({ signature: "adhoc" })
    past.writeUInt32LE(1 << 30, 32 + 24 + 8)
    expect(await machoSignature(bufferSource(past))).toMatchObject({ kind: "unreadable", reason: /outside the arm64 code/ })
  })
})

describe("PE Authenticode", () => {
  it("finds a PKCS#7 SignedData certificate entry, and says when there is none or another type", async () => {
    expect(await peSignature(bufferSource(pe(2)))).toEqual({
      kind: "pe",
      machine: "x64",
      certificates: [{ length: 48, revision: 0x200, type: 2 }],
      authenticode: true
    })
    expect(await peSignature(bufferSource(pe()))).toEqual({ kind: "pe", machine: "x64", certificates: [], authenticode: false })
    expect(await peSignature(bufferSource(pe(1)))).toMatchObject({ certificates: [{ type: 1 }], authenticode: false })
  })

  it("answers unreadable for truncated and garbage input", async () => {
    for (const cut of damaged(pe(2))) expect((await peSignature(bufferSource(cut))).kind, `cut at ${cut.length}`).toBe("unreadable")
    for (let i = 0; i < 50; i++) {
      const junk = randomBytes(200 + i * 31)
      junk.write("MZ", 0, "latin1")
      expect((await peSignature(bufferSource(junk))).kind).toBe("unreadable")
    }
    const lying = pe(2)
    lying.writeUInt32LE(1 << 30, 64 + 24 + 112 + 32 + 4)
    expect(await peSignature(bufferSource(lying))).toMatchObject({ kind: "unreadable", reason: /certificate table .* lies outside the file/ })
  })
})

describe("ELF sections of an AppImage", () => {
  it("reads the signature sections: zero-filled when unsigned, the PGP text when signed; the AppImage type; the update information", async () => {
    const signed = await elfSections(bufferSource(elf(appImageSections(true))), SIG)
    expect(signed).toMatchObject({
      kind: "elf",
      appImageType: 2,
      sections: { ".sha256_sig": { size: 1024, empty: false }, ".sig_key": { size: 8192, empty: false } }
    })
    expect(signed.kind === "elf" && signed.sections[".sha256_sig"]!.text).toMatch(/^-----BEGIN PGP SIGNATURE-----/)
    expect(signed.kind === "elf" && signed.sections[".upd_info"]!.text).toBe("gh-releases-zsync|acme|app|latest|App-*.AppImage.zsync")
    expect(await elfSections(bufferSource(elf(appImageSections(false))), SIG)).toMatchObject({
      sections: { ".sha256_sig": { empty: true, text: undefined }, ".sig_key": { empty: true } }
    })
    const plain = await elfSections(bufferSource(elf({ ".text": Buffer.alloc(16, 1) }, null)), SIG)
    expect(plain).toEqual({ kind: "elf", appImageType: undefined, sections: {} })
  })

  it("answers unreadable for truncated and garbage input", async () => {
    for (const cut of damaged(elf(appImageSections(true)))) expect((await elfSections(bufferSource(cut), SIG)).kind, `cut at ${cut.length}`).toBe("unreadable")
    for (let i = 0; i < 50; i++) {
      const junk = randomBytes(128 + i * 53)
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]).copy(junk)
      expect((await elfSections(bufferSource(junk), SIG)).kind).toBe("unreadable")
    }
    const many = elf(appImageSections(true))
    many.writeUInt16LE(0, 0x3c)
    expect((await elfSections(bufferSource(many), SIG)).kind).toBe("unreadable")
  })
})

describe("update feed configuration", () => {
  it("shows provider and host only, names (never shows) a credential, and flags plain http", () => {
    const github = describeFeed(parseFlatYaml("owner: acme\nrepo: app\nprovider: github\nupdaterCacheDirName: app-updater\n"))
    expect(github).toEqual({ feed: "github acme/app on github.com (https)", insecure: [], secrets: [], cacheDir: "app-updater" })
    const leaky = describeFeed(
      parseFlatYaml("provider: generic\nurl: 'http://updates.example.com/app/latest?token=abc'\ntoken: ghp_0123456789abcdefghij0123\n# comment\n")
    )
    expect(leaky.feed).toBe("generic on updates.example.com (http)")
    expect(leaky.insecure).toEqual(["updates.example.com"])
    expect([...leaky.secrets].sort()).toEqual(["token", "url"])
    expect(JSON.stringify(leaky)).not.toMatch(/ghp_|abc|\/app\/latest/)
    expect(describeFeed(parseFlatYaml("provider: github\nowner: a\nrepo: b\nhost: git.corp\nprotocol: http\n")).insecure).toEqual(["git.corp"])
    expect(describeFeed(parseFlatYaml("provider: s3\nbucket: rel\nendpoint: https://minio.corp:9000\n")).feed).toBe("s3 bucket rel on minio.corp:9000 (https)")
  })
})

describe("confined reads", () => {
  it("never follows a link out of the folder, and refuses files over the bound", async () => {
    const root = mkdtempSync(join(tmpdir(), "stagewright-confined-"))
    try {
      const build = join(root, "build")
      mkdirSync(build)
      writeFileSync(join(root, "secret.yml"), "token: x\n")
      writeFileSync(join(build, "ok.yml"), "provider: github\n")
      symlinkSync(join(root, "secret.yml"), join(build, "link.yml"))
      symlinkSync("ok.yml", join(build, "inner.yml"))
      expect(await locate(build, join(build, "link.yml"))).toMatchObject({ kind: "outside" })
      expect(await readSmall(build, join(build, "link.yml"), "link.yml", 1000)).toEqual({
        error: expect.stringMatching(/^link\.yml is a link that leads outside the build/)
      })
      expect(await readSmall(build, join(build, "inner.yml"), "inner.yml", 1000)).toEqual({ data: Buffer.from("provider: github\n") })
      expect(await readSmall(build, join(build, "ok.yml"), "ok.yml", 4)).toEqual({ error: "ok.yml is 17 bytes, more than the 4 Stagewright reads" })
      expect(await readSmall(build, join(build, "none.yml"), "none.yml", 4)).toEqual({ missing: true })
      expect(await locate(build, build)).toMatchObject({ kind: "not-a-file" })
      const file = await locate(build, join(build, "ok.yml"))
      if (file.kind !== "file") throw new Error("ok.yml not located")
      expect(await withSource(file, async (source) => [(await source.read(0, 8))?.toString(), await source.read(10, 100), await source.read(-1, 2)])).toEqual([
        "provider",
        undefined,
        undefined
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
