/**
 * How much of Electron's main-process API (electron.d.ts) the stand-in covers, per subject of
 * test/fixtures/electron-standin/types/conformance.ts (`Subjects`), for docs/electron-coverage.md.
 *
 * - Members: the properties of Electron's type, less EventEmitter's (Node's on both sides; events are not
 *   counted) and less those documented for other platforms only (`@platform darwin`, `@platform win32`...:
 *   the stand-in is Linux).
 * - A member the stand-in has (on its type, from JSDoc or inference, or on its live object: many methods are
 *   put on prototypes in loops) is **inert** when it has no effect of its own — the stand-in marks those with
 *   a function named `inert`, `noWindowManager` or `unsupported`, a `record(...)` call (an observable fake:
 *   recorded for tests, nothing done), a JSDoc `@inert` tag — or when its body is empty, only returns a fixed
 *   literal or only throws; otherwise **implemented**. Without it, **lacking**.
 * - Runtime extras: members of the live stand-in objects that Electron's type lacks and conformance.ts does
 *   not list in `KnownExtra` / `KnownLiveExtra` (the type-level check cannot see members put on prototypes
 *   in loops).
 */
import { EventEmitter } from "node:events"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import ts from "typescript"
import { conformanceNames, libFile, ROOT, standinProgram, subjects, type StandinProgram } from "./standin-types.js"

export const COVERAGE_MD_PATH = join(ROOT, "docs", "electron-coverage.md")
/** The version of the installed `electron` package, whose types are the reference. */
export const electronTypesVersion = (): string =>
  (JSON.parse(readFileSync(join(ROOT, "node_modules", "electron", "package.json"), "utf8")) as { version: string }).version

export type Status = "implemented" | "inert" | "lacking"

export interface SubjectCoverage {
  readonly label: string
  readonly implemented: ReadonlyArray<string>
  readonly inert: ReadonlyArray<string>
  readonly lacking: ReadonlyArray<string>
  /** Members documented for macOS or Windows only. */
  readonly otherPlatforms: number
  /** Live members Electron's type lacks, not listed in KnownExtra. */
  readonly runtimeExtras: ReadonlyArray<string>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stand-in's live CommonJS objects
type Live = any
const load = createRequire(import.meta.url)

/** Where each subject lives at run time (null: only its type is looked at). */
const LIVE: Record<string, (electron: Live) => Live> = {
  electron: (e) => e,
  app: (e) => e.app,
  "app.commandLine": (e) => e.app.commandLine,
  autoUpdater: (e) => e.autoUpdater,
  BaseWindow: (e) => e.BaseWindow.prototype,
  "BaseWindow (static)": (e) => e.BaseWindow,
  BrowserView: (e) => e.BrowserView.prototype,
  BrowserWindow: (e) => e.BrowserWindow.prototype,
  "BrowserWindow (static)": (e) => e.BrowserWindow,
  clipboard: (e) => e.clipboard,
  contentTracing: (e) => e.contentTracing,
  Cookies: (e) => e.session.fromPartition("stagewright-coverage").cookies,
  crashReporter: (e) => e.crashReporter,
  Debugger: () => null,
  desktopCapturer: (e) => e.desktopCapturer,
  dialog: (e) => e.dialog,
  DownloadItem: () => load(libFile("downloads.js")).DownloadItem.prototype,
  globalShortcut: (e) => e.globalShortcut,
  ipcMain: (e) => e.ipcMain,
  Menu: (e) => new e.Menu(),
  "Menu (static)": (e) => e.Menu,
  MenuItem: (e) => new e.MenuItem({ label: "coverage" }),
  MessageChannelMain: (e) => e.MessageChannelMain.prototype,
  MessagePortMain: (e) => e.MessagePortMain.prototype,
  NativeImage: (e) => e.NativeImage.prototype,
  nativeImage: (e) => e.nativeImage,
  nativeTheme: (e) => e.nativeTheme,
  NavigationHistory: () => null,
  net: (e) => e.net,
  Notification: (e) => new e.Notification({}),
  "Notification (static)": (e) => e.Notification,
  powerMonitor: (e) => e.powerMonitor,
  powerSaveBlocker: (e) => e.powerSaveBlocker,
  protocol: (e) => e.protocol,
  safeStorage: (e) => e.safeStorage,
  screen: (e) => e.screen,
  session: (e) => e.session,
  Session: (e) => e.session.Session.prototype,
  shell: (e) => e.shell,
  systemPreferences: (e) => e.systemPreferences,
  Tray: (e) => e.Tray.prototype,
  utilityProcess: (e) => e.utilityProcess,
  View: (e) => e.View.prototype,
  webContents: (e) => e.webContents,
  WebContents: () => load(libFile("web-contents.js")).WebContents.prototype,
  WebContentsView: (e) => e.WebContentsView.prototype,
  WebFrameMain: () => null,
  webFrameMain: (e) => e.webFrameMain,
  WebRequest: () => load(libFile("web-request.js")).WebRequest.prototype
}

/** EventEmitter's members, and its statics (which Electron's classes inherit in its types). */
const EMITTER = new Set([...Object.getOwnPropertyNames(EventEmitter.prototype), ...Object.getOwnPropertyNames(EventEmitter)])
const INERT_NAMES = new Set(["inert", "noWindowManager", "unsupported"])

/** Whether a member is documented for other platforms only (`@platform darwin,win32` without linux). */
const otherPlatformOnly = (symbol: ts.Symbol): boolean =>
  (symbol.declarations ?? []).some((d) =>
    ts.getJSDocTags(d).some((tag) => tag.tagName.text === "platform" && !String(ts.getTextOfJSDocComment(tag.comment) ?? "").includes("linux"))
  )

/** A property (own or inherited) of a live object: its function (value or getter), or undefined. */
const liveFunction = (target: Live, name: string): ((...args: Array<unknown>) => unknown) | undefined => {
  for (let o = target; o && o !== Object.prototype && o !== EventEmitter.prototype; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, name)
    if (d) return typeof d.value === "function" ? d.value : typeof d.get === "function" ? d.get : undefined
  }
  return undefined
}

