/**
 * The selection proxy: for every step of every task, a BM25 retrieval over the tools the variant listed at that
 * step (each tool's name, description and the server-instruction sentences that name it) ranks the tools for
 * the step's intent, written in plain words by the task's author. The expected tool is the one the scripted
 * step used; top-1 / top-3 say how often a lexical chooser would have picked it. A proxy for how findable a
 * tool is from its words, not a model: a model reads schemas, examples and its own context too.
 */
import { execFileSync } from "node:child_process"

export interface ListedTool {
  readonly name: string
  readonly description?: string
}

export interface ToolList {
  readonly tools: ReadonlyArray<ListedTool>
  readonly instructions: string
}

const STOPWORDS = new Set(
  "a an and are as at be been but by can do does for from has have if in into is it its of on once or so than that the then there these this those to up was were what when where which while with without you your their them they its it's all any each every one only just now also how why not no yes".split(
    " "
  )
)

/** Lower case, split on anything not a letter or digit (so electron_web_dialog is three words), light stemming. */
export const tokenize = (text: string): ReadonlyArray<string> =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w) && w !== "electron")
    .map(stem)

const stem = (w: string): string => {
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3)
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2)
  if (w.length > 4 && w.endsWith("es") && /(ch|sh|x|ss)es$/.test(w)) return w.slice(0, -2)
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1)
  return w
}

/** The sentences of the instructions that name a tool (electron_expect_* names every electron_expect_ tool). */
const instructionSentences = (name: string, instructions: string): string =>
  instructions
    .split(/(?<=[.:;])\s+|\n/)
    .filter((s) => s.includes(name) || [...s.matchAll(/(electron_[a-z_]+)\*/g)].some((m) => name.startsWith(m[1] ?? "\u0000")))
    .join(" ")

export const documentOf = (tool: ListedTool, instructions: string): ReadonlyArray<string> =>
  tokenize(`${tool.name.replace(/_/g, " ")} ${tool.description ?? ""} ${instructionSentences(tool.name, instructions)}`)

const K1 = 1.2
const B = 0.75

/** Tool names ranked by BM25 score of the query against each tool's document (ties: by name). */
export const rankTools = (query: string, list: ToolList): ReadonlyArray<string> => {
  const docs = list.tools.map((t) => ({ name: t.name, words: documentOf(t, list.instructions) }))
  const n = docs.length
  const avg = docs.reduce((a, d) => a + d.words.length, 0) / Math.max(1, n)
  const df = new Map<string, number>()
  for (const d of docs) for (const w of new Set(d.words)) df.set(w, (df.get(w) ?? 0) + 1)
  const terms = [...new Set(tokenize(query))]
  const scored = docs.map((d) => {
    const tf = new Map<string, number>()
    for (const w of d.words) tf.set(w, (tf.get(w) ?? 0) + 1)
    let score = 0
    for (const t of terms) {
      const f = tf.get(t) ?? 0
      if (f === 0) continue
      const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5))
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.words.length) / avg))
    }
    return { name: d.name, score }
  })
  return scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((s) => s.name)
}

export interface SelectionItem {
  readonly variant: string
  readonly task: string
  readonly intent: string
  readonly tool: string
  /** 1-based rank of the expected tool; 0 when it was not listed at that step (the switch variant before a switch). */
  readonly rank: number
  readonly top: string
}

export interface SelectionSummary {
  readonly variant: string
  readonly steps: number
  readonly top1: number
  readonly top3: number
  readonly notListed: number
}

export interface SelectionReport {
  readonly method: string
  /** Where the descriptions came from: "current" (this checkout's tools/list) or "docs/TOOLS.md at <ref>". */
  readonly descriptions: string
  readonly summaries: ReadonlyArray<SelectionSummary>
  /** The steps the proxy ranked worst (expected tool not in the top 3), for description writers. */
  readonly misses: ReadonlyArray<SelectionItem>
}

export const METHOD = "BM25 (k1 1.2, b 0.75) of the step's plain-words intent over each listed tool's name + description + the instruction sentences naming it"

