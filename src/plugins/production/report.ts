/**
 * Gathering the facts of both tiers (what can be gathered; what cannot becomes a "not checked" entry with
 * its reason) and evaluating them. Used by electron_production_report and `stagewright production validate`.
 */
import { Effect } from "effect"
import type { HandleServices } from "../../tools/contract/handle.js"
import { buildFacts, type BuildInfo } from "./build.js"
import { evaluate, type AppFacts, type Facts, type NotRun, type Report } from "./checklist.js"
import { appFacts } from "./inapp.js"
import { promise } from "./locate.js"
import { releaseChecks, type ReleaseHost } from "./release.js"

const IN_APP = "in-app checks (items 1-15: webPreferences, CSP, navigation, windows, permissions, openExternal)"

/** The running app's facts, or why there are none. */
export const appFactsOrReason: Effect.Effect<AppFacts | NotRun, never, HandleServices> = appFacts.pipe(
  Effect.catchAll((error): Effect.Effect<NotRun> => {
    const reason =
      error._tag === "AppNotRunning"
        ? "no app is running: start one with electron_production_launch (a build) or electron_launch"
        : error._tag === "NeedsMainProcess"
          ? `the session has no main process to read (${typeof error.details?.reason === "string" ? error.details.reason : "attached without its Node inspector"})`
          : `the running app could not be read: ${error.message}`
    return Effect.succeed({ check: IN_APP, item: null, reason })
  })
)

/** Facts of the build (when given) and of the running app (when `app`), then the report. */
export const gather = (options: {
  readonly build?: BuildInfo | undefined
  /** The folder the build was found in (what the agent gave): packages beside the build and dev-app-update.yml are looked for there. */
  readonly root?: string | undefined
  readonly app: boolean
  readonly appMissing?: string | undefined
  readonly buildMissing?: string | undefined
  readonly host?: ReleaseHost | undefined
}) =>
  Effect.gen(function* () {
    const missing: Array<NotRun> = []
    const given = options.build
    const build =
      given === undefined
        ? undefined
        : {
            ...(yield* promise("check the build", () => buildFacts(given))),
            release: yield* releaseChecks(given, options.root ?? given.path, options.host)
          }
    if (build === undefined) {
      const reason = options.buildMissing ?? "no packaged build was given: pass build (a project folder with out/, dist/ or release/, or the build itself)"
      missing.push({ check: "build checks (fuses, asar, signatures, update feed)", item: 19, reason })
    }
    let app: AppFacts | undefined
    if (options.app) {
      const read = yield* appFactsOrReason
      if ("windows" in read) app = read
      else missing.push(read)
    } else if (options.appMissing !== undefined) {
      missing.push({ check: IN_APP, item: null, reason: options.appMissing })
    }
    const facts: Facts = { build, app, missing }
    const report: Report = evaluate(facts)
    return { facts, report }
  })
