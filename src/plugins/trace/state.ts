/**
 * The trace plugin's state for one server: where the tokens went (totals, per tool, the largest calls),
 * the token budget and the trace file. One per server, keyed by the server's configuration (its tools
 * and its observer reach it through ServerConfig, which is one value per server).
 */
import { Schema } from "effect"
import type { ServerConfigShape } from "../../layers/config/ServerConfig.js"
import { CallRefused, type CallRecord } from "../observer.js"

const Tokens = Schema.Number.pipe(Schema.int(), Schema.between(1, 1_000_000_000))

/** `--plugin-config trace={...}`. */
export const TraceSettings = Schema.Struct({
  file: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
    description: "the trace file's name in the output folder (a plain name; default session-<time>.jsonl)"
  }),
  record: Schema.optionalWith(Schema.Boolean, { default: () => true }).annotations({ description: "write the trace file (default true)" }),
  softTokens: Schema.optional(Tokens).annotations({ description: "past this many answer tokens (estimated), answers carry a warning" }),
  hardTokens: Schema.optional(Tokens).annotations({ description: "a call that would pass this many answer tokens (estimated) is refused with CALL_REFUSED" })
})
export type TraceSettings = typeof TraceSettings.Type

export const REPORT_TOOL = "electron_trace_report"
export const BUDGET_TOOL = "electron_trace_budget"
/** Never refused by the budget: the plugin's own tools, and closing the app. */
const EXEMPT: ReadonlySet<string> = new Set([REPORT_TOOL, BUDGET_TOOL, "electron_close"])

export interface Totals {
  calls: number
  errors: number
  chars: number
  approxTokens: number
  /** Calls the budget refused, and their answers' tokens (left out of a tool's estimate). */
  refused: number
  refusedTokens: number
}

export interface Limits {
  readonly soft?: number | undefined
  readonly hard?: number | undefined
}

export interface TraceState {
  readonly totals: Totals
  readonly byTool: Map<string, Totals>
  /** The largest calls, largest first (at most LARGEST_KEPT). */
  largest: Array<{ readonly index: number; readonly tool: string; readonly approxTokens: number; readonly outcome: string }>
  limits: Limits
  /** What the operator set (--plugin-config trace): a tool may lower these, never raise or remove them. */
  readonly ceilings: Limits
  file: { path?: string; written: number; problem?: string }
}

const LARGEST_KEPT = 100

const states = new WeakMap<ServerConfigShape, TraceState>()

const zero = (): Totals => ({ calls: 0, errors: 0, chars: 0, approxTokens: 0, refused: 0, refusedTokens: 0 })

/** The state of the server whose configuration this is (made on first use). */
export const stateOf = (config: ServerConfigShape, settings?: TraceSettings): TraceState => {
  let state = states.get(config)
  if (state === undefined) {
    const limits = { soft: settings?.softTokens, hard: settings?.hardTokens }
    state = { totals: zero(), byTool: new Map(), largest: [], limits, ceilings: limits, file: { written: 0 } }
    states.set(config, state)
  }
  return state
}

/** Adds a finished call to the figures. */
export const account = (state: TraceState, record: CallRecord): void => {
  const add = (t: Totals) => {
    t.calls++
    if (record.outcome === "error") t.errors++
    t.chars += record.chars
    t.approxTokens += record.approxTokens
    if (record.code === "CALL_REFUSED") {
      t.refused++
      t.refusedTokens += record.approxTokens
    }
  }
  add(state.totals)
  let tool = state.byTool.get(record.tool)
  if (tool === undefined) state.byTool.set(record.tool, (tool = zero()))
  add(tool)
  const smallest = state.largest[state.largest.length - 1]
  if (state.largest.length < LARGEST_KEPT || (smallest !== undefined && record.approxTokens > smallest.approxTokens)) {
    state.largest.push({ index: record.index, tool: record.tool, approxTokens: record.approxTokens, outcome: record.code ?? record.outcome })
    state.largest.sort((a, b) => b.approxTokens - a.approxTokens || a.index - b.index)
    if (state.largest.length > LARGEST_KEPT) state.largest.pop()
  }
}

/** What the next call of `tool` is expected to cost: the mean of its earlier answers, else of all answers, else 0. */
export const estimateFor = (state: TraceState, tool: string): { readonly tokens: number; readonly basis: string } => {
  const mean = (t: Totals | undefined) =>
    t === undefined || t.calls - t.refused === 0 ? undefined : Math.ceil((t.approxTokens - t.refusedTokens) / (t.calls - t.refused))
  const own = mean(state.byTool.get(tool))
  if (own !== undefined) return { tokens: own, basis: "its mean answer" }
  const all = mean(state.totals)
  if (all !== undefined) return { tokens: all, basis: "the session's mean answer" }
  return { tokens: 0, basis: "no answer yet" }
}

const n = (value: number) => value.toLocaleString("en-US")

/**
 * The budget's verdict on a call about to run: refused (CallRefused) when its estimate would take the
 * answers past the hard limit, a warning note once they are past the soft limit, else nothing.
 */
export const budgetVerdict = (state: TraceState, tool: string): { readonly refuse?: CallRefused; readonly note?: string } => {
  if (EXEMPT.has(tool)) return {}
  const used = state.totals.approxTokens
  const { soft, hard } = state.limits
  const note =
    soft !== undefined && used >= soft
      ? `~${n(used)} tokens used, past the soft budget ${n(soft)}${hard !== undefined ? ` (hard ${n(hard)})` : ""}; see ${REPORT_TOOL}.`
      : undefined
  if (hard !== undefined) {
    const estimate = estimateFor(state, tool)
    // The note is part of the answer (in its text and its structured content) and costs tokens too.
    const tokens = estimate.tokens + (note === undefined ? 0 : Math.ceil((2 * note.length + 20) / 4))
    if (used + tokens > hard || used >= hard) {
      const ceiling = state.ceilings.hard
      const raise =
        ceiling === undefined || hard < ceiling
          ? `raise hardTokens with ${BUDGET_TOOL}${ceiling !== undefined ? ` (at most ${n(ceiling)})` : ""}`
          : "ask the operator to raise hardTokens (--plugin-config trace)"
      return {
        refuse: new CallRefused({
          message: `${tool} would pass the token budget: ~${n(used)} used + ~${n(tokens)} for this call (${estimate.basis}) > hard limit ${n(hard)} (estimates, ~4 characters a token)`,
          hint: `Wrap up (electron_close ends the app; ${REPORT_TOOL} shows where the tokens went) or ${raise}.`,
          tool,
          by: "trace",
          details: { usedTokens: used, estimateTokens: tokens, hardTokens: hard, ...(soft !== undefined ? { softTokens: soft } : {}) }
        })
      }
    }
  }
  return note === undefined ? {} : { note }
}

export const formatNumber = n
