/**
 * The outside tier's tools: find a build, read its fuses, check its asar, launch it.
 */
import { Effect, Schema } from "effect"
import { AppLifecycle } from "../../layers/driver/ElectronDriver.js"
import { LaunchFailed, OperationFailed } from "../../tools/contract/errors.js"
import { TimeoutMs } from "../../tools/contract/shapes.js"
import { vetLaunch } from "../../tools/policy/launch-policy.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { checkAsar, describeBuild, readFuses, type BuildInfo } from "./build.js"
import { BuildPath, buildsAt, newestBuild, promise } from "./locate.js"
import { answer, bounded, moreLine } from "../../tools/contract/respond.js"
import { callHandle } from "../../tools/contract/handle.js"

export const findBuild = defineTool({
  name: "electron_production_find_build",
  touchesPage: false,
  description:
    "Find packaged Electron builds under a project folder (out/, dist/, release/; electron-builder and Forge layouts, Linux/macOS/Windows), newest first, with executable and app.asar. Next: electron_production_fuses, _asar, _launch.",
  type: "read",
  openWorld: true,
  errors: ["PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({ folder: BuildPath }),
  handler: (input) =>
    Effect.gen(function* () {
      const { root, builds } = yield* buildsAt(input.folder, "folder")
      const shown = builds.slice(0, 10)
      const text = [`${builds.length} build(s) in ${root}, newest first:`, ...shown.map((b, i) => `${i === 0 ? "*" : " "} ${describeBuild(b, root)}`)].join(
        "\n"
      )
      return answer(text, { root, builds: shown.map((b) => ({ ...b, modified: b.modified.toISOString() })) })
    })
})

const INSPECT_OFF =
  "EnableNodeCliInspectArguments is off: Electron ignores --inspect, so Stagewright launches this build over CDP (Chromium's remote debugging port): window tools work, but main-process tools (audit, menus, dialogs, app info) cannot run on it"

const fuseWire = (build: BuildInfo) => promise("read the fuses", () => readFuses(build))

export const fuses = defineTool({
  name: "electron_production_fuses",
  touchesPage: false,
  description:
    "Read the fuses of the newest build (or the build given) with @electron/fuses: RunAsNode, EnableNodeCliInspectArguments, OnlyLoadAppFromAsar, asar integrity... Warns when a fuse blocks driving the app.",
  type: "read",
  openWorld: true,
  errors: ["PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({ build: BuildPath }),
  handler: (input) =>
    Effect.gen(function* () {
      const { root, build } = yield* newestBuild(input.build, "build")
      const result = yield* fuseWire(build)
      if ("error" in result)
        return yield* new OperationFailed({
          message: result.error,
          hint: "Pass the build folder itself (its executable, or the .app bundle on macOS); fuses exist since Electron 12."
        })
      const lines = Object.entries(result.wire).map(([name, state]) => `${name}: ${state}`)
      const warnings = result.wire.EnableNodeCliInspectArguments === "disabled" ? [`Warning: ${INSPECT_OFF}.`] : []
      return answer([`Fuses of ${describeBuild(build, root)}`, ...lines, ...warnings].join("\n"), { build: build.path, fuses: result.wire, warnings })
    })
})

export const asar = defineTool({
  name: "electron_production_asar",
  touchesPage: false,
  description:
    "List app.asar of the newest build (or the build given) and verify it: every file against the integrity in the asar header, and the header hash against the build's record (ElectronAsarIntegrity, macOS).",
  type: "read",
  openWorld: true,
  errors: ["PATH_NOT_ALLOWED", "OPERATION_FAILED"],
  input: Schema.Struct({
    build: BuildPath,
    files: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 500))).annotations({ description: "files to list, default 40" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const { root, build } = yield* newestBuild(input.build, "build")
      const path = build.asar
      if (path === undefined) {
        return yield* new OperationFailed({
          message: `${build.path} has no resources/app.asar (the app ships as loose files in resources/app)`,
          hint: "Package with asar enabled (the default of electron-builder and Forge)."
        })
      }
      const check = yield* promise(`read ${path}`, () => checkAsar(build, path))
      const limit = input.files ?? 40
      const header = check.headerIntegrity
      const headerLine =
        header.status === "unchecked"
          ? `header hash ${check.headerHash}: not checked (${header.reason})`
          : header.status === "missing"
            ? `header hash ${check.headerHash}: the build records none (ElectronAsarIntegrity missing)`
            : `header hash ${check.headerHash}: ${header.status === "match" ? "matches" : "DOES NOT match"} the build's ElectronAsarIntegrity`
      const listed = bounded(check.files, limit)
      const text = [
        `${describeBuild(build, root)}`,
        `${check.files.length} files; ${check.corrupt.length === 0 ? "every file matches its recorded integrity" : `${check.corrupt.length} CORRUPT: ${check.corrupt.join(", ")}`}${check.withoutIntegrity > 0 ? `; ${check.withoutIntegrity} without integrity (old asar)` : ""}`,
        headerLine,
        ...listed.shown.map((f) => `  ${f.path} ${f.size} B${f.unpacked ? " (unpacked)" : ""}`),
        ...(listed.omitted > 0 ? [`  ${moreLine(listed, "files: N lists more")}`] : [])
      ].join("\n")
      return answer(text, { ...check, files: listed.shown, fileCount: listed.total })
    })
})

export const launchBuild = defineTool({
  name: "electron_production_launch",
  touchesPage: false,
  description:
    "Launch the newest packaged build (or the build given) through its own executable, as users run it, and make its first window active. A build whose EnableNodeCliInspectArguments fuse is off is launched over CDP: windows only, no main-process tools.",
  type: "lifecycle",
  openWorld: true,
  errors: ["PATH_NOT_ALLOWED", "OPERATION_FAILED", "LAUNCH_FAILED", "EVAL_NOT_AUTHORIZED"],
  input: Schema.Struct({
    build: BuildPath,
    args: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "arguments for the app" }),
    env: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({ description: "extra environment variables" }),
    timeoutMs: TimeoutMs(30_000)
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const { root, build } = yield* newestBuild(input.build, "build")
      const executable = build.executable
      if (executable === undefined)
        return yield* new LaunchFailed({
          message: `${build.path} has no executable to launch`,
          hint: "Pass the build folder that holds the app's executable (or the .app bundle)."
        })
      const wire = yield* fuseWire(build)
      const request = yield* vetLaunch((yield* callHandle).tool, {
        executablePath: executable,
        args: input.args ?? [],
        ...(input.env !== undefined ? { env: input.env } : {}),
        timeoutMs: input.timeoutMs ?? 30_000
      })
      const lifecycle = yield* AppLifecycle
      const session = yield* lifecycle.launch(request)
      const windows = session.windows.filter((w) => !w.page.isClosed()).map((w) => `${w.id === session.activeId ? "*" : " "} ${w.id} ${w.page.url()}`)
      const warnings = "error" in wire ? [`Warning: fuses not read (${wire.error}).`] : []
      // The driver reads the fuses itself: a build with --inspect off is launched over CDP, without its main process.
      const overCdp = session.overCdpReason !== undefined
      const next = overCdp
        ? `Launched over CDP: the EnableNodeCliInspectArguments fuse is off; main-process tools (electron_production_audit, menus, dialogs, app info) are unavailable. Next: electron_snapshot, or electron_production_report for the build checks.`
        : "Next: electron_production_audit or electron_production_report."
      return answer([`Launched ${describeBuild(build, root)} (pid ${session.pid}).`, ...windows, ...warnings, next].join("\n"), {
        pid: session.pid,
        build: build.path,
        executable,
        warnings,
        ...(overCdp ? { overCdp, mainProcess: false } : {})
      })
    })
})
