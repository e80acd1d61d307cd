/**
 * npm run bench:profiles [-- --tasks a,b | --task a | --held-out] [--variants essential,full] [--repeats 3] [--decide-repeats 5]
 *                         [--shard i/n] [--out FILE] [--no-control | --controls-only]
 *   every cell runs --repeats times (default 3), the deciding pair's (essential, full) --decide-repeats times
 *   (default 5); the decisive run: `npm run bench:profiles -- --variants essential,full --repeats 5 --decide-repeats 5`
 *   (--variants also takes the extra variants: essential+candidates, the essential the issue proposes)
 * npm run bench:profiles:merge -- OUT.json IN1.json IN2.json [--expect-equal ONE-RUN.json]
 * npm run bench:profiles -- selection [--report FILE.json] [--descriptions-from GIT-REF]
 *   re-ranks the report's recorded steps over this checkout's tool descriptions (no app is launched); with
 *   --descriptions-from, also over docs/TOOLS.md at that ref, and prints before (the ref) and after (now).
 *
 * Variants run one after the other (the machines have two cores); progress goes to stderr, the report
 * to bench/profile-report.{json,md,svg} (or --out).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { Data, Effect } from "effect"
import { resolveElectronRuntime } from "../../index.js"
import { buildReport, differences, mergeReports, type ProfileReport } from "./merge.js"
import { type Scope, toMarkdown, toSvg } from "./report.js"
import { ALL_VARIANTS, CONTROLS, EXTRA_VARIANTS, runTask, type RunOptions, type Variant, VARIANTS } from "./run.js"
import { ENCODING, type TaskResult } from "./scoring.js"
import { ALL_TASKS } from "./tasks.js"
import { descriptionsAt, selectionMarkdown } from "./selection.js"
import { listOf, selectionOf } from "./selection-lists.js"
import {
  itemsOfSteps,
  RETRIEVAL_MARGIN,
  tunedSteps,
  retrievability,
  retrievalDrops,
  retrievalMarkdown,
  type RetrievalFigure,
  type RetrievalItem
} from "./retrieval.js"
import type { TaskDef } from "./task-kit.js"

class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const COMMAND = "npm run bench:profiles"

const progress = (line: string) => Effect.sync(() => void process.stderr.write(`[profiles] ${line}\n`))

export interface RunArgs {
  readonly tasks: ReadonlyArray<TaskDef>
  readonly variants: ReadonlyArray<Variant>
  /** Runs of every (task, variant) cell; the deciding pair (essential, full) gets decideRepeats. */
  readonly repeats: number
  readonly decideRepeats: number
  readonly shard?: { readonly index: number; readonly count: number }
  readonly out: string
  readonly control: boolean
  readonly taskTimeoutMs: number
  /** The command line that ran (the report's "reproduce with"). */
  readonly command?: string
}

const valueOf = (argv: ReadonlyArray<string>, flag: string): string | undefined => {
  const i = argv.indexOf(flag)
  return i >= 0 ? argv[i + 1] : undefined
}

export const parseRunArgs = (argv: ReadonlyArray<string>): Effect.Effect<RunArgs, UsageError> =>
  Effect.gen(function* () {
    const pick = <A extends { readonly id?: string; readonly name?: string }>(list: ReadonlyArray<A>, raw: string | undefined, what: string) =>
      Effect.gen(function* () {
        if (raw === undefined) return list
        const wanted = raw
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "")
        const unknown = wanted.filter((w) => !list.some((x) => (x.id ?? x.name) === w))
        if (unknown.length > 0)
          return yield* new UsageError({ message: `unknown ${what}: ${unknown.join(", ")} (known: ${list.map((x) => x.id ?? x.name).join(", ")})` })
        return list.filter((x) => wanted.includes((x.id ?? x.name) as string))
      })
    const picked = yield* pick(ALL_TASKS, valueOf(argv, "--tasks") ?? valueOf(argv, "--task"), "task")
    const tasks = argv.includes("--held-out") ? picked.filter((t) => t.heldOut === true) : picked
    const wantedVariants = valueOf(argv, "--variants") ?? valueOf(argv, "--variant")
    const variants = argv.includes("--controls-only")
      ? []
      : yield* pick(wantedVariants === undefined ? ALL_VARIANTS : [...ALL_VARIANTS, ...EXTRA_VARIANTS], wantedVariants, "variant")
    const shardRaw = valueOf(argv, "--shard")
    let shard: RunArgs["shard"]
    if (shardRaw !== undefined) {
      const m = /^(\d+)\/(\d+)$/.exec(shardRaw)
      const index = Number(m?.[1])
      const count = Number(m?.[2])
      if (m === null || count < 1 || index < 1 || index > count)
        return yield* new UsageError({ message: `--shard takes i/n with 1 <= i <= n, got ${shardRaw}` })
      shard = { index, count }
    }
    const count = (flag: string, fallback: number) =>
      Effect.gen(function* () {
        const raw = valueOf(argv, flag)
        const n = Number(raw ?? fallback)
        if (!Number.isInteger(n) || n < 1 || n > 50) return yield* new UsageError({ message: `${flag} takes a whole number from 1 to 50, got ${raw}` })
        return n
      })
    const repeats = yield* count("--repeats", DEFAULT_REPEATS)
    const decideRepeats = Math.max(repeats, yield* count("--decide-repeats", Math.max(repeats, DEFAULT_DECIDE_REPEATS)))
    const timeout = Number(valueOf(argv, "--task-timeout") ?? 120_000)
    return {
      tasks,
      variants,
      repeats,
      decideRepeats,
      ...(shard !== undefined ? { shard } : {}),
      out: resolve(valueOf(argv, "--out") ?? DEFAULT_OUT),
      control: !argv.includes("--no-control"),
      taskTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000,
      command: argv.length === 0 ? COMMAND : `${COMMAND} -- ${argv.join(" ")}`
    }
  })

