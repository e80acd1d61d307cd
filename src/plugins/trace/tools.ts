/**
 * The trace plugin's tools: where the session's tokens went, and its token budget.
 */
import { Effect, Schema } from "effect"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { InvalidArgument } from "../../tools/contract/errors.js"
import { defineTool } from "../../tools/contract/Tool.js"
import { TOKEN_ESTIMATE_NOTE } from "./format.js"
import { BUDGET_TOOL, formatNumber as n, REPORT_TOOL, stateOf, type Limits, type TraceState } from "./state.js"
import { answer } from "../../tools/contract/respond.js"

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part * 100) / whole)}%` : "0%")

const budgetLine = (state: TraceState): string => {
  const { soft, hard } = state.limits
  if (soft === undefined && hard === undefined) return "Budget: none."
  const used = state.totals.approxTokens
  const parts = [soft !== undefined ? `soft ${n(soft)}` : undefined, hard !== undefined ? `hard ${n(hard)} (${percent(used, hard)} used)` : undefined]
  const refused = state.totals.refused
  return `Budget: ${parts.filter(Boolean).join(", ")}${refused > 0 ? `; ${refused} call${refused === 1 ? "" : "s"} refused` : ""}.`
}

const fileLine = (state: TraceState): string =>
  state.file.path !== undefined
    ? `Trace file: ${state.file.path} (${state.file.written} call${state.file.written === 1 ? "" : "s"} written${state.file.problem ? `; stopped: ${state.file.problem}` : ""}); stagewright replay <file> re-runs it.`
    : `Trace file: none${state.file.problem ? ` (${state.file.problem})` : " (record: false)"}.`

export const traceReport = defineTool({
  name: REPORT_TOOL,
  description:
    "Where this session's tokens went: answer tokens per tool and the largest calls, totals, the token budget and the trace file (figures estimated, ~4 characters a token).",
  type: "read",
  touchesPage: false,
  errors: [],
  input: Schema.Struct({
    top: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 100))).annotations({ description: "tools and calls listed, default 10" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const state = stateOf(yield* ServerConfig)
      const top = input.top ?? 10
      const total = state.totals
      const tools = [...state.byTool].sort(([a, x], [b, y]) => y.approxTokens - x.approxTokens || (a < b ? -1 : 1)).slice(0, top)
      const largest = state.largest.slice(0, top)
      const lines = [
        `${total.calls} call${total.calls === 1 ? "" : "s"}, ~${n(total.approxTokens)} answer tokens (${n(total.chars)} characters; ${TOKEN_ESTIMATE_NOTE}), ${total.errors} error${total.errors === 1 ? "" : "s"}.`,
        tools.length > 0
          ? `By tool: ${tools.map(([tool, t]) => `${tool} ${t.calls}× ~${n(t.approxTokens)} (${percent(t.approxTokens, total.approxTokens)})`).join("; ")}.`
          : "By tool: no calls yet.",
        ...(largest.length > 0
          ? [`Largest calls: ${largest.map((c) => `#${c.index} ${c.tool} ~${n(c.approxTokens)}${c.outcome === "ok" ? "" : ` ${c.outcome}`}`).join("; ")}.`]
          : []),
        budgetLine(state),
        fileLine(state)
      ]
      return answer(lines.join("\n"), {
        calls: total.calls,
        errors: total.errors,
        chars: total.chars,
        approxTokens: total.approxTokens,
        tokens: TOKEN_ESTIMATE_NOTE,
        byTool: tools.map(([tool, t]) => ({ tool, ...t })),
        largest,
        budget: { ...state.limits, usedTokens: total.approxTokens, refused: state.totals.refused },
        file: state.file.path ?? null,
        written: state.file.written,
        ...(state.file.problem !== undefined ? { fileProblem: state.file.problem } : {})
      })
    })
})

const Limit = Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative()))

/** The new limit: 0 removes it; never above (or without) the operator's. */
const nextLimit = (name: string, asked: number | undefined, current: number | undefined, ceiling: number | undefined) => {
  if (asked === undefined) return Effect.succeed(current)
  if (ceiling !== undefined && (asked === 0 || asked > ceiling)) {
    return Effect.fail(
      new InvalidArgument({
        message: `${name} ${asked === 0 ? "0 would remove" : `${n(asked)} is above`} the operator's limit ${n(ceiling)} (--plugin-config trace)`,
        hint: `Give ${name} at most ${n(ceiling)}; only the operator can raise it.`
      })
    )
  }
  return Effect.succeed(asked === 0 ? undefined : asked)
}

export const traceBudget = defineTool({
  name: BUDGET_TOOL,
  description:
    "Set this session's token budget (estimated answer tokens): past softTokens answers carry a warning; a call that would pass hardTokens is refused (CALL_REFUSED). 0 removes a limit.",
  type: "debug",
  readOnly: false,
  idempotent: true,
  touchesPage: false,
  errors: [],
  input: Schema.Struct({
    softTokens: Limit.annotations({ description: "omitted: unchanged" }),
    hardTokens: Limit.annotations({ description: "omitted: unchanged" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const state = stateOf(yield* ServerConfig)
      const soft = yield* nextLimit("softTokens", input.softTokens, state.limits.soft, state.ceilings.soft)
      const hard = yield* nextLimit("hardTokens", input.hardTokens, state.limits.hard, state.ceilings.hard)
      const limits: Limits = { soft, hard }
      state.limits = limits
      const used = state.totals.approxTokens
      return answer(`${budgetLine(state)} ~${n(used)} answer tokens used so far (estimated, ~4 characters a token).`, {
        softTokens: soft ?? null,
        hardTokens: hard ?? null,
        usedTokens: used
      })
    })
})