/** Every public member name of a live object (own and inherited, up to Object / EventEmitter). */
const liveNames = (target: Live): ReadonlyArray<string> => {
  const names = new Set<string>()
  for (
    let o = target;
    o && o !== Object.prototype && o !== EventEmitter.prototype && o !== EventEmitter && o !== Function.prototype;
    o = Object.getPrototypeOf(o)
  ) {
    for (const name of Object.getOwnPropertyNames(o)) if (!name.startsWith("_") && !EMITTER.has(name)) names.add(name)
  }
  for (const skip of ["constructor", "prototype", "length", "name", "caller", "arguments"]) names.delete(skip)
  return [...names]
}

const isLiteral = (e: ts.Expression): boolean => {
  const x = ts.isParenthesizedExpression(e) ? e.expression : e
  if (ts.isArrayLiteralExpression(x) || ts.isObjectLiteralExpression(x)) return x.getChildCount() <= 3 && x.getText().replace(/\s/g, "").length <= 2
  if (ts.isVoidExpression(x)) return true
  if (ts.isPrefixUnaryExpression(x)) return ts.isNumericLiteral(x.operand)
  return (
    ts.isLiteralExpression(x) ||
    ts.isNoSubstitutionTemplateLiteral(x) ||
    [ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword, ts.SyntaxKind.NullKeyword].includes(x.kind) ||
    (ts.isIdentifier(x) && x.text === "undefined")
  )
}

