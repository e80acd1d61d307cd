/**
 * The in-app tier's tools: the audit of the running app, and the report of both tiers against Electron's
 * security checklist.
 */
import { Effect, Schema } from "effect"
import { defineTool } from "../../tools/contract/Tool.js"
import { describeBuild } from "./build.js"
import { formatReport } from "./checklist.js"
import { appFacts, describeWindow } from "./inapp.js"
import { BuildPath, newestBuild } from "./locate.js"
import { gather } from "./report.js"
import { callHandle } from "../../tools/contract/handle.js"
import { answer } from "../../tools/contract/respond.js"

export const audit = defineTool({
  name: "electron_production_audit",
  description:
    "Audit the running app from its main process: each window's effective webPreferences, CSP (meta; headers when seen), will-navigate / window-open / permission handlers, DevTools, remote URLs, and shell.openExternal calls seen.",
  type: "read",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const facts = yield* appFacts
      const text = [
        `Electron ${facts.electron}, isPackaged ${facts.packaged}, ${facts.windows.length} window(s)`,
        ...facts.windows.map(describeWindow),
        `shell.openExternal since the hook${facts.hookedEarly ? "" : " (installed after start-up)"}: ${facts.openExternal.length === 0 ? "none" : facts.openExternal.join(", ")}`,
        "Next: electron_production_report for findings against the security checklist."
      ].join("\n")
      return answer(text, { ...facts })
    })
})

export const report = defineTool({
  name: "electron_production_report",
  description:
    "Security report of the running app and/or a packaged build: findings with severity (high/medium/low/info), each tied to its item of Electron's security checklist; for a build also its signatures (macOS code signing and notarization, Authenticode, AppImage) and update feed, each pass/fail/warn; and the checks that could not run and why.",
  type: "read",
  openWorld: true,
  errors: ["APP_NOT_RUNNING", "PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({
    build: Schema.optional(BuildPath).annotations({
      description: "project folder or build to check too (fuses, asar, signatures, update feed); omit for the running app only"
    })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      // Without a build there is nothing to report on but the running app.
      if (input.build === undefined) yield* call.session
      const found = input.build === undefined ? undefined : yield* newestBuild(input.build, "build")
      const { facts, report } = yield* gather({ build: found?.build, root: found?.root, app: true })
      const heading = found ? `Security report (build ${describeBuild(found.build, found.root)})` : "Security report (running app)"
      return answer(formatReport(report, heading), { ...report, platform: facts.build?.platform, electron: facts.app?.electron })
    })
})