export const DEFAULT_REPEATS = 3
export const DEFAULT_DECIDE_REPEATS = 5
/** The pair whose verdict governs (no eval): each of its cells runs decideRepeats times. */
export const DECIDING = new Set(["essential", "full"])

export interface Job {
  readonly task: TaskDef
  readonly variant: Variant
  readonly repeat: number
}

/**
 * The jobs in run order: repeat by repeat (so that a stopped run still has every cell), variant by variant,
 * then the controls' once each; a shard takes every n-th.
 */
export const jobsOf = (
  args: Pick<RunArgs, "tasks" | "variants" | "shard" | "control"> & Partial<Pick<RunArgs, "repeats" | "decideRepeats">>
): ReadonlyArray<Job> => {
  const repeats = args.repeats ?? 1
  const decide = Math.max(repeats, args.decideRepeats ?? repeats)
  const jobs: Array<Job> = []
  for (let repeat = 1; repeat <= decide; repeat++) {
    for (const variant of args.variants) {
      if (repeat > (DECIDING.has(variant.name) ? decide : repeats)) continue
      for (const task of args.tasks) jobs.push({ task, variant, repeat })
    }
  }
  if (args.control) {
    for (const variant of CONTROLS) {
      for (const task of args.tasks) if (variant.controlKind !== "wrong-route" || task.wrongRoute !== undefined) jobs.push({ task, variant, repeat: 1 })
    }
  }
  const shard = args.shard
  return shard === undefined ? jobs : jobs.filter((_, i) => i % shard.count === shard.index - 1)
}

/** The JSON (large: every run's steps) goes to an ignored folder; the Markdown summary and the chart stay in bench/. */
export const DEFAULT_OUT = join(repoRoot, "bench", "out", "profile-report.json")

/** Where the summary of a report written to `out` goes: bench/profile-report.{md,svg} for the default, else beside it. */
const summaryStem = (out: string) => (resolve(out) === DEFAULT_OUT ? join(repoRoot, "bench", "profile-report") : out.replace(/\.json$/, ""))

const writeReport = (report: ProfileReport, out: string, scope?: Scope, command = COMMAND) =>
  Effect.sync(() => {
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, JSON.stringify(report, null, 2) + "\n")
    const stem = summaryStem(out)
    writeFileSync(`${stem}.md`, toMarkdown(report, command, scope))
    writeFileSync(`${stem}.svg`, toSvg(report))
  })

const taskInfo = (t: TaskDef) => ({
  id: t.id,
  app: t.app,
  covers: t.covers,
  statement: t.statement,
  ...(t.goal !== undefined ? { goal: t.goal } : {}),
  ...(t.plugins !== undefined ? { plugins: t.plugins } : {}),
  ...(t.capability !== undefined ? { capability: t.capability } : {}),
  ...(t.heldOut === true ? { heldOut: true } : {})
})

