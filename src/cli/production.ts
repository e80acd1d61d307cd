/**
 * `stagewright production validate <app folder or build> [--json]`: the production plugin's security
 * report for a release pipeline. A packaged build (or a project folder with one in out/, dist/, release/)
 * gets the build checks (fuses, asar, release signatures, update feed); an app folder (package.json with its main script) is launched with
 * the recorder hook preloaded (`-r`, before the app's own code), checked in-app, then closed. Exits 1 when
 * a finding is high, 2 when nothing could be checked.
 */
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { defaultServerConfig, ServerConfig } from "../layers/config/ServerConfig.js"
import { AppLifecycle, MainProcess, ElectronDriver } from "../layers/driver/ElectronDriver.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"

const target = Args.text({ name: "app-or-build" }).pipe(
  Args.withDescription("An app folder (package.json), a project folder with builds in out/, dist/ or release/, or a build")
)
const json = Options.boolean("json").pipe(Options.withDescription("Print the report as JSON"))

/** An app folder Electron can run: package.json whose main script exists (index.js by default). */
const isAppFolder = (folder: string) => {
  try {
    const main = (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { main?: string }).main ?? "index.js"
    return existsSync(resolve(folder, main))
  } catch {
    return false
  }
}

const validate = Command.make("validate", { target, json }, ({ target, json }) =>
  Effect.gen(function* () {
    // The plugin's modules load only when this command runs.
    const [{ findBuilds, buildAt, describeBuild }, { gather }, { formatReport }, { PRODUCTION_HOOK }] = yield* Effect.promise(() =>
      Promise.all([
        import("../plugins/production/build.js"),
        import("../plugins/production/report.js"),
        import("../plugins/production/checklist.js"),
        import("../plugins/production/index.js")
      ])
    )
    const path = resolve(target)
    if (!existsSync(path)) {
      yield* Console.error(`stagewright production validate: ${path} does not exist`)
      process.exitCode = 2
      return
    }
    const build = statSync(path).isDirectory() ? findBuilds(path)[0] : undefined
    const app = build === undefined || buildAt(path) === undefined ? isAppFolder(path) : false
    if (build === undefined && !app) {
      yield* Console.error(
        `stagewright production validate: ${path} is neither an app folder (package.json with its main script) nor a folder with a packaged build (out/, dist/, release/)`
      )
      process.exitCode = 2
      return
    }
    const hookDir = mkdtempSync(join(tmpdir(), "stagewright-production-"))
    const result = yield* Effect.gen(function* () {
      const lifecycle = yield* AppLifecycle
      const mainProcess = yield* MainProcess
      if (app) {
        const hookFile = join(hookDir, "production-hook.cjs")
        writeFileSync(hookFile, `"use strict";\n(${PRODUCTION_HOOK.install.toString()})(require("electron"));\n`)
        yield* mainProcess.installMainHooks([PRODUCTION_HOOK])
        yield* lifecycle.launch({ args: ["-r", hookFile, path], timeoutMs: 45_000 })
      }
      const gathered = yield* gather({
        build,
        root: path,
        app,
        appMissing: "a packaged build is not launched by validate: give the app folder too, or run electron_production_launch then electron_production_report",
        buildMissing: "no packaged build in this folder or its out/, dist/, release/: package the app to check its fuses, asar and signatures"
      })
      if (app) yield* lifecycle.close(5_000).pipe(Effect.ignore)
      return gathered
    }).pipe(
      // The in-app checks read the app through a call's handle (src/tools/contract/handle.ts), made over these.
      Effect.provide(Layer.mergeAll(ElectronDriver.layer, ServerConfig.layer(defaultServerConfig), ProfileSelector.layer(defaultServerConfig))),
      Effect.ensuring(Effect.sync(() => rmSync(hookDir, { recursive: true, force: true }))),
      Effect.either
    )
    if (result._tag === "Left") {
      yield* Console.error(`stagewright production validate: ${result.left.message}`)
      process.exitCode = 2
      return
    }
    const { report, facts } = result.right
    const heading = `Security report for ${build ? describeBuild(build, path) : path}${app ? " (app launched for the in-app checks)" : ""}`
    if (json) yield* Console.log(JSON.stringify({ target: path, build: build?.path, platform: facts.build?.platform, ...report }, null, 2))
    else yield* Console.log(formatReport(report, heading))
    process.exitCode = report.counts.high > 0 ? 1 : 0
  })
).pipe(Command.withDescription("Security report of an app or a packaged build against Electron's security checklist; exits 1 on a high-severity finding"))

export const productionCommand = Command.make("production").pipe(
  Command.withDescription("Release checks of the production plugin"),
  Command.withSubcommands([validate])
)