/** Whether a function's source does nothing of its own: empty, a fixed literal, only a throw, or a record() call. */
const inertSource = (source: string): boolean => {
  const expression = /^(async\s+)?function\b/.test(source) || /^(async\s*)?(\([^)]*\)|[\w$]+)\s*=>/.test(source)
  const file = ts.createSourceFile("member.js", expression ? `(${source})` : `({ ${source} })`, ts.ScriptTarget.ES2022, true)
  let fn: (ts.SignatureDeclaration & { body?: ts.ConciseBody }) | undefined
  const find = (node: ts.Node): void => {
    if (fn) return
    if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node)) fn = node
    else ts.forEachChild(node, find)
  }
  find(file)
  const body = fn?.body
  if (!body) return false
  let records = false
  const scan = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "record") records = true
    ts.forEachChild(node, scan)
  }
  scan(body)
  if (records) return true
  if (!ts.isBlock(body)) return isLiteral(body)
  const statements = body.statements
  if (statements.length === 0) return true
  if (statements.length !== 1) return false
  const only = statements[0]!
  return ts.isThrowStatement(only) || (ts.isReturnStatement(only) && (!only.expression || isLiteral(only.expression)))
}

/** A JSDoc `@inert` tag on the stand-in's declaration of the member. */
const taggedInert = (symbol: ts.Symbol | undefined): boolean =>
  (symbol?.declarations ?? []).some((d) => ts.getJSDocTags(d).some((tag) => tag.tagName.text === "inert"))

const statusOf = (p: StandinProgram, ours: ts.Type, live: Live, name: string): Status => {
  const typed = p.checker.getPropertyOfType(ours, name)
  const present = typed !== undefined || (live !== null && live !== undefined && name in live)
  if (!present) return "lacking"
  if (taggedInert(typed)) return "inert"
  const fn = live === null || live === undefined ? undefined : liveFunction(live, name)
  const source = fn && Function.prototype.toString.call(fn)
  if (!fn || /^class\b/.test(source!)) return "implemented"
  return INERT_NAMES.has(fn.name) || inertSource(source!) ? "inert" : "implemented"
}

export const measureCoverage = (): ReadonlyArray<SubjectCoverage> => {
  const p = standinProgram()
  const knownExtra = new Set([...conformanceNames(p, "KnownExtra"), ...conformanceNames(p, "KnownLiveExtra")])
  const electron: Live = load(libFile("electron.js"))
  return subjects(p).map(({ label, ours, theirs }) => {
    const where = LIVE[label]
    if (!where) throw new Error(`electron-coverage: no live object is known for the subject ${label}; add it to LIVE`)
    const live = where(electron)
    const members = p.checker.getPropertiesOfType(theirs).filter((m) => m.name !== "prototype" && !EMITTER.has(m.name) && !m.name.startsWith("_"))
    const counted = members.filter((m) => !otherPlatformOnly(m))
    const by: Record<Status, Array<string>> = { implemented: [], inert: [], lacking: [] }
    for (const m of counted) by[statusOf(p, ours, live, m.name)].push(m.name)
    const declared = new Set(members.map((m) => m.name))
    const runtimeExtras = live === null ? [] : liveNames(live).filter((n) => !declared.has(n) && !knownExtra.has(`${label}.${n}`))
    const sorted = (list: ReadonlyArray<string>) => [...list].sort((a, b) => a.localeCompare(b))
    return {
      label,
      implemented: sorted(by.implemented),
      inert: sorted(by.inert),
      lacking: sorted(by.lacking),
      otherPlatforms: members.length - counted.length,
      runtimeExtras: sorted(runtimeExtras)
    }
  })
}

const totalOf = (rows: ReadonlyArray<SubjectCoverage>) => ({
  members: rows.reduce((n, r) => n + r.implemented.length + r.inert.length + r.lacking.length, 0),
  implemented: rows.reduce((n, r) => n + r.implemented.length, 0),
  inert: rows.reduce((n, r) => n + r.inert.length, 0),
  lacking: rows.reduce((n, r) => n + r.lacking.length, 0),
  otherPlatforms: rows.reduce((n, r) => n + r.otherPlatforms, 0)
})

export const coverageTotals = totalOf