export const runBench = (args: RunArgs) =>
  Effect.gen(function* () {
    const runtime = resolveElectronRuntime()
    const options: RunOptions = { repoRoot, taskTimeoutMs: args.taskTimeoutMs, callTimeoutMs: 60_000, checkTimeoutMs: 150_000 }
    const jobs = jobsOf(args)
    // The framework app renders a React bundle that must be built first (skipped when it is up to date).
    if (jobs.some((j) => j.task.app === "framework")) {
      yield* Effect.sync(() =>
        execFileSync(process.execPath, [join(repoRoot, "test", "fixtures", "apps", "framework", "build.mjs")], { stdio: ["ignore", "ignore", "inherit"] })
      )
    }
    yield* progress(`${jobs.length} runs on ${runtime.kind} (${runtime.reason})${args.shard ? `, shard ${args.shard.index}/${args.shard.count}` : ""}`)
    const results: Array<TaskResult> = []
    const control: Array<TaskResult> = []
    let n = 0
    for (const job of jobs) {
      n++
      const r = yield* runTask(job.task, job.variant, options, job.repeat)
      ;(job.variant.control === true ? control : results).push(r)
      yield* progress(
        `${n}/${jobs.length} ${job.variant.name} ${job.task.id} #${job.repeat}: ${r.success ? "ok" : "FAIL"} ${r.calls} calls, ${r.totalBpe} BPE, ${r.wallMs} ms${r.success ? "" : ` — ${r.detail.slice(0, 160)}`}`
      )
    }
    yield* progress("ranking the recorded steps for the selection proxy")
    const selection = yield* Effect.promise(() => selectionOf({ results, tasks: args.tasks.map(taskInfo), variants: args.variants.map((v) => v.name) }))
    const report = buildReport({
      selection,
      generatedAt: new Date().toISOString(),
      runtime: `${runtime.kind}: ${runtime.executablePath.replace(repoRoot + "/", "")}`,
      encoding: ENCODING,
      ...(args.shard !== undefined ? { shard: `${args.shard.index}/${args.shard.count}` } : {}),
      tasks: args.tasks.map(taskInfo),
      variants: args.variants.map((v) => v.name),
      results,
      control
    })
    const scope: Scope = {
      tasks: args.tasks.length,
      allTasks: ALL_TASKS.length,
      variants: args.variants.length,
      allVariants: ALL_VARIANTS.length + EXTRA_VARIANTS.length,
      repeats: args.repeats,
      decideRepeats: args.variants.some((v) => DECIDING.has(v.name)) ? args.decideRepeats : args.repeats,
      deciding: args.variants.filter((v) => DECIDING.has(v.name)).length,
      controls: args.control
    }
    yield* writeReport(report, args.out, scope, args.command)
    yield* progress(`wrote ${args.out} (+ ${summaryStem(args.out)}.md, .svg)`)
    for (const v of report.verdicts) yield* progress(v.text)
    yield* progress(`controls: ${report.controlSuccesses}/${report.control.length} checks passed`)
    return report
  })

const readReport = (file: string) =>
  Effect.try({ try: () => JSON.parse(readFileSync(file, "utf8")) as ProfileReport, catch: () => new UsageError({ message: `cannot read report ${file}` }) })

export const mergeCommand = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const expect = valueOf(argv, "--expect-equal")
    const files = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--expect-equal")
    const [out, ...inputs] = files
    if (out === undefined || inputs.length === 0) return yield* new UsageError({ message: "merge OUT.json IN1.json IN2.json … [--expect-equal ONE-RUN.json]" })
    const reports = yield* Effect.forEach(inputs, readReport)
    const joined = mergeReports(reports, new Date().toISOString())
    const merged: ProfileReport = { ...joined, selection: yield* Effect.promise(() => selectionOf(joined)) }
    yield* writeReport(merged, resolve(out))
    yield* progress(`merged ${inputs.length} shards (${merged.results.length} results, ${merged.control.length} control) into ${out}`)
    if (expect !== undefined) {
      const diff = differences(merged, yield* readReport(expect))
      yield* progress(diff.length === 0 ? `equal to ${expect}` : `differs from ${expect}:\n${diff.join("\n")}`)
      if (diff.length > 0) return yield* new UsageError({ message: `the merged report differs from ${expect} in ${diff.length} lines` })
    }
    return merged
  })

