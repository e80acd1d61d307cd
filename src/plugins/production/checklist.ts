/**
 * The production report's logic, pure: facts about a build and a running app in, findings out, each tied
 * to the numbered item of Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security)
 * it comes from, plus the checks that could not run and why. Shared by electron_production_report and
 * `stagewright production validate`; no I/O here.
 */

export const CHECKLIST: Readonly<Record<number, string>> = {
  1: "Only load secure content",
  2: "Do not enable Node.js integration for remote content",
  3: "Enable context isolation",
  4: "Enable process sandboxing",
  5: "Handle session permission requests from remote content",
  6: "Do not disable webSecurity",
  7: "Define a Content Security Policy",
  8: "Do not enable allowRunningInsecureContent",
  9: "Do not enable experimental features",
  10: "Do not use enableBlinkFeatures",
  11: "Do not use allowpopups for WebViews",
  12: "Verify WebView options before creation",
  13: "Disable or limit navigation",
  14: "Disable or limit creation of new windows",
  15: "Do not use shell.openExternal with untrusted content",
  16: "Use a current version of Electron",
  17: "Validate the sender of all IPC messages",
  18: "Avoid usage of the file:// protocol and prefer usage of custom protocols",
  19: "Check which fuses you can change",
  20: "Do not expose Electron APIs to untrusted web content"
}

export * from "./checklist-facts.js"
import {
  SEVERITIES,
  type Severity,
  type Finding,
  type NotRun,
  type ReleaseCheck,
  type BuildFacts,
  type WindowFacts,
  type AppFacts,
  type Facts,
  type Report
} from "./checklist-facts.js"

/** How a URL's content counts: remote over https, remote over plain http, or local to the app. */
export const contentKind = (url: string): "remote-secure" | "remote-insecure" | "local" | "blank" => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "blank"
  }
  if (url === "" || parsed.protocol === "about:") return "blank"
  if (parsed.protocol === "https:" || parsed.protocol === "wss:") return "remote-secure"
  if (parsed.protocol === "http:" || parsed.protocol === "ws:" || parsed.protocol === "ftp:") return "remote-insecure"
  return "local"
}

const isRemote = (url: string) => contentKind(url).startsWith("remote")

/** Directive values of a CSP (the last policy wins per directive only roughly; enough to spot the gaps). */
const directives = (policy: string): Map<string, string> =>
  new Map(
    policy
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== undefined && words[0] !== "")
      .map((words) => [words[0]!.toLowerCase(), words.slice(1).join(" ").toLowerCase()] as const)
  )

/** What is weak in a CSP, as short phrases (empty when it restricts scripts well). */
export const cspWeaknesses = (policy: string): ReadonlyArray<string> => {
  const d = directives(policy)
  const scripts = d.get("script-src") ?? d.get("default-src")
  if (scripts === undefined) return ["no script-src or default-src"]
  const weak: Array<string> = []
  if (scripts.includes("'unsafe-inline'") && !/'nonce-|'sha(256|384|512)-/.test(scripts)) weak.push("scripts allow 'unsafe-inline'")
  if (scripts.includes("'unsafe-eval'")) weak.push("scripts allow 'unsafe-eval'")
  if (/(^|\s)(\*|https?:|data:)(\s|$)/.test(scripts)) weak.push("scripts from any origin")
  return weak
}

const FUSE_RULES: ReadonlyArray<{ fuse: string; bad: "enabled" | "disabled"; severity: Severity; why: string }> = [
  { fuse: "RunAsNode", bad: "enabled", severity: "medium", why: "ELECTRON_RUN_AS_NODE turns the app into a plain Node.js (living-off-the-land attacks)" },
  { fuse: "EnableNodeOptionsEnvironmentVariable", bad: "enabled", severity: "medium", why: "NODE_OPTIONS can inject code into the main process" },
  {
    fuse: "EnableNodeCliInspectArguments",
    bad: "enabled",
    severity: "low",
    why: "--inspect lets anyone who can start the app attach a debugger to the main process (Stagewright's main-process tools need it; with it off Stagewright drives the windows only, over CDP: keep it on only in test builds)"
  },
  { fuse: "EnableEmbeddedAsarIntegrityValidation", bad: "disabled", severity: "medium", why: "a modified app.asar is not detected at start-up" },
  {
    fuse: "OnlyLoadAppFromAsar",
    bad: "disabled",
    severity: "medium",
    why: "Electron also loads an app folder next to the asar, which bypasses integrity checks"
  },
  { fuse: "EnableCookieEncryption", bad: "disabled", severity: "low", why: "cookies are stored unencrypted on disk" },
  {
    fuse: "GrantFileProtocolExtraPrivileges",
    bad: "enabled",
    severity: "low",
    why: "file:// pages get extra privileges (checklist 18 prefers custom protocols)"
  }
]