const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${Math.round((100 * part) / whole)}%`)

/** docs/electron-coverage.md. */
export const renderCoverage = (rows: ReadonlyArray<SubjectCoverage>, electronVersion: string): string => {
  const total = totalOf(rows)
  const lines = [
    "# The Electron stand-in against electron.d.ts",
    "",
    `Generated by \`npm run coverage:electron\` from Electron ${electronVersion}'s published types (the \`electron\` devDependency) and`,
    "the stand-in (test/fixtures/electron-standin). Do not edit: a test checks that this file is in step with the script.",
    "",
    "Per subject of `test/fixtures/electron-standin/types/conformance.ts`: the members of Electron's type (less EventEmitter's,",
    "and less those documented for macOS or Windows only — the stand-in is Linux; events are not counted), and whether the",
    "stand-in **implements** each, has it **inert** (present with no effect of its own: marked by a function named `inert`,",
    "`noWindowManager` or `unsupported`, a `record(...)` call — an observable fake, recorded for tests — or `@inert`, or with an",
    "empty body, a fixed literal answer or only a throw), or **lacks** it. Which members exist and have the right shape is",
    "checked by `npm run typecheck`; this table only counts.",
    "",
    `**Total: ${total.members} members — ${total.implemented} implemented (${percent(total.implemented, total.members)}), ${total.inert} inert (${percent(total.inert, total.members)}), ${total.lacking} lacking (${percent(total.lacking, total.members)}).** ${total.otherPlatforms} macOS/Windows-only members are not counted.`,
    "",
    "| module | members in electron.d.ts | implemented | inert | lacking | macOS/Windows only |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.implemented.length + r.inert.length + r.lacking.length} | ${r.implemented.length} | ${r.inert.length} | ${r.lacking.length} | ${r.otherPlatforms} |`
    ),
    `| **total** | **${total.members}** | **${total.implemented}** | **${total.inert}** | **${total.lacking}** | **${total.otherPlatforms}** |`,
    "",
    "## Inert and lacking members",
    "",
    ...rows.flatMap((r) =>
      r.inert.length + r.lacking.length === 0
        ? []
        : [
            `### ${r.label}`,
            "",
            ...(r.inert.length > 0 ? [`- inert: ${r.inert.map((n) => `\`${n}\``).join(", ")}`] : []),
            ...(r.lacking.length > 0 ? [`- lacking: ${r.lacking.map((n) => `\`${n}\``).join(", ")}`] : []),
            ""
          ]
    )
  ]
  return `${lines.join("\n").trimEnd()}\n`
}

/** The stand-in's README, whose fidelity summary is generated (between the two markers below). */
export const STANDIN_README_PATH = join(ROOT, "test", "fixtures", "electron-standin", "README.md")
const README_START = "<!-- electron-coverage:start (npm run coverage:electron writes this block) -->"
const README_END = "<!-- electron-coverage:end -->"

/** The summary the stand-in's README carries: totals and the subjects apps lean on most. */
export const renderReadmeBlock = (rows: ReadonlyArray<SubjectCoverage>, electronVersion: string): string => {
  const total = totalOf(rows)
  const line = (r: SubjectCoverage) => {
    const members = r.implemented.length + r.inert.length + r.lacking.length
    return `- \`${r.label}\`: ${r.implemented.length} of ${members} implemented, ${r.inert.length} inert, ${r.lacking.length} lacking`
  }
  return [
    README_START,
    `Against Electron ${electronVersion}'s published types (Linux members; events not counted): **${total.implemented} of ${total.members} members implemented, ${total.inert} inert, ${total.lacking} lacking**. The ten subjects with the most members:`,
    "",
    ...[...rows]
      .sort(
        (a, b) =>
          b.implemented.length + b.inert.length + b.lacking.length - (a.implemented.length + a.inert.length + a.lacking.length) ||
          a.label.localeCompare(b.label)
      )
      .slice(0, 10)
      .map(line),
    "",
    "Every subject, and each inert or lacking member by name: [docs/electron-coverage.md](../../../docs/electron-coverage.md).",
    README_END
  ].join("\n")
}

/** The README with its generated block replaced (or `undefined` when the markers are missing). */
export const withReadmeBlock = (readme: string, block: string): string | undefined => {
  const start = readme.indexOf(README_START)
  const end = readme.indexOf(README_END)
  if (start === -1 || end === -1 || end < start) return undefined
  return readme.slice(0, start) + block + readme.slice(end + README_END.length)
}
