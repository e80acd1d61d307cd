/**
 * Retrievability (issue 40 item 2): where a host defers schemas, the model finds a tool by searching the names
 * and descriptions. For each step's plain-words intent (recorded by the benchmark's agent, with the tool the
 * step used), the listed tools of each profile are ranked by the two searches hosts use:
 * - regex: the host matches a pattern against "name description"; the model's pattern is taken as the
 *   alternation of the intent's content words (case-insensitive, word stems); a tool scores 2 per distinct
 *   word in its name and 1 per distinct word only in its description; ties keep tools/list order;
 * - BM25 over name + description (selection.ts's proxy, without the instruction sentences: a deferring host
 *   does not index them).
 * The gate compares top-1 / top-3 with a committed baseline (bench/retrievability-baseline.json) and refuses
 * a drop beyond RETRIEVAL_MARGIN, as the manifest gate refuses growth.
 */
import { rankTools, tokenize, type ListedTool } from "./selection.js"

export interface RetrievalItem {
  readonly intent: string
  readonly tool: string
}

export type SearchMethod = "regex" | "bm25"

export interface RetrievalFigure {
  readonly profile: string
  readonly method: SearchMethod
  readonly steps: number
  readonly top1: number
  readonly top3: number
}

/** Percentage points of top-1 or top-3 a description change may lose in any profile and method. */
export const RETRIEVAL_MARGIN = 0.02

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The regex a model would write for an intent: its content words as an alternation (stems match longer forms). */
export const regexFor = (intent: string): RegExp | undefined => {
  const words = [...new Set(tokenize(intent))]
  return words.length === 0 ? undefined : new RegExp(`(${words.map(escape).join("|")})`, "gi")
}

export const rankByRegex = (intent: string, tools: ReadonlyArray<ListedTool>): ReadonlyArray<string> => {
  const words = [...new Set(tokenize(intent))]
  const scored = tools.map((t, order) => {
    const name = t.name.replace(/_/g, " ").toLowerCase()
    const description = (t.description ?? "").toLowerCase()
    let score = 0
    for (const w of words) {
      const re = new RegExp(escape(w), "i")
      if (re.test(name)) score += 2
      else if (re.test(description)) score += 1
    }
    return { name: t.name, score, order }
  })
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.name)
}

export const rankBy = (method: SearchMethod, intent: string, tools: ReadonlyArray<ListedTool>): ReadonlyArray<string> =>
  method === "regex" ? rankByRegex(intent, tools) : rankTools(intent, { tools, instructions: "" })

/** top-1 / top-3 of each profile and method over the items whose tool the profile lists. */
export const retrievability = (
  items: ReadonlyArray<RetrievalItem>,
  lists: ReadonlyArray<{ readonly profile: string; readonly tools: ReadonlyArray<ListedTool> }>
): ReadonlyArray<RetrievalFigure> =>
  lists.flatMap(({ profile, tools }) =>
    (["regex", "bm25"] as const).map((method) => {
      const mine = items.filter((i) => tools.some((t) => t.name === i.tool))
      const ranks = mine.map((i) => rankBy(method, i.intent, tools).indexOf(i.tool) + 1)
      return { profile, method, steps: mine.length, top1: ranks.filter((r) => r === 1).length, top3: ranks.filter((r) => r >= 1 && r <= 3).length }
    })
  )

/**
 * The steps the baseline may hold: those of tuned tasks only. A held-out task's intents would be tuned against
 * once in the baseline (the first held-out set was, on 2026-12-02), so its results are left out by task id.
 */
export const tunedSteps = <S>(
  results: ReadonlyArray<{ readonly task: string; readonly steps?: ReadonlyArray<S> }>,
  heldOut: ReadonlySet<string>
): ReadonlyArray<S> => results.filter((r) => !heldOut.has(r.task)).flatMap((r) => r.steps ?? [])

/** The distinct (intent, tool) pairs of a report's steps (eval fallbacks and profile switches left out). */
export const itemsOfSteps = (steps: ReadonlyArray<{ readonly intent: string; readonly tool: string }>): ReadonlyArray<RetrievalItem> => {
  const seen = new Set<string>()
  const out: Array<RetrievalItem> = []
  for (const s of steps) {
    if (s.tool.startsWith("electron_eval_") || s.tool === "electron_profile") continue
    const key = `${s.intent}\u0000${s.tool}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ intent: s.intent, tool: s.tool })
  }
  return out.sort((a, b) => (a.intent + a.tool < b.intent + b.tool ? -1 : 1))
}

const share = (n: number, of: number) => (of === 0 ? 0 : n / of)
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`

/** The gate: every (profile, method) within the margin of the baseline's top-1 and top-3 shares. */
export const retrievalDrops = (
  baseline: ReadonlyArray<RetrievalFigure>,
  now: ReadonlyArray<RetrievalFigure>,
  margin = RETRIEVAL_MARGIN
): ReadonlyArray<string> =>
  now.flatMap((n) => {
    const b = baseline.find((x) => x.profile === n.profile && x.method === n.method)
    if (b === undefined) return []
    return (["top1", "top3"] as const).flatMap((k) => {
      const before = share(b[k], b.steps)
      const after = share(n[k], n.steps)
      return before - after > margin ? [`${n.profile} ${n.method} ${k}: ${pct(before)} -> ${pct(after)} (drop beyond ${pct(margin)})`] : []
    })
  })

export const retrievalMarkdown = (now: ReadonlyArray<RetrievalFigure>, baseline?: ReadonlyArray<RetrievalFigure>): string => {
  const lines = [
    "| profile | search | steps | top-1 | top-3 |" + (baseline ? " top-1 baseline | top-3 baseline |" : ""),
    "|---|---|---:|---:|---:|" + (baseline ? "---:|---:|" : "")
  ]
  for (const n of now) {
    const b = baseline?.find((x) => x.profile === n.profile && x.method === n.method)
    lines.push(
      `| ${n.profile} | ${n.method} | ${n.steps} | ${pct(share(n.top1, n.steps))} | ${pct(share(n.top3, n.steps))} |` +
        (baseline ? ` ${b ? pct(share(b.top1, b.steps)) : "–"} | ${b ? pct(share(b.top3, b.steps)) : "–"} |` : "")
    )
  }
  return lines.join("\n")
}
