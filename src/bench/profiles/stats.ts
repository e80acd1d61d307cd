/**
 * The statistics that let the profile benchmark decide with repeats: per-task pass counts and flake rates,
 * the Wilson interval of a success rate, and a paired cluster bootstrap of the success ratio of two
 * variants (tasks resampled with replacement, then each task's runs within it), whose 5th percentile is the
 * one-sided lower 95% bound the rule is applied to. Pure and deterministic (a seeded generator).
 */

/** One run of one task on one variant, as the statistics read it. */
export interface Run {
  readonly task: string
  readonly variant: string
  readonly success: boolean
  readonly cost: number
}

/** Runs and successes of a task on a variant, and how often its runs disagreed with their majority. */
export interface TaskCell {
  readonly task: string
  readonly variant: string
  readonly runs: number
  readonly successes: number
  /** Fraction of runs whose outcome is the minority one (0 when every run agrees; 0.5 at most). */
  readonly flakeRate: number
}

export const cellsOf = (runs: ReadonlyArray<Run>): ReadonlyArray<TaskCell> => {
  const byKey = new Map<string, { task: string; variant: string; runs: number; successes: number }>()
  for (const r of runs) {
    const key = `${r.task}\u0000${r.variant}`
    const cell = byKey.get(key) ?? { task: r.task, variant: r.variant, runs: 0, successes: 0 }
    cell.runs++
    if (r.success) cell.successes++
    byKey.set(key, cell)
  }
  return [...byKey.values()].map((c) => ({ ...c, flakeRate: c.runs === 0 ? 0 : Math.min(c.successes, c.runs - c.successes) / c.runs }))
}

/** The Wilson score interval of k successes in n trials at z (1.96: two-sided 95%). */
export const wilson = (k: number, n: number, z = 1.96): { readonly low: number; readonly high: number } => {
  if (n === 0) return { low: 0, high: 1 }
  const p = k / n
  const denom = 1 + (z * z) / n
  const centre = (p + (z * z) / (2 * n)) / denom
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

/** mulberry32: a small seeded generator, so that a report is the same on every machine. */
export const seeded = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const quantile = (sorted: ReadonlyArray<number>, q: number): number => {
  if (sorted.length === 0) return 0
  const i = Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))
  return sorted[i]!
}

export interface PairBound {
  /** Tasks both variants ran (the bootstrap's clusters). */
  readonly tasks: number
  readonly candidateRuns: number
  readonly referenceRuns: number
  /** Mean success over tasks × repeats. */
  readonly candidateRate: number
  readonly referenceRate: number
  /** candidateRate / referenceRate (0 when the reference never succeeded). */
  readonly ratio: number
  /** The 5th percentile of the bootstrap's ratios. */
  readonly bootstrapLow: number
  /**
   * The Wilson one-sided 95% lower bound (z 1.645) of the share of the reference's solved task mass the
   * candidate also solves: k = sum over tasks of min(candidate rate, reference rate), n = sum of the
   * reference's rates. It counts the task bed's finite size (a bootstrap of identical outcomes has no spread).
   */
  readonly wilsonLow: number
  /** The bound the rule is applied to: min(bootstrapLow, wilsonLow). */
  readonly ratioLow: number
  /** Mean cost per run (total BPE) and the saving 1 - candidate / reference, with its lower 95% bound. */
  readonly saving: number
  readonly savingLow: number
  readonly draws: number
  /** The highest wilsonLow a candidate that never fails could show against this reference's runs. */
  readonly perfectCandidateLow: number
}

/** z of a one-sided 95% bound. */
export const ONE_SIDED_Z = 1.645
export const BOOTSTRAP_DRAWS = 4000
export const BOOTSTRAP_SEED = 20261201

/**
 * The paired cluster bootstrap: draw the tasks with replacement; for each drawn task draw each variant's
 * runs of it with replacement; the ratio of the two mean success rates (and of the mean costs) over the
 * drawn runs is one replicate. Tasks are the unit because a task's runs are correlated (the same script on
 * the same app) and both variants are drawn on the same tasks because task difficulty is shared.
 */
export const pairBound = (
  candidate: ReadonlyArray<Run>,
  reference: ReadonlyArray<Run>,
  draws = BOOTSTRAP_DRAWS,
  seed = BOOTSTRAP_SEED
): PairBound | undefined => {
  const group = (runs: ReadonlyArray<Run>) => {
    const m = new Map<string, Array<Run>>()
    for (const r of runs) m.set(r.task, [...(m.get(r.task) ?? []), r])
    return m
  }
  const c = group(candidate)
  const f = group(reference)
  const tasks = [...c.keys()].filter((t) => f.has(t)).sort()
  if (tasks.length === 0) return undefined
  const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
  const runsOf = (m: Map<string, Array<Run>>) => tasks.flatMap((t) => m.get(t) ?? [])
  const rate = (runs: ReadonlyArray<Run>) => mean(runs.map((r) => (r.success ? 1 : 0)))
  const cost = (runs: ReadonlyArray<Run>) => mean(runs.map((r) => r.cost))
  const ratioOf = (cr: number, fr: number) => (fr === 0 ? 0 : cr / fr)
  const savingOf = (cc: number, fc: number) => (fc === 0 ? 0 : 1 - cc / fc)
  const random = seeded(seed)
  const pick = <A>(xs: ReadonlyArray<A>): A => xs[Math.floor(random() * xs.length)]!
  const ratios: Array<number> = []
  const savings: Array<number> = []
  for (let d = 0; d < draws; d++) {
    const cs: Array<Run> = []
    const fs: Array<Run> = []
    for (let i = 0; i < tasks.length; i++) {
      const t = pick(tasks)
      const cr = c.get(t)!
      const fr = f.get(t)!
      for (let k = 0; k < cr.length; k++) cs.push(pick(cr))
      for (let k = 0; k < fr.length; k++) fs.push(pick(fr))
    }
    const fRate = rate(fs)
    ratios.push(ratioOf(rate(cs), fRate))
    savings.push(savingOf(cost(cs), cost(fs)))
  }
  const sorted = (xs: Array<number>) => xs.sort((a, b) => a - b)
  const cAll = runsOf(c)
  const fAll = runsOf(f)
  const kept = tasks.reduce((a, t) => a + Math.min(rate(c.get(t)!), rate(f.get(t)!)), 0)
  const mass = tasks.reduce((a, t) => a + rate(f.get(t)!), 0)
  const wilsonLow = mass === 0 ? 0 : wilson(kept, mass, ONE_SIDED_Z).low
  const bootstrapLow = quantile(sorted(ratios), 0.05)
  return {
    tasks: tasks.length,
    candidateRuns: cAll.length,
    referenceRuns: fAll.length,
    candidateRate: rate(cAll),
    referenceRate: rate(fAll),
    ratio: ratioOf(rate(cAll), rate(fAll)),
    bootstrapLow,
    wilsonLow,
    ratioLow: Math.min(bootstrapLow, wilsonLow),
    saving: savingOf(cost(cAll), cost(fAll)),
    savingLow: quantile(sorted(savings), 0.05),
    draws,
    perfectCandidateLow: mass === 0 ? 0 : wilson(mass, mass, ONE_SIDED_Z).low
  }
}
