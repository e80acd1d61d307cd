/**
 * The macOS bundle's signature read from its files where Apple's tools are missing: sealed resources, the main
 * executable's LC_CODE_SIGNATURE, hardened runtime and a stapled notarization ticket (release.ts runs it).
 */
import { join, relative } from "node:path"
import type { BuildInfo } from "./build.js"
import { locate, unreadableReason, withSource } from "./bounded.js"
import type { ReleaseCheck } from "./checklist.js"
import { machoSignature } from "./macho.js"

/** The bundle's signature as far as its files tell, without Apple's tools. */
export const macParsed = async (build: BuildInfo, where: string): Promise<ReadonlyArray<ReleaseCheck>> => {
  const checks: Array<ReleaseCheck> = []
  const contents = join(build.path, "Contents")
  const sealed = await locate(build.path, join(contents, "_CodeSignature", "CodeResources"))
  const check = "sealed resources (Contents/_CodeSignature/CodeResources)"
  if (sealed.kind === "file")
    checks.push({
      id: "mac-sealed-resources",
      check,
      status: "pass",
      where,
      detail: `present (${sealed.size} bytes); that it matches the bundle's files is not verified on this OS`
    })
  else if (sealed.kind === "missing")
    checks.push({
      id: "mac-sealed-resources",
      check,
      status: "fail",
      where,
      detail: "missing: the bundle's resources are not sealed, so it was never signed as a bundle (codesign, electron-builder's mac signing)"
    })
  else
    checks.push({ id: "mac-sealed-resources", check, status: "not-checked", where, detail: unreadableReason(sealed, "Contents/_CodeSignature/CodeResources")! })

  const exe = build.executable
  const shownExe = exe === undefined ? "the main executable" : relative(build.path, exe)
  const located = exe === undefined ? undefined : await locate(build.path, exe)
  const signature = "code signature of the main executable"
  if (located === undefined || located.kind !== "file") {
    checks.push({
      id: "mac-code-signature",
      check: signature,
      status: "not-checked",
      where,
      detail: located === undefined ? "the bundle has no main executable (Contents/MacOS)" : unreadableReason(located, shownExe)!
    })
  } else {
    const parsed = await withSource(located, machoSignature)
    if (parsed.kind === "unreadable") {
      checks.push({ id: "mac-code-signature", check: signature, status: "not-checked", where, detail: `cannot read ${shownExe}: ${parsed.reason}` })
    } else {
      const archs = (kind: string) => parsed.slices.filter((s) => s.signature === kind).map((s) => s.arch)
      const all = parsed.slices.map((s) => s.arch).join(", ")
      if (archs("none").length > 0) {
        checks.push({
          id: "mac-code-signature",
          check: signature,
          status: "fail",
          where,
          detail: `${shownExe} is not signed (no LC_CODE_SIGNATURE) for ${archs("none").join(", ")}: Gatekeeper refuses it, and Apple silicon does not run unsigned arm64 code`
        })
      } else if (archs("adhoc").length > 0) {
        const linker = parsed.slices.some((s) => s.linkerSigned) ? " (linker-signed)" : ""
        checks.push({
          id: "mac-code-signature",
          check: signature,
          status: "fail",
          where,
          detail: `${shownExe} has an ad-hoc signature only${linker} for ${archs("adhoc").join(", ")}: no certificate, so Gatekeeper refuses downloaded copies; sign with a Developer ID Application certificate`
        })
      } else {
        checks.push({
          id: "mac-code-signature",
          check: signature,
          status: "pass",
          where,
          detail: `${shownExe} carries a certificate signature (CMS) for ${all}; present, not verified on this OS (signer, chain, the code's hashes)`
        })
        const off = parsed.slices.filter((s) => !s.hardenedRuntime).map((s) => s.arch)
        checks.push(
          off.length === 0
            ? { id: "mac-hardened-runtime", check: "hardened runtime", status: "pass", where, detail: `on for ${all} (notarization requires it)` }
            : {
                id: "mac-hardened-runtime",
                check: "hardened runtime",
                status: "warn",
                severity: "medium",
                where,
                detail: `off for ${off.join(", ")}: Apple's notary service rejects code without the hardened runtime (hardenedRuntime: true in electron-builder)`
              }
        )
      }
    }
  }

  const ticket = await locate(build.path, join(contents, "CodeResources"))
  const staple = "notarization ticket (stapled)"
  if (ticket.kind === "file" && ticket.size > 0) {
    checks.push({
      id: "mac-notarization-staple",
      check: staple,
      status: "pass",
      where,
      detail: `a ticket is stapled (Contents/CodeResources, ${ticket.size} bytes), so Gatekeeper can check notarization offline; its Apple signature and that it names this code's hash are not verified on this OS (xcrun stapler validate does)`
    })
  } else if (ticket.kind === "missing" || ticket.kind === "file") {
    checks.push({
      id: "mac-notarization-staple",
      check: staple,
      status: "warn",
      where,
      detail: `no ticket stapled (Contents/CodeResources ${ticket.kind === "file" ? "is empty" : "is missing"}): a notarized app is still checked online at first launch, a non-notarized one is refused when downloaded; run xcrun stapler staple after notarizing`
    })
  } else {
    checks.push({ id: "mac-notarization-staple", check: staple, status: "not-checked", where, detail: unreadableReason(ticket, "Contents/CodeResources")! })
  }
  return checks
}