const buildFindings = (build: BuildFacts, findings: Array<Finding>, notRun: Array<NotRun>) => {
  if ("error" in build.fuses) {
    notRun.push({ check: "fuses", item: 19, reason: build.fuses.error })
  } else {
    const wire = build.fuses.wire
    for (const rule of FUSE_RULES) {
      const state = wire[rule.fuse]
      if (state === undefined) continue
      if (state === rule.bad) {
        const integrityOnLinux = rule.fuse === "EnableEmbeddedAsarIntegrityValidation" && build.platform === "linux"
        findings.push({
          severity: integrityOnLinux ? "info" : rule.severity,
          item: 19,
          id: `fuse-${rule.fuse}`,
          message: `fuse ${rule.fuse} is ${state}: ${rule.why}${integrityOnLinux ? " (Electron validates asar integrity on macOS and Windows only)" : ""}`,
          where: "build"
        })
      }
    }
  }
  const asar = build.asar
  if (asar === undefined) {
    findings.push({
      severity: "medium",
      item: 19,
      id: "no-asar",
      message: "the build has no app.asar: the app ships as loose files, so integrity cannot be validated",
      where: "build"
    })
  } else if ("error" in asar) {
    notRun.push({ check: "asar", item: 19, reason: asar.error })
  } else {
    if (asar.corrupt.length > 0) {
      findings.push({
        severity: "high",
        item: 19,
        id: "asar-corrupt",
        message: `${asar.corrupt.length} file(s) in app.asar do not match their recorded integrity: ${asar.corrupt.slice(0, 5).join(", ")}`,
        where: "build"
      })
    }
    const header = asar.headerIntegrity
    if (header.status === "mismatch") {
      findings.push({
        severity: "high",
        item: 19,
        id: "asar-header-mismatch",
        message: "app.asar does not match the header hash recorded in the build (ElectronAsarIntegrity): the archive was changed after packaging",
        where: "build"
      })
    } else if (header.status === "missing") {
      findings.push({
        severity: "medium",
        item: 19,
        id: "asar-header-missing",
        message: "the build records no ElectronAsarIntegrity hash for app.asar, so Electron cannot validate it",
        where: "build"
      })
    } else if (header.status === "unchecked") {
      notRun.push({ check: "asar header integrity", item: 19, reason: header.reason })
    }
  }
}

/** A release check as a finding (pass: info; fail: medium unless said; warn: low unless said) or, not checked, as a check not run. */
const releaseFindings = (checks: ReadonlyArray<ReleaseCheck>, findings: Array<Finding>, notRun: Array<NotRun>) => {
  for (const c of checks) {
    if (c.status === "not-checked") {
      notRun.push({ check: `${c.check} (${c.where})`, item: null, reason: c.detail })
      continue
    }
    const severity = c.status === "pass" ? "info" : (c.severity ?? (c.status === "fail" ? "medium" : "low"))
    findings.push({ severity, item: null, id: `${c.id}-${c.status}`, message: `${c.check} ${c.status.toUpperCase()}: ${c.detail}`, where: c.where })
  }
}