export const rankItem = (variant: string, task: string, intent: string, tool: string, list: ToolList): SelectionItem => {
  const ranked = rankTools(intent, list)
  const i = ranked.indexOf(tool)
  return { variant, task, intent, tool, rank: i < 0 ? 0 : i + 1, top: ranked[0] ?? "" }
}

export const summarizeSelection = (items: ReadonlyArray<SelectionItem>, variants: ReadonlyArray<string>, descriptions: string): SelectionReport => ({
  method: METHOD,
  descriptions,
  summaries: variants
    .map((variant) => {
      const mine = items.filter((x) => x.variant === variant)
      return {
        variant,
        steps: mine.length,
        top1: mine.filter((x) => x.rank === 1).length,
        top3: mine.filter((x) => x.rank >= 1 && x.rank <= 3).length,
        notListed: mine.filter((x) => x.rank === 0).length
      }
    })
    .filter((s) => s.steps > 0),
  misses: dedupeMisses(items.filter((x) => x.rank === 0 || x.rank > 3))
})

/** One line per (intent, tool) pair, from the full variant first (the one most tools compete in). */
const dedupeMisses = (items: ReadonlyArray<SelectionItem>): ReadonlyArray<SelectionItem> => {
  const seen = new Set<string>()
  const order = [...items].sort((a, b) => Number(b.variant === "full") - Number(a.variant === "full"))
  return order.filter((x) => {
    const key = `${x.intent}\u0000${x.tool}`
    if (seen.has(key) || x.rank === 0) return false
    seen.add(key)
    return true
  })
}

/** Descriptions per tool from docs/TOOLS.md as committed at a git ref (the paragraph under each `### name`). */
export const descriptionsAt = (ref: string, repoRoot: string): ReadonlyMap<string, string> => {
  const text = execFileSync("git", ["show", `${ref}:docs/TOOLS.md`], { cwd: repoRoot, encoding: "utf8", maxBuffer: 32 * 1024 * 1024 })
  const out = new Map<string, string>()
  for (const m of text.matchAll(/^### (electron_[a-z0-9_]+)\n\n([^\n]+(?:\n[^\n-|][^\n]*)*)/gm)) out.set(m[1] ?? "", (m[2] ?? "").trim())
  return out
}

/** A list with each description replaced by the ref's, where the ref documents that tool. */
export const withDescriptions = (list: ToolList, descriptions: ReadonlyMap<string, string> | undefined): ToolList =>
  descriptions === undefined ? list : { ...list, tools: list.tools.map((t) => ({ ...t, description: descriptions.get(t.name) ?? t.description ?? "" })) }

const pct = (n: number, of: number) => (of === 0 ? "–" : `${Math.round((n / of) * 1000) / 10}%`)

/** The Markdown table; with a "before" report, before → after columns per variant. */
export const selectionMarkdown = (after: SelectionReport, before?: SelectionReport): string => {
  const lines: Array<string> = []
  if (before === undefined) {
    lines.push("| variant | steps | top-1 | top-3 | expected tool not listed |", "|---|---:|---:|---:|---:|")
    for (const s of after.summaries)
      lines.push(`| ${s.variant} | ${s.steps} | ${s.top1} (${pct(s.top1, s.steps)}) | ${s.top3} (${pct(s.top3, s.steps)}) | ${s.notListed} |`)
  } else {
    lines.push(`| variant | steps | top-1 before | top-1 after | top-3 before | top-3 after |`, "|---|---:|---:|---:|---:|---:|")
    for (const s of after.summaries) {
      const b = before.summaries.find((x) => x.variant === s.variant)
      lines.push(
        `| ${s.variant} | ${s.steps} | ${b ? pct(b.top1, b.steps) : "–"} | ${pct(s.top1, s.steps)} | ${b ? pct(b.top3, b.steps) : "–"} | ${pct(s.top3, s.steps)} |`
      )
    }
  }
  return lines.join("\n")
}
