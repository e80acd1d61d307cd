/**
 * The manifest budget commands (entry point: ./manifest.ts):
 *
 *   npm run manifest                                  measure every variant, print the table, write the report
 *   npm run manifest:check                            fail when a variant grows over 3%, appears, disappears or changes names
 *   npm run manifest:update -- --reason "<why>"       rewrite the baseline, keeping a history entry
 *   npm run -s manifest -- membership                 print the membership block for ADR 0001's next amendment
 *
 * The check also holds the profiles to ADR 0001: their membership (and the default) must be what the ADR's
 * latest amendment records (./membership.ts).
 */
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Data, Effect, Either, Option, ParseResult, Schema } from "effect"
import { dirname, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { DEFAULT_PROFILE, PROFILE_NAMES, PROFILES, VERSION } from "../../index.js"
import { BaselineJson, compare, describeFinding, formatBaseline, MAX_GROWTH, MissingReason, snapshotOf, updateBaseline, type Baseline } from "./gate.js"
import { firstPartyPluginNames, measureVariants } from "./measure.js"
import {
  AdrMembershipMissing,
  describeDiff,
  diffMembership,
  formatMembershipBlock,
  isUnchanged,
  latestMembership,
  membershipOf,
  readMembershipRecords,
  type Membership,
  type MembershipRecord
} from "./membership.js"
import { formatTable, reportOf } from "./report.js"
import { variantsOf } from "./variants.js"

export const PACKAGE_ROOT = fileURLToPath(new URL("../../../", import.meta.url))
export const DEFAULT_BASELINE = resolve(PACKAGE_ROOT, "bench", "manifest-baseline.json")
export const DEFAULT_REPORT = resolve(PACKAGE_ROOT, "bench", "out", "manifest-report.json")
/** The decision record whose latest amendment fixes the profiles' membership. */
export const DEFAULT_ADR = resolve(PACKAGE_ROOT, "docs", "adr", "0001-tool-profiles-and-manifest-budgets.md")

/** What src/profile holds now, in the shape ADR 0001 records it. */
export const currentMembership = (): Membership => membershipOf(DEFAULT_PROFILE, Object.fromEntries(PROFILE_NAMES.map((p) => [p, PROFILES[p]])))

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

/** The profiles differ from ADR 0001's latest amendment (the budget findings, if any, come along). */
export class ProfileMembershipNotAmended extends Data.TaggedError("ProfileMembershipNotAmended")<{
  readonly adr: string
  readonly amendment: string
  readonly date: string
  readonly changes: ReadonlyArray<string>
  readonly budgetFailures: ReadonlyArray<string>
}> {
  override get message() {
    return [
      `Profile membership differs from ADR 0001's latest amendment (${this.amendment}, ${this.date}, in ${this.adr}):`,
      ...this.changes.map((c) => `  - ${c}`),
      `A change of profile or default is a decision: add an amendment to ADR 0001 saying why, with the profile benchmark's`,
      `evidence, and end it with the block that npm run -s manifest -- membership prints (docs/adr/README.md says how).`,
      ...(this.budgetFailures.length > 0
        ? [
            `The manifest budget check also failed (${this.budgetFailures.length}):`,
            ...this.budgetFailures.map((f) => `  - ${f}`),
            `If that growth is intended too, record it once the amendment is written: npm run manifest:update -- --reason "<why>"`
          ]
        : [])
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

/** The latest membership record of an ADR file (a missing file counts as a record missing). */
export const readAdrMembership = (path: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    if (!(yield* fs.exists(path))) return yield* new AdrMembershipMissing({ path: display(path) })
    return yield* latestMembership(display(path), yield* fs.readFileString(path))
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

const baselineOption = Options.text("baseline").pipe(Options.withDescription("Path of the baseline file"), Options.withDefault(DEFAULT_BASELINE))
const reportOption = Options.text("report").pipe(Options.withDescription("Path of the JSON report"), Options.withDefault(DEFAULT_REPORT))
const reasonOption = Options.text("reason").pipe(
  Options.withDescription("Why the manifest budget changes (required; kept in the baseline's history)"),
  Options.optional
)

const updateFlag = Options.boolean("update-manifest-baseline").pipe(
  Options.withDescription('Same as the update subcommand: rewrite the baseline (needs --reason "<why>")')
)

const run = Command.make(
  "manifest",
  { report: reportOption, update: updateFlag, reason: reasonOption, baseline: baselineOption },
  ({ report, update, reason, baseline }) =>
    Effect.gen(function* () {
      if (update) return yield* updateWith(baseline, reason)
      const { variants, measurements } = yield* measureAll
      yield* Console.log(formatTable(measurements))
      yield* writeText(report, `${JSON.stringify(reportOf(variants, measurements, VERSION), null, 2)}\n`)
      yield* Console.log(`\n${measurements.length} variants, o200k_base tokens; report written to ${display(report)}`)
    })
).pipe(Command.withDescription("Measure the tools/list payload of every variant, print the table and write the JSON report"))

const adrOption = Options.text("adr").pipe(
  Options.withDescription("Path of the decision record whose latest amendment fixes profile membership"),
  Options.withDefault(DEFAULT_ADR)
)

export interface CheckPaths {
  readonly baseline: string
  readonly adr: string
}

/**
 * The gate: the ADR's latest membership against `membership` (the code's, unless a test gives another), and
 * every variant against the baseline. A membership change fails first, carrying the budget findings.
 */
export const checkManifest = (paths: CheckPaths, membership: Membership = currentMembership()) =>
  Effect.gen(function* () {
    const recorded: MembershipRecord = yield* readAdrMembership(paths.adr)
    const baseline = yield* readBaseline(paths.baseline).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(new BaselineMissing({ path: display(paths.baseline) })), onSome: Effect.succeed }))
    )
    const { measurements } = yield* measureAll
    const comparison = compare(baseline, snapshotOf(measurements))
    yield* Console.log(formatTable(measurements, comparison.rows))
    const diff = diffMembership(recorded, membership)
    const budgetFailures = comparison.failures.map((f) => describeFinding(f))
    if (!isUnchanged(diff)) {
      return yield* new ProfileMembershipNotAmended({
        adr: display(paths.adr),
        amendment: recorded.amendment,
        date: recorded.date,
        changes: describeDiff(diff),
        budgetFailures
      })
    }
    if (budgetFailures.length > 0) return yield* new ManifestBudgetExceeded({ failures: budgetFailures })
    const summary = [
      `Manifest budget OK: ${measurements.length} variants, none grew over +${(MAX_GROWTH * 100).toFixed(0)}%, same variants and tool names as ${display(paths.baseline)}`,
      `Profile membership OK: ${Object.keys(membership.profiles).length} profiles and the default (${membership.default}) as ADR 0001 amendment ${recorded.amendment} (${recorded.date}) records them`
    ].join("\n")
    yield* Console.log(`\n${summary}`)
    return summary
  })

const check = Command.make("check", { baseline: baselineOption, adr: adrOption }, ({ baseline, adr }) => Effect.asVoid(checkManifest({ baseline, adr }))).pipe(
  Command.withDescription(
    "Compare every variant with the committed baseline and the profiles with ADR 0001; fails on BPE growth over 3%, a new or missing variant, changed tool names, or a profile membership no amendment records"
  )
)

/** The block to end ADR 0001's next amendment with: the code's membership, the next label, today's date. */
export const nextMembershipBlock = (adrText: string, adrPath: string, today: Date, membership: Membership = currentMembership()) => {
  const records = readMembershipRecords(adrPath, adrText)
  const count = Either.isRight(records) ? records.right.length : 0
  return formatMembershipBlock(`A${count + 1}`, today.toISOString().slice(0, 10), membership)
}

const membershipCommand = Command.make("membership", { adr: adrOption }, ({ adr }) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const text = (yield* fs.exists(adr)) ? yield* fs.readFileString(adr) : ""
    yield* Console.log(nextMembershipBlock(text, display(adr), new Date()).trimEnd())
  })
).pipe(Command.withDescription("Print the profile membership block (the code's lists) for ADR 0001's next amendment"))

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

const update = Command.make("update", { baseline: baselineOption, reason: reasonOption }, ({ baseline: path, reason }) => updateWith(path, reason)).pipe(
  Command.withDescription('Rewrite the baseline from a fresh measurement and record why (--reason "<why>" is required)')
)

export const manifestCommand = run.pipe(Command.withSubcommands([check, update, membershipCommand]))

export const manifestCli = Command.run(manifestCommand, { name: "stagewright-manifest", version: VERSION })