/** `selection`: the proxy over a report's steps, with the current descriptions and, given a ref, that ref's. */
export const selectionCommand = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const report = yield* readReport(resolve(valueOf(argv, "--report") ?? DEFAULT_OUT))
    const after = yield* Effect.promise(() => selectionOf(report))
    const ref = valueOf(argv, "--descriptions-from")
    const before =
      ref === undefined
        ? undefined
        : yield* Effect.try({ try: () => descriptionsAt(ref, repoRoot), catch: () => new UsageError({ message: `cannot read docs/TOOLS.md at ${ref}` }) }).pipe(
            Effect.flatMap((byTool) => Effect.promise(() => selectionOf(report, { label: `docs/TOOLS.md at ${ref}`, byTool })))
          )
    const lines = [
      `Selection proxy over ${report.results.reduce((a, r) => a + (r.steps?.length ?? 0), 0)} recorded steps of ${report.generatedAt}'s run (${after.method}).`,
      before === undefined ? `Descriptions: ${after.descriptions}.` : `Before: ${before.descriptions}; after: ${after.descriptions}.`,
      "",
      selectionMarkdown(after, before),
      ""
    ]
    yield* Effect.sync(() => void process.stdout.write(lines.join("\n")))
    return { after, before }
  })

const BASELINE = join(repoRoot, "bench", "retrievability-baseline.json")

interface RetrievalBaseline {
  readonly kind: "stagewright-retrievability-baseline"
  readonly generatedAt: string
  readonly reason: string
  readonly margin: number
  readonly items: ReadonlyArray<RetrievalItem>
  readonly figures: ReadonlyArray<RetrievalFigure>
}

/** Each profile's tools/list as a fresh server lists it (no plugins, no eval). */
const profileLists = Effect.promise(() =>
  Promise.all(VARIANTS.filter((v) => !v.allowEval).map(async (v) => ({ profile: v.name, tools: (await listOf(v, v.profile, [])).tools })))
)

/**
 * `retrieval check`: the retrievability of every baseline step over this checkout's names and descriptions, and
 * the gate (a drop beyond the margin in any profile and search fails). `retrieval update --reason "…"
 * [--report FILE.json]` writes the baseline (the steps from the report, else the baseline's own).
 */
export const retrievalCommand = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const mode = argv[0] ?? "check"
    const baseline = yield* Effect.try({ try: () => JSON.parse(readFileSync(BASELINE, "utf8")) as RetrievalBaseline, catch: () => undefined }).pipe(
      Effect.orElseSucceed(() => undefined)
    )
    const lists = yield* profileLists
    if (mode === "update") {
      const reason = valueOf(argv, "--reason")
      if (reason === undefined) return yield* new UsageError({ message: 'retrieval update needs --reason "<why>"' })
      const reportFile = valueOf(argv, "--report")
      const report = reportFile !== undefined ? yield* readReport(resolve(reportFile)) : undefined
      // Held-out tasks' steps never enter the baseline (held out by this checkout's flags or the report's own).
      const heldOut = new Set([...ALL_TASKS, ...(report?.tasks ?? [])].filter((t) => t.heldOut === true).map((t) => t.id))
      const items = report !== undefined ? itemsOfSteps(tunedSteps(report.results, heldOut)) : (baseline?.items ?? [])
      if (items.length === 0) return yield* new UsageError({ message: "no steps: give --report FILE.json from a benchmark run" })
      const next: RetrievalBaseline = {
        kind: "stagewright-retrievability-baseline",
        generatedAt: new Date().toISOString(),
        reason,
        margin: RETRIEVAL_MARGIN,
        items,
        figures: retrievability(items, lists)
      }
      yield* Effect.sync(() => writeFileSync(BASELINE, JSON.stringify(next, null, 2) + "\n"))
      yield* Effect.sync(() => void process.stdout.write(`${retrievalMarkdown(next.figures, baseline?.figures)}\nwrote ${BASELINE}\n`))
      return next.figures
    }
    if (baseline === undefined) return yield* new UsageError({ message: `no baseline at ${BASELINE}: run retrieval update --report FILE.json --reason "…"` })
    const now = retrievability(baseline.items, lists)
    const drops = retrievalDrops(baseline.figures, now, baseline.margin)
    yield* Effect.sync(() => void process.stdout.write(`${retrievalMarkdown(now, baseline.figures)}\n`))
    if (drops.length > 0) return yield* new UsageError({ message: `retrievability dropped beyond ${baseline.margin * 100} points:\n${drops.join("\n")}` })
    yield* Effect.sync(
      () => void process.stdout.write(`retrievability within ${baseline.margin * 100} points of the baseline (${baseline.items.length} steps)\n`)
    )
    return now
  })

export const main = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const args = argv.filter((a) => a !== "--")
    if (args[0] === "merge") {
      yield* mergeCommand(args.slice(1))
      return
    }
    if (args[0] === "retrieval") {
      yield* retrievalCommand(args.slice(1))
      return
    }
    if (args[0] === "selection") {
      yield* selectionCommand(args.slice(1))
      return
    }
    yield* runBench(yield* parseRunArgs(args))
  })
