/**
 * npm run bench:profiles [-- --tasks a,b | --task a] [--variants essential,full] [--shard i/n] [--out FILE] [--no-control]
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
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { Data, Effect } from "effect"
import { resolveElectronRuntime } from "../../index.js"
import { buildReport, differences, mergeReports, type ProfileReport } from "./merge.js"
import { toMarkdown, toSvg } from "./report.js"
import { ALL_VARIANTS, CONTROL, EXTRA_VARIANTS, runTask, type RunOptions, type Variant } from "./run.js"
import { ENCODING, type TaskResult } from "./scoring.js"
import { ALL_TASKS } from "./tasks.js"
import { descriptionsAt, selectionMarkdown } from "./selection.js"
import { selectionOf } from "./selection-lists.js"
import type { TaskDef } from "./task-kit.js"

class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const COMMAND = "npm run bench:profiles"

const progress = (line: string) => Effect.sync(() => void process.stderr.write(`[profiles] ${line}\n`))

export interface RunArgs {
  readonly tasks: ReadonlyArray<TaskDef>
  readonly variants: ReadonlyArray<Variant>
  readonly shard?: { readonly index: number; readonly count: number }
  readonly out: string
  readonly control: boolean
  readonly taskTimeoutMs: number
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
        const wanted = raw.split(",").map((s) => s.trim()).filter((s) => s !== "")
        const unknown = wanted.filter((w) => !list.some((x) => (x.id ?? x.name) === w))
        if (unknown.length > 0) return yield* new UsageError({ message: `unknown ${what}: ${unknown.join(", ")} (known: ${list.map((x) => x.id ?? x.name).join(", ")})` })
        return list.filter((x) => wanted.includes((x.id ?? x.name) as string))
      })
    const tasks = yield* pick(ALL_TASKS, valueOf(argv, "--tasks") ?? valueOf(argv, "--task"), "task")
    const wantedVariants = valueOf(argv, "--variants") ?? valueOf(argv, "--variant")
    const variants = yield* pick(wantedVariants === undefined ? ALL_VARIANTS : [...ALL_VARIANTS, ...EXTRA_VARIANTS], wantedVariants, "variant")
    const shardRaw = valueOf(argv, "--shard")
    let shard: RunArgs["shard"]
    if (shardRaw !== undefined) {
      const m = /^(\d+)\/(\d+)$/.exec(shardRaw)
      const index = Number(m?.[1])
      const count = Number(m?.[2])
      if (m === null || count < 1 || index < 1 || index > count) return yield* new UsageError({ message: `--shard takes i/n with 1 <= i <= n, got ${shardRaw}` })
      shard = { index, count }
    }
    const timeout = Number(valueOf(argv, "--task-timeout") ?? 120_000)
    return {
      tasks,
      variants,
      ...(shard !== undefined ? { shard } : {}),
      out: resolve(valueOf(argv, "--out") ?? join(repoRoot, "bench", "profile-report.json")),
      control: !argv.includes("--no-control"),
      taskTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 120_000
    }
  })

/** The (task, variant) jobs in run order (variant by variant), then the control's; a shard takes every n-th. */
export const jobsOf = (args: Pick<RunArgs, "tasks" | "variants" | "shard" | "control">): ReadonlyArray<{ readonly task: TaskDef; readonly variant: Variant }> => {
  const jobs = [
    ...args.variants.flatMap((variant) => args.tasks.map((task) => ({ task, variant }))),
    ...(args.control ? args.tasks.map((task) => ({ task, variant: CONTROL })) : [])
  ]
  const shard = args.shard
  return shard === undefined ? jobs : jobs.filter((_, i) => i % shard.count === shard.index - 1)
}

const writeReport = (report: ProfileReport, out: string) =>
  Effect.sync(() => {
    writeFileSync(out, JSON.stringify(report, null, 2) + "\n")
    const stem = out.replace(/\.json$/, "")
    writeFileSync(`${stem}.md`, toMarkdown(report, COMMAND))
    writeFileSync(`${stem}.svg`, toSvg(report))
  })

const taskInfo = (t: TaskDef) => ({ id: t.id, app: t.app, covers: t.covers, statement: t.statement, ...(t.goal !== undefined ? { goal: t.goal } : {}), ...(t.plugins !== undefined ? { plugins: t.plugins } : {}) })

export const runBench = (args: RunArgs) =>
  Effect.gen(function* () {
    const runtime = resolveElectronRuntime()
    const options: RunOptions = { repoRoot, taskTimeoutMs: args.taskTimeoutMs, callTimeoutMs: 60_000, checkTimeoutMs: 150_000 }
    const jobs = jobsOf(args)
    // The framework app renders a React bundle that must be built first (skipped when it is up to date).
    if (jobs.some((j) => j.task.app === "framework")) {
      yield* Effect.sync(() => execFileSync(process.execPath, [join(repoRoot, "test", "fixtures", "apps", "framework", "build.mjs")], { stdio: ["ignore", "ignore", "inherit"] }))
    }
    yield* progress(`${jobs.length} runs on ${runtime.kind} (${runtime.reason})${args.shard ? `, shard ${args.shard.index}/${args.shard.count}` : ""}`)
    const results: Array<TaskResult> = []
    const control: Array<TaskResult> = []
    let n = 0
    for (const job of jobs) {
      n++
      const r = yield* runTask(job.task, job.variant, options)
      ;(job.variant.control === true ? control : results).push(r)
      yield* progress(`${n}/${jobs.length} ${job.variant.name} ${job.task.id}: ${r.success ? "ok" : "FAIL"} ${r.calls} calls, ${r.totalBpe} BPE, ${r.wallMs} ms${r.success ? "" : ` — ${r.detail.slice(0, 160)}`}`)
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
    yield* writeReport(report, args.out)
    yield* progress(`wrote ${args.out} (+ .md, .svg)`)
    for (const v of report.verdicts) yield* progress(v.text)
    yield* progress(`control: ${report.controlSuccesses}/${report.control.length} checks passed`)
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
    const report = yield* readReport(resolve(valueOf(argv, "--report") ?? join(repoRoot, "bench", "profile-report.json")))
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

export const main = (argv: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const args = argv.filter((a) => a !== "--")
    if (args[0] === "merge") {
      yield* mergeCommand(args.slice(1))
      return
    }
    if (args[0] === "selection") {
      yield* selectionCommand(args.slice(1))
      return
    }
    yield* runBench(yield* parseRunArgs(args))
  })