const windowFindings = (app: AppFacts, w: WindowFacts, findings: Array<Finding>, notRun: Array<NotRun>) => {
  const where = w.id
  const kind = contentKind(w.url)
  const remote = isRemote(w.url)
  const push = (severity: Severity, item: number | null, id: string, message: string) => findings.push({ severity, item, id, message, where })
  if (kind === "remote-insecure") push("high", 1, "insecure-content", `loads ${w.url} over an insecure protocol`)
  else if (kind === "remote-secure") push("info", 1, "remote-content", `shows remote content (${w.url})`)
  if (w.prefs === undefined) {
    notRun.push({ check: `webPreferences of ${w.id}`, item: null, reason: "webContents.getLastWebPreferences() gave nothing for this window" })
  } else {
    const p = w.prefs
    const node = [
      p.nodeIntegration && "nodeIntegration",
      p.nodeIntegrationInWorker && "nodeIntegrationInWorker",
      p.nodeIntegrationInSubFrames && "nodeIntegrationInSubFrames"
    ].filter(Boolean)
    if (node.length > 0) {
      push(
        remote || !p.contextIsolation ? "high" : "medium",
        2,
        "node-integration",
        `${node.join(", ")} on${remote ? " with remote content" : ""}: an XSS becomes code execution on the machine`
      )
    }
    if (!p.contextIsolation)
      push("high", 3, "context-isolation-off", "contextIsolation is off: the page shares the preload's world and can reach what it holds")
    if (!p.sandbox) push(remote ? "high" : "medium", 4, "sandbox-off", "sandbox is off: the renderer runs without Chromium's OS sandbox")
    if (!p.webSecurity) push("high", 6, "web-security-off", "webSecurity is off: no same-origin policy")
    if (p.allowRunningInsecureContent)
      push(remote ? "high" : "medium", 8, "insecure-content-allowed", "allowRunningInsecureContent is on: https pages may run http scripts")
    if (p.experimentalFeatures) push("medium", 9, "experimental-features", "experimentalFeatures is on")
    if (p.enableBlinkFeatures !== "") push("medium", 10, "blink-features", `enableBlinkFeatures: ${p.enableBlinkFeatures}`)
    if (p.webviewTag) push("low", 12, "webview-tag", "webviewTag is on: verify <webview> options in will-attach-webview")
  }
  if (w.cspMeta === undefined) {
    notRun.push({ check: `CSP of ${w.id}`, item: 7, reason: "the page could not be read" })
  } else {
    const policies = [...w.cspMeta, ...(w.cspHeader ?? [])]
    if (policies.length === 0) {
      push(
        kind === "blank" ? "info" : "medium",
        7,
        "no-csp",
        `no Content-Security-Policy meta tag${w.cspHeader === undefined ? " (a CSP response header set by webRequest or a protocol handler cannot be seen from here: confirm there is none)" : " or header"}`
      )
    } else {
      const weak = [...new Set(policies.flatMap((policy) => cspWeaknesses(policy)))]
      if (weak.length > 0) push("medium", 7, "weak-csp", `CSP is weak: ${weak.join("; ")}`)
      else push("info", 7, "csp", `CSP: ${policies.join(" | ")}`)
    }
  }
  if (w.willNavigateListeners === 0)
    push(remote ? "high" : "medium", 13, "no-navigation-guard", "no will-navigate listener: a link or script can navigate this window anywhere")
  if (w.windowOpenHandler === "unknown") {
    notRun.push({
      check: `window-open handler of ${w.id}`,
      item: 14,
      reason: "this Electron keeps setWindowOpenHandler's handler where it cannot be read, and it was set before Stagewright's hook"
    })
  } else if (!w.windowOpenHandler) {
    push(
      remote ? "high" : "medium",
      14,
      "no-window-open-handler",
      "no setWindowOpenHandler: window.open and target=_blank links open new app windows unchecked"
    )
  }
  if (w.permissionHandler === "unknown") {
    notRun.push({
      check: `permission request handler of ${w.id}'s session`,
      item: 5,
      reason:
        "Electron has no getter for it, and Stagewright's hook came after the app started, so a handler set before that is invisible (stagewright production validate on the app folder installs the hook first)"
    })
  } else if (!w.permissionHandler) {
    push(remote ? "high" : "low", 5, "no-permission-handler", "the session has no setPermissionRequestHandler: every permission request is granted")
  }
  if (w.devToolsOpened) push(app.packaged ? "medium" : "info", null, "devtools-open", "DevTools are open in this window")
}

/** The findings and the checks that could not run, from what was gathered. */
export const evaluate = (facts: Facts): Report => {
  const findings: Array<Finding> = []
  const notRun: Array<NotRun> = [...(facts.missing ?? [])]
  if (facts.build) buildFindings(facts.build, findings, notRun)
  const release = facts.build?.release ?? []
  releaseFindings(release, findings, notRun)
  const app = facts.app
  if (app) {
    for (const w of app.windows) windowFindings(app, w, findings, notRun)
    for (const url of app.openExternal) {
      const scheme = contentKind(url) === "remote-secure" ? "https" : (url.split(":")[0] ?? url)
      if (scheme === "https") findings.push({ severity: "info", item: 15, id: "open-external", message: `shell.openExternal(${url})`, where: "main" })
      else
        findings.push({
          severity: "high",
          item: 15,
          id: "open-external-unsafe",
          message: `shell.openExternal called with a ${scheme}: URL (${url}): only open validated https URLs`,
          where: "main"
        })
    }
    if (app.windows.length === 0) notRun.push({ check: "windows", item: null, reason: "the app has no open window" })
  }
  const rank = (s: Severity) => SEVERITIES.indexOf(s)
  findings.sort((a, b) => rank(a.severity) - rank(b.severity) || (a.item ?? 99) - (b.item ?? 99))
  const counts = { high: 0, medium: 0, low: 0, info: 0 }
  for (const f of findings) counts[f.severity]++
  return { findings, notRun, counts, release }
}

const itemLabel = (item: number | null) => (item === null ? "release hygiene" : `${item}. ${CHECKLIST[item]}`)

/** The report as compact text: a summary line, findings by severity, then the checks that could not run. */
export const formatReport = (report: Report, heading: string): string => {
  const { counts } = report
  const lines = [`${heading}: ${counts.high} high, ${counts.medium} medium, ${counts.low} low, ${counts.info} info`]
  for (const f of report.findings) lines.push(`${f.severity.toUpperCase().padEnd(6)} [${itemLabel(f.item)}] ${f.where ? `${f.where}: ` : ""}${f.message}`)
  if (report.notRun.length > 0) {
    lines.push("Not checked:")
    for (const n of report.notRun) lines.push(`- ${n.check}${n.item !== null ? ` (item ${n.item})` : ""}: ${n.reason}`)
  }
  return lines.join("\n")
}
