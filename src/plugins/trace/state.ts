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
}

export interface Limits {
  readonly soft?: number | undefined
  readonly hard?: number | undefined
}

export interface TraceState {
  readonly totals: Totals
  readonly refused: { count: number }
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

const zero = (): Totals => ({ calls: 0, errors: 0, chars: 0, approxTokens: 0 })

/** The state of the server whose configuration this is (made on first use). */
export const stateOf = (config: ServerConfigShape, settings?: TraceSettings): TraceState => {
  let state = states.get(config)
  if (state === undefined) {
    const limits = { soft: settings?.softTokens, hard: settings?.hardTokens }
    state = { totals: zero(), refused: { count: 0 }, byTool: new Map(), largest: [], limits, ceilings: limits, file: { written: 0 } }
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
  }
  add(state.totals)
  let tool = state.byTool.get(record.tool)
  if (tool === undefined) state.byTool.set(record.tool, (tool = zero()))
  add(tool)
  if (record.code === "CALL_REFUSED") state.refused.count++
  const smallest = state.largest[state.largest.length - 1]
  if (state.largest.length < LARGEST_KEPT || (smallest !== undefined && record.approxTokens > smallest.approxTokens)) {
    state.largest.push({ index: record.index, tool: record.tool, approxTokens: record.approxTokens, outcome: record.code ?? record.outcome })
    state.largest.sort((a, b) => b.approxTokens - a.approxTokens || a.index - b.index)
    if (state.largest.length > LARGEST_KEPT) state.largest.pop()
  }
}

/** What the next call of `tool` is expected to cost: the mean of its earlier answers, else of all answers, else 0. */
export const estimateFor = (state: TraceState, tool: string): { readonly tokens: number; readonly basis: string } => {
  const own = state.byTool.get(tool)
  if (own !== undefined && own.calls > 0) return { tokens: Math.ceil(own.approxTokens / own.calls), basis: `the mean of its ${own.calls} earlier answer${own.calls === 1 ? "" : "s"}` }
  const all = state.totals
  if (all.calls > 0) return { tokens: Math.ceil(all.approxTokens / all.calls), basis: `the mean answer of this session (no earlier ${tool} call)` }
  return { tokens: 0, basis: "nothing yet to estimate from" }
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
  if (hard !== undefined) {
    const estimate = estimateFor(state, tool)
    if (used + estimate.tokens > hard || used >= hard) {
      const ceiling = state.ceilings.hard
      const raise =
        ceiling === undefined || hard < ceiling
          ? `raise the limit with ${BUDGET_TOOL} hardTokens${ceiling !== undefined ? ` (up to ${n(ceiling)}, the operator's limit)` : ""}`
          : "the operator's limit (--plugin-config trace) cannot be raised from a tool"
      return {
        refuse: new CallRefused({
          message: `${tool} refused: it would pass the session's token budget (~${n(used)} tokens used + ~${n(estimate.tokens)} for this call, ${estimate.basis}, > hard limit ${n(hard)}; token figures are estimates, about 4 characters a token)`,
          hint: `Finish with what you have (electron_close ends the app; ${REPORT_TOOL} shows where the tokens went), or ${raise}.`,
          tool,
          by: "trace",
          details: { usedTokens: used, estimateTokens: estimate.tokens, hardTokens: hard, ...(soft !== undefined ? { softTokens: soft } : {}) }
        })
      }
    }
  }
  if (soft !== undefined && used >= soft) {
    return { note: `token budget: ~${n(used)} tokens used, past the soft limit ${n(soft)}${hard !== undefined ? ` (calls that would pass ${n(hard)} are refused)` : ""}; ${REPORT_TOOL} shows where they went.` }
  }
  return {}
}

export const formatNumber = n
