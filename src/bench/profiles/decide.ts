/**
 * The design's rule applied to a bound, not to one run: essential becomes the default only when the lower
 * one-sided 95% bound of its success ratio over full's is at least 95% and the lower bound of its token
 * saving is material (>= 20%). The bound is stats.ts's min(paired cluster bootstrap, Wilson on the task bed);
 * the saving is decided once per accounting (eager: every schema every task; on demand: names + schemas
 * when first used + searches). The no-eval pair governs; the eval pair and proposed memberships inform.
 */
import { MATERIAL_SAVING, SUCCESS_RATIO, type TaskResult } from "./scoring.js"
import { BOOTSTRAP_DRAWS, pairBound, type PairBound, type Run } from "./stats.js"

export type Accounting = "eager" | "on demand"

export interface BoundVerdict {
  readonly pair: string
  readonly subject: string
  readonly accounting: Accounting
  /** Whether this verdict decides the default (the no-eval pair, eager and on demand), or informs. */
  readonly governs: boolean
  readonly bound: PairBound
  readonly meetsSuccess: boolean
  readonly meetsSaving: boolean
  readonly becomesDefault: boolean
  readonly text: string
}

/** The cost of a run in an accounting (reports from before the accountings existed: total BPE). */
export const costOf = (r: TaskResult, accounting: Accounting): number => (accounting === "eager" ? (r.eagerBpe ?? r.totalBpe) : (r.onDemandBpe ?? r.totalBpe))

const runsOf = (results: ReadonlyArray<TaskResult>, variant: string, accounting: Accounting): ReadonlyArray<Run> =>
  results.filter((r) => r.variant === variant).map((r) => ({ task: r.task, variant: r.variant, success: r.success, cost: costOf(r, accounting) }))

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`

export const RULE_TEXT =
  `The rule: essential becomes the default only if the lower one-sided 95% bound of its success ratio over full's is at least ${pct(SUCCESS_RATIO)} ` +
  `and the lower bound of its token saving is at least ${pct(MATERIAL_SAVING)}. The bound is the smaller of (a) the 5th percentile of a paired cluster ` +
  `bootstrap (${BOOTSTRAP_DRAWS} draws, seeded: tasks drawn with replacement, then each variant's runs of each drawn task) and (b) the Wilson one-sided ` +
  "95% lower bound of the share of full's solved task mass essential also solves (which counts the task bed's size: a bootstrap of identical " +
  "outcomes has no spread). The no-eval pair governs; the eval pair and proposed memberships are information."

export const decide = (
  results: ReadonlyArray<TaskResult>,
  pair: string,
  candidate: string,
  reference: string,
  accounting: Accounting,
  options: { readonly subject?: string; readonly governs?: boolean } = {}
): BoundVerdict | undefined => {
  const bound = pairBound(runsOf(results, candidate, accounting), runsOf(results, reference, accounting))
  if (bound === undefined) return undefined
  const subject = options.subject ?? candidate
  const meetsSuccess = bound.referenceRate > 0 && bound.ratioLow >= SUCCESS_RATIO
  const meetsSaving = bound.savingLow >= MATERIAL_SAVING
  const yes = meetsSuccess && meetsSaving
  const runs = `${bound.candidateRuns} runs vs ${bound.referenceRuns} over ${bound.tasks} tasks`
  const text =
    `${pair}, ${accounting}: ${subject} ${pct(bound.candidateRate)} vs ${reference} ${pct(bound.referenceRate)} success (${runs}); ` +
    `ratio ${pct(bound.ratio)}, lower bound ${pct(bound.ratioLow)} (bootstrap ${pct(bound.bootstrapLow)}, Wilson ${pct(bound.wilsonLow)}; needs ${pct(SUCCESS_RATIO)}; ` +
    `a never-failing ${subject} could show at most ${pct(bound.perfectCandidateLow)} on this task bed); ` +
    `saving ${pct(bound.saving)}, lower bound ${pct(bound.savingLow)} (material from ${pct(MATERIAL_SAVING)}). ` +
    (options.governs === true
      ? yes
        ? `Yes: the evidence exists for ${subject} as the default (${accounting} hosts).`
        : `No: ${reference} stays the default (${accounting} hosts).`
      : yes
        ? "Would meet the rule (information, not in force)."
        : "Would not meet the rule (information).")
  return {
    pair,
    subject,
    accounting,
    governs: options.governs === true,
    bound,
    meetsSuccess,
    meetsSaving,
    becomesDefault: yes && options.governs === true,
    text
  }
}

/** Every verdict the report states: the governing no-eval pair first (both accountings), then the informative ones. */
export const verdictsOf = (results: ReadonlyArray<TaskResult>): ReadonlyArray<BoundVerdict> => {
  const out: Array<BoundVerdict | undefined> = []
  for (const accounting of ["eager", "on demand"] as const) {
    out.push(decide(results, "without eval (governs)", "essential", "full", accounting, { governs: true }))
  }
  for (const accounting of ["eager", "on demand"] as const) {
    out.push(decide(results, "with --allow-eval all (information)", "essential+eval", "full+eval", accounting))
    out.push(decide(results, "essential+proposed vs full (information)", "essential+proposed", "full", accounting))
    out.push(decide(results, "essential+candidates vs full (information)", "essential+candidates", "full", accounting))
  }
  return out.filter((v): v is BoundVerdict => v !== undefined)
}
