/**
 * Release checks of a packaged build, each pass / fail / warn / not checked (with the reason, never a
 * silent pass): the macOS bundle's code signature (codesign and spctl where they exist, else parsed from
 * the bundle: sealed resources, the main executable's LC_CODE_SIGNATURE, hardened runtime, a stapled
 * notarization ticket), the Windows executables' Authenticode signature, an AppImage's embedded
 * signature, and the update feed (updater.ts). Files are read confined to the build (or, for packages
 * beside it, the folder the agent gave) with bounded reads (bounded.ts).
 */
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { opendir, stat } from "node:fs/promises"
import { dirname, isAbsolute, join, relative } from "node:path"
import { promisify } from "node:util"
import type { BuildInfo } from "./build.js"
import { locate, unreadableReason, withSource } from "./bounded.js"
import type { ReleaseCheck } from "./checklist.js"
import { macParsed } from "./release-mac.js"
import { elfSections, peSignature } from "./pe-elf.js"
import { updateChecks } from "./updater.js"

/** What the checks need of the machine: its OS, Apple's tools when present, a way to run them. */
export interface ReleaseHost {
  readonly platform: NodeJS.Platform
  readonly tool: (name: "codesign" | "spctl") => string | undefined
  /** Runs a tool to its end (interrupting the Effect kills it): exit code (null when it could not run) and output. */
  readonly run: (file: string, args: ReadonlyArray<string>) => Effect.Effect<{ readonly code: number | null; readonly output: string }>
}

const TOOLS = { codesign: "/usr/bin/codesign", spctl: "/usr/sbin/spctl" } as const

export const systemHost: ReleaseHost = {
  platform: process.platform,
  tool: (name) => (process.platform === "darwin" && existsSync(TOOLS[name]) ? TOOLS[name] : undefined),
  run: (file, args) =>
    Effect.tryPromise({
      try: (signal) => promisify(execFile)(file, [...args], { signal, timeout: 120_000, maxBuffer: 1 << 20, encoding: "utf8" }),
      catch: (error) => error as { code?: unknown; stderr?: unknown; message?: unknown }
    }).pipe(
      Effect.map(({ stdout, stderr }) => ({ code: 0, output: `${stderr}${stdout}` })),
      Effect.catchAll((error) =>
        Effect.succeed({ code: typeof error.code === "number" ? error.code : null, output: String(error.stderr || error.message || error) })
      )
    )
}

const lines = (output: string, n = 2) => output.trim().split("\n").slice(0, n).join(" | ").slice(0, 300) || "no output"

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path)
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)
}

/** The first 1000 names in a folder (a folder with more is not read further). */
const listed = async (folder: string): Promise<ReadonlyArray<string>> => {
  const names: Array<string> = []
  try {
    const dir = await opendir(folder)
    for await (const entry of dir) {
      names.push(entry.name)
      if (names.length >= 1_000) break
    }
  } catch {
    // not a folder, or gone: nothing beside the build
  }
  return names
}

/** Files called *`ext` (electron-builder's own __uninstaller-* leftovers aside) in the folders (the root, and beside the build when inside the root), newest first, at most 3. */
const packagesBeside = async (build: BuildInfo, root: string, ext: RegExp): Promise<ReadonlyArray<string>> => {
  const folders = [...new Set([root, ...(inside(root, dirname(build.path)) ? [dirname(build.path)] : [])])]
  const found: Array<{ path: string; time: number }> = []
  for (const folder of folders) {
    for (const name of (await listed(folder)).filter((n) => ext.test(n) && !n.startsWith("__"))) {
      const path = join(folder, name)
      const stats = await stat(path).catch(() => undefined)
      if (stats?.isFile()) found.push({ path, time: stats.mtimeMs })
    }
  }
  return found
    .sort((a, b) => b.time - a.time)
    .slice(0, 3)
    .map((f) => f.path)
}

const notOnThisOs = (host: ReleaseHost, tool: string, instead: string) =>
  host.platform === "darwin"
    ? `not checked: ${tool} was not found (install Xcode's command line tools); ${instead}`
    : `not checked on this OS: ${tool} needs macOS; ${instead}`

