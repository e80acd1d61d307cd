/**
 * The manifest budget commands (entry point: ./manifest.ts):
 *
 *   npm run manifest                                  measure every variant, print the table, write the report
 *   npm run manifest:check                            fail when a variant grows over 3%, appears, disappears or changes names
 *   npm run manifest:update -- --reason "<why>"       rewrite the baseline, keeping a history entry
 */
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Data, Effect, Either, Option, ParseResult, Schema } from "effect"
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { PROFILE_NAMES, VERSION } from "../../index.js"
import {
  BaselineJson,
  compare,
  describeFinding,
  formatBaseline,
  MAX_GROWTH,
  MissingReason,
  snapshotOf,
  updateBaseline,
  type Baseline
} from "./gate.js"
import { firstPartyPluginNames, measureVariants } from "./measure.js"
import { formatTable, reportOf } from "./report.js"
import { variantsOf } from "./variants.js"

export const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url))
export const DEFAULT_BASELINE = resolve(PACKAGE_ROOT, "bench", "manifest-baseline.json")
export const DEFAULT_REPORT = resolve(PACKAGE_ROOT, "bench", "manifest-report.json")

export class BaselineMissing extends Data.TaggedError("BaselineMissing")<{ readonly path: string }> {
  override get message() {
    return `No manifest baseline at ${this.path}: create it with npm run manifest:update -- --reason "initial baseline"`
  }
}

export class BaselineInvalid extends Data.TaggedError("BaselineInvalid")<{ readonly path: string; readonly reason: string }> {
  override get message() {
    return `The manifest baseline ${this.path} is not valid:\n${this.reason}`
  }
}

export class ManifestBudgetExceeded extends Data.TaggedError("ManifestBudgetExceeded")<{ readonly failures: ReadonlyArray<string> }> {
  override get message() {
    return [
      `Manifest budget check failed (${this.failures.length} finding${this.failures.length === 1 ? "" : "s"}):`,
      ...this.failures.map((f) => `  - ${f}`),
      `If the change is intended, record it: npm run manifest:update -- --reason "<why>"`
    ].join("\n")
  }
}

const display = (path: string) => {
  const rel = relative(process.cwd(), path)
  return rel === "" || rel.startsWith("..") ? path : rel
}

const formatIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map((issue) => `  ${issue.path.length > 0 ? issue.path.map(String).join(".") : "(file)"}: ${issue.message}`)
    .join("\n")

/** Reads and validates the baseline; None when the file does not exist. */
export const readBaseline = (path: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    if (!(yield* fs.exists(path))) return Option.none<Baseline>()
    const text = yield* fs.readFileString(path)
    const baseline = yield* Schema.decodeUnknown(BaselineJson)(text).pipe(
      Effect.mapError((error) => new BaselineInvalid({ path: display(path), reason: formatIssues(error) }))
    )
    return Option.some(baseline)
  })

const writeText = (path: string, text: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    yield* fs.makeDirectory(dirname(path), { recursive: true })
    yield* fs.writeFileString(path, text)
  })

/** Every variant (from PROFILE_NAMES and the first-party plugin registry), measured. */
export const measureAll = Effect.gen(function* () {
  const plugins = yield* firstPartyPluginNames
  const variants = variantsOf(PROFILE_NAMES, plugins)
  const measurements = yield* measureVariants(variants)
  return { variants, measurements }
})

const baselineOption = Options.text("baseline").pipe(
  Options.withDescription("Path of the baseline file"),
  Options.withDefault(DEFAULT_BASELINE)
)
const reportOption = Options.text("report").pipe(
  Options.withDescription("Path of the JSON report"),
  Options.withDefault(DEFAULT_REPORT)
)
const reasonOption = Options.text("reason").pipe(
  Options.withDescription("Why the manifest budget changes (required; kept in the baseline's history)"),
  Options.optional
)

const updateFlag = Options.boolean("update-manifest-baseline").pipe(
  Options.withDescription('Same as the update subcommand: rewrite the baseline (needs --reason "<why>")')
)

const run = Command.make("manifest", { report: reportOption, update: updateFlag, reason: reasonOption, baseline: baselineOption }, ({ report, update, reason, baseline }) =>
  Effect.gen(function* () {
    if (update) return yield* updateWith(baseline, reason)
    const { variants, measurements } = yield* measureAll
    yield* Console.log(formatTable(measurements))
    yield* writeText(report, `${JSON.stringify(reportOf(variants, measurements, VERSION), null, 2)}\n`)
    yield* Console.log(`\n${measurements.length} variants, o200k_base tokens; report written to ${display(report)}`)
  })
).pipe(Command.withDescription("Measure the tools/list payload of every variant, print the table and write the JSON report"))

const check = Command.make("check", { baseline: baselineOption }, ({ baseline: path }) =>
  Effect.gen(function* () {
    const baseline = yield* readBaseline(path).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.fail(new BaselineMissing({ path: display(path) })), onSome: Effect.succeed })))
    const { measurements } = yield* measureAll
    const comparison = compare(baseline, snapshotOf(measurements))
    yield* Console.log(formatTable(measurements, comparison.rows))
    if (comparison.failures.length > 0) {
      return yield* new ManifestBudgetExceeded({ failures: comparison.failures.map((f) => describeFinding(f)) })
    }
    yield* Console.log(`\nManifest budget OK: ${measurements.length} variants, none grew over +${(MAX_GROWTH * 100).toFixed(0)}%, same variants and tool names as ${display(path)}`)
  })
).pipe(Command.withDescription("Compare every variant with the committed baseline; fails on BPE growth over 3%, a new or missing variant, or changed tool names"))

const updateWith = (path: string, reason: Option.Option<string>) =>
  Effect.gen(function* () {
    const why = Option.getOrUndefined(reason)
    // Refuse before measuring anything.
    if ((why?.trim() ?? "") === "") return yield* new MissingReason()
    const previous = Option.getOrUndefined(yield* readBaseline(path))
    const { measurements } = yield* measureAll
    const snapshot = snapshotOf(measurements)
    const result = updateBaseline(previous, snapshot, why, new Date())
    if (Either.isLeft(result)) return yield* result.left
    const { baseline, entry } = result.right
    yield* Console.log(formatTable(measurements, compare(previous ?? { variants: {}, toolBpe: {} }, snapshot).rows))
    if (previous !== undefined && entry.changes.length === 0 && JSON.stringify(previous.toolBpe) === JSON.stringify(snapshot.toolBpe)) {
      return yield* Console.log(`\nThe baseline already matches every variant; ${display(path)} left unchanged.`)
    }
    yield* writeText(path, formatBaseline(baseline))
    yield* Console.log(`\nBaseline ${display(path)} updated (${entry.changes.length} variant${entry.changes.length === 1 ? "" : "s"} changed): ${entry.reason}`)
  })

const update = Command.make("update", { baseline: baselineOption, reason: reasonOption }, ({ baseline: path, reason }) => updateWith(path, reason)).pipe(Command.withDescription('Rewrite the baseline from a fresh measurement and record why (--reason "<why>" is required)'))

export const manifestCommand = run.pipe(Command.withSubcommands([check, update]))

export const manifestCli = Command.run(manifestCommand, { name: "stagewright-manifest", version: VERSION })
