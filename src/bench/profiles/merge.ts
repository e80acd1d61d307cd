/**
 * The report value and the merge of shard reports: results are keyed by (task, variant); the merge
 * keeps one result per key, orders them like a single run and recomputes summaries and verdicts.
 */
import type { SelectionReport } from "./selection.js"
import { type BoundVerdict, verdictsOf } from "./decide.js"
import { summarize, type TaskResult, type VariantSummary } from "./scoring.js"

export interface TaskInfo {
  readonly id: string
  readonly app: string
  readonly covers: string
  readonly statement: string
  readonly goal?: string
  readonly plugins?: ReadonlyArray<string>
  readonly capability?: string
  readonly heldOut?: boolean
}

export interface ProfileReport {
  readonly kind: "stagewright-profile-benchmark"
  readonly version: 1 | 2
  readonly generatedAt: string
  readonly runtime: string
  readonly encoding: string
  readonly shard?: string
  readonly tasks: ReadonlyArray<TaskInfo>
  readonly variants: ReadonlyArray<string>
  readonly results: ReadonlyArray<TaskResult>
  readonly control: ReadonlyArray<TaskResult>
  readonly summaries: ReadonlyArray<VariantSummary>
  readonly controlSuccesses: number
  readonly verdicts: ReadonlyArray<BoundVerdict>
  /** The selection proxy over every recorded step (absent in reports from before it existed). */
  readonly selection?: SelectionReport
}

const keyOf = (r: TaskResult) => `${r.task}\u0000${r.variant}\u0000${r.repeat ?? 1}`

const ordered = (results: ReadonlyArray<TaskResult>, tasks: ReadonlyArray<string>, variants: ReadonlyArray<string>) => {
  const byKey = new Map<string, TaskResult>()
  for (const r of results) byKey.set(keyOf(r), r)
  const rank = (list: ReadonlyArray<string>, x: string) => (list.includes(x) ? list.indexOf(x) : list.length)
  return [...byKey.values()].sort(
    (a, b) => rank(tasks, a.task) - rank(tasks, b.task) || rank(variants, a.variant) - rank(variants, b.variant) || (a.repeat ?? 1) - (b.repeat ?? 1)
  )
}

export const buildReport = (
  meta: Pick<ProfileReport, "generatedAt" | "runtime" | "encoding" | "shard" | "tasks" | "variants" | "results" | "control" | "selection">
): ProfileReport => {
  const taskIds = meta.tasks.map((t) => t.id)
  const results = ordered(meta.results, taskIds, meta.variants)
  const control = ordered(meta.control, taskIds, [...new Set(meta.control.map((r) => r.variant))])
  const summaries = meta.variants.map((v) => summarize(v, results)).filter((s) => s.tasks > 0)
  const verdicts = verdictsOf(results)
  return {
    kind: "stagewright-profile-benchmark",
    version: 2,
    generatedAt: meta.generatedAt,
    runtime: meta.runtime,
    encoding: meta.encoding,
    ...(meta.shard !== undefined ? { shard: meta.shard } : {}),
    tasks: meta.tasks,
    variants: meta.variants,
    results,
    control,
    summaries,
    controlSuccesses: control.filter((r) => r.success).length,
    verdicts,
    ...(meta.selection !== undefined ? { selection: meta.selection } : {})
  }
}

/** Joins shard reports into one (tasks and variants in first-seen order). */
export const mergeReports = (reports: ReadonlyArray<ProfileReport>, generatedAt: string): ProfileReport => {
  const tasks = new Map<string, TaskInfo>()
  const variants: Array<string> = []
  for (const r of reports) {
    for (const t of r.tasks) if (!tasks.has(t.id)) tasks.set(t.id, t)
    for (const v of r.variants) if (!variants.includes(v)) variants.push(v)
  }
  return buildReport({
    generatedAt,
    runtime: reports[0]?.runtime ?? "",
    encoding: reports[0]?.encoding ?? "",
    tasks: [...tasks.values()],
    variants,
    results: reports.flatMap((r) => r.results),
    control: reports.flatMap((r) => r.control)
  })
}

/**
 * What two runs must agree on to be "equal": for every (task, variant) the outcome, the tools the
 * agent used and the manifest it was shown (wall time, and response sizes that carry pids and
 * timestamps, legitimately differ between runs).
 */
export const comparable = (report: ProfileReport): ReadonlyArray<string> =>
  [...report.results, ...report.control].map(
    (r) =>
      `${r.task} ${r.variant} #${r.repeat ?? 1} success=${r.success} manifest=${r.manifestBpe} tools=${r.toolsListed} used=${r.toolsUsed.join(",")} missing=${r.missingTool ?? "-"}`
  )

export const differences = (a: ProfileReport, b: ProfileReport): ReadonlyArray<string> => {
  const left = comparable(a)
  const right = comparable(b)
  const out: Array<string> = []
  for (const x of left) if (!right.includes(x)) out.push(`- ${x}`)
  for (const x of right) if (!left.includes(x)) out.push(`+ ${x}`)
  return out
}