const macChecks = (build: BuildInfo, root: string, host: ReleaseHost): Effect.Effect<ReadonlyArray<ReleaseCheck>, unknown> =>
  Effect.gen(function* () {
    const where = relative(root, build.path) || "."
    const checks: Array<ReleaseCheck> = []
    const codesign = host.tool("codesign")
    if (codesign === undefined) {
      checks.push({
        id: "mac-codesign",
        check: "codesign --verify --deep --strict",
        status: "not-checked",
        where,
        detail: notOnThisOs(host, "codesign", "the checks parsed from the bundle see whether a signature is there, not whether it is valid")
      })
    } else {
      const result = yield* host.run(codesign, ["--verify", "--deep", "--strict", "--verbose=2", build.path])
      checks.push({
        id: "mac-codesign",
        check: "codesign --verify --deep --strict",
        status: result.code === 0 ? "pass" : "fail",
        where,
        detail: lines(result.output)
      })
    }
    const spctl = host.tool("spctl")
    if (spctl === undefined) {
      checks.push({
        id: "mac-gatekeeper",
        check: "spctl --assess (Gatekeeper)",
        status: "not-checked",
        where,
        detail: notOnThisOs(host, "spctl", "whether Gatekeeper accepts the app (Developer ID, notarization) is not known")
      })
    } else {
      const result = yield* host.run(spctl, ["--assess", "--type", "execute", "--verbose=2", build.path])
      checks.push({
        id: "mac-gatekeeper",
        check: "spctl --assess (Gatekeeper)",
        status: result.code === 0 ? "pass" : "fail",
        where,
        detail: lines(result.output)
      })
    }
    checks.push(...(yield* Effect.tryPromise({ try: () => macParsed(build, where), catch: (error) => error })))
    return checks
  })

const windowsChecks = async (build: BuildInfo, root: string, host: ReleaseHost): Promise<ReadonlyArray<ReleaseCheck>> => {
  const installers = (await packagesBeside(build, root, /\.exe$/i)).filter((path) => !inside(build.path, path))
  const targets = [
    ...(build.executable !== undefined ? [{ path: build.executable, folder: build.path }] : []),
    ...installers.map((path) => ({ path, folder: root }))
  ]
  const check = "Authenticode signature"
  const unverified =
    host.platform === "win32"
      ? "not verified: Stagewright does not run signtool (signtool verify /pa /v checks the file hash, chain and timestamp)"
      : "not verified on this OS: the file hash, certificate chain and timestamp need Windows (signtool verify /pa /v, or Get-AuthenticodeSignature)"
  if (targets.length === 0)
    return [{ id: "win-authenticode", check, status: "not-checked", where: relative(root, build.path) || ".", detail: "the build has no executable to check" }]
  const checks: Array<ReleaseCheck> = []
  for (const target of targets) {
    const where = relative(root, target.path)
    const located = await locate(target.folder, target.path)
    if (located.kind !== "file") {
      checks.push({ id: "win-authenticode", check, status: "not-checked", where, detail: unreadableReason(located, where)! })
      continue
    }
    const pe = await withSource(located, peSignature)
    if (pe.kind === "unreadable") checks.push({ id: "win-authenticode", check, status: "not-checked", where, detail: `cannot read ${where}: ${pe.reason}` })
    else if (pe.authenticode) {
      const size = pe.certificates.find((c) => c.type === 2)?.length ?? 0
      checks.push({ id: "win-authenticode", check, status: "pass", where, detail: `present (PKCS#7 SignedData, ${size} bytes, ${pe.machine}); ${unverified}` })
    } else if (pe.certificates.length > 0) {
      checks.push({
        id: "win-authenticode",
        check,
        status: "fail",
        where,
        detail: `the certificate table holds no Authenticode signature (entry types ${pe.certificates.map((c) => c.type).join(", ")}, not PKCS#7 SignedData)`
      })
    } else {
      checks.push({
        id: "win-authenticode",
        check,
        status: "fail",
        where,
        detail: `not signed (the PE security directory is empty): SmartScreen and Defender warn users before it runs; sign it (electron-builder win.signtoolOptions / azureSignOptions)`
      })
    }
  }
  return checks
}

/** AppImage update information, with a URL's host only. */
const updateInfo = (text: string | undefined) => {
  if (text === undefined) return ""
  const [transport, ...rest] = text.split("|")
  const url = rest.find((part) => /^https?:\/\//i.test(part))
  const target = url !== undefined ? (/^https?:\/\/([^/?#]+)/i.exec(url)?.[1]?.replace(/^.*@/, "") ?? "?") : rest.slice(0, 2).join("/")
  return `; update information: ${transport} ${target}`.slice(0, 160)
}

const appImageChecks = async (build: BuildInfo, root: string): Promise<ReadonlyArray<ReleaseCheck>> => {
  const images = await packagesBeside(build, root, /\.AppImage$/i)
  const check = "AppImage signature"
  if (images.length === 0) {
    const where = relative(root, inside(root, dirname(build.path)) ? dirname(build.path) : root) || "."
    return [
      {
        id: "appimage-signature",
        check,
        status: "not-checked",
        where,
        detail: `no .AppImage beside the build (in ${where}); the AppImage is the Linux package that embeds a signature (deb, rpm and snap are signed by their repositories)`
      }
    ]
  }
  const checks: Array<ReleaseCheck> = []
  for (const path of images) {
    const where = relative(root, path)
    const located = await locate(root, path)
    if (located.kind !== "file") {
      checks.push({ id: "appimage-signature", check, status: "not-checked", where, detail: unreadableReason(located, where)! })
      continue
    }
    const elf = await withSource(located, (source) => elfSections(source, [".sha256_sig", ".sig_key", ".upd_info"]))
    if (elf.kind === "unreadable") {
      checks.push({ id: "appimage-signature", check, status: "not-checked", where, detail: `cannot read ${where}: ${elf.reason}` })
      continue
    }
    const sig = elf.sections[".sha256_sig"]
    const key = elf.sections[".sig_key"]
    const info = updateInfo(elf.sections[".upd_info"]?.text)
    if (elf.appImageType !== 2) {
      checks.push({
        id: "appimage-signature",
        check,
        status: "not-checked",
        where,
        detail:
          elf.appImageType === undefined
            ? "not an AppImage (no AppImage magic in its ELF header)"
            : `an AppImage of type ${elf.appImageType}, which has no signature sections`
      })
    } else if (sig === undefined) {
      checks.push({
        id: "appimage-signature",
        check,
        status: "warn",
        where,
        detail: `its runtime has no .sha256_sig section, so it cannot carry a signature${info}`
      })
    } else if (sig.empty) {
      checks.push({
        id: "appimage-signature",
        check,
        status: "warn",
        where,
        detail: `not signed (.sha256_sig is zero-filled): users cannot check who built it (appimagetool --sign)${info}`
      })
    } else {
      const pgp = sig.text?.startsWith("-----BEGIN PGP SIGNATURE-----") ? "a PGP signature" : "a signature"
      const keyState = key === undefined || key.empty ? "; no public key embedded (.sig_key is empty)" : ", .sig_key the public key"
      checks.push({
        id: "appimage-signature",
        check,
        status: key === undefined || key.empty ? "warn" : "pass",
        where,
        detail: `.sha256_sig holds ${pgp} (section of ${sig.size} bytes)${keyState}; present, not verified (AppImage runtimes do not verify it either: AppImage's validate tool does)${info}`
      })
    }
  }
  return checks
}

/** Every release check of the build that applies to its platform, then the update feed. Never fails: what cannot be checked says why. */
export const releaseChecks = (build: BuildInfo, root: string, host: ReleaseHost = systemHost): Effect.Effect<ReadonlyArray<ReleaseCheck>> => {
  const guard = (id: string, check: string, effect: Effect.Effect<ReadonlyArray<ReleaseCheck>, unknown>) =>
    effect.pipe(
      Effect.catchAllCause((cause) =>
        Effect.succeed<ReadonlyArray<ReleaseCheck>>([
          {
            id,
            check,
            status: "not-checked",
            where: relative(root, build.path) || ".",
            detail: `could not be checked: ${String(cause).split("\n")[0]?.slice(0, 200)}`
          }
        ])
      )
    )
  const promised = (f: () => Promise<ReadonlyArray<ReleaseCheck>>) => Effect.tryPromise({ try: f, catch: (error) => error })
  const platform =
    build.platform === "macos"
      ? guard("mac-code-signature", "macOS code signature", macChecks(build, root, host))
      : build.platform === "windows"
        ? guard(
            "win-authenticode",
            "Authenticode signature",
            promised(() => windowsChecks(build, root, host))
          )
        : guard(
            "appimage-signature",
            "AppImage signature",
            promised(() => appImageChecks(build, root))
          )
  return Effect.zipWith(
    platform,
    guard(
      "update-feed",
      "update feed",
      promised(() => updateChecks(build, root))
    ),
    (a, b) => [...a, ...b]
  )
}
