/** Renders a profile report as Markdown and as an SVG chart (success and total BPE per variant). */
import { SEARCH_CALL_BPE } from "./accounting.js"
import { RULE_TEXT } from "./decide.js"
import type { ProfileReport } from "./merge.js"
import { cellsOf } from "./stats.js"
import type { TaskResult } from "./scoring.js"
import { selectionMarkdown } from "./selection.js"

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`
const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ")

/** What a run covered: a subset run says so at the top of its report. */
export interface Scope {
  readonly tasks: number
  readonly allTasks: number
  readonly variants: number
  readonly allVariants: number
  readonly repeats: number
  readonly decideRepeats: number
  /** How many of the deciding pair (essential, full) ran. */
  readonly deciding?: number
  readonly controls?: boolean
}

/** The command of the decisive run: the deciding pair, every task and control, 5 repeats. Its summary is bench/profile-report.md. */
export const DECISIVE_COMMAND = "npm run bench:profiles -- --variants essential,full --repeats 5 --decide-repeats 5"

const runsOf = (report: ProfileReport, task: string, variant: string) => report.results.filter((r) => r.task === task && r.variant === variant)

const cellText = (runs: ReadonlyArray<TaskResult>) => {
  if (runs.length === 0) return "–"
  const ok = runs.filter((r) => r.success).length
  const mark = ok === runs.length ? "✅" : ok === 0 ? "❌" : "⚠️"
  return `${mark} ${ok}/${runs.length}`
}

export const toMarkdown = (report: ProfileReport, command: string, scope?: Scope): string => {
  const lines: Array<string> = []
  const variants = report.variants.filter((v) => report.results.some((r) => r.variant === v))
  lines.push("# Profile benchmark")
  lines.push("")
  // Decisive: every task, both of the deciding pair at 5 repeats or more, the controls. The informative variants may be left out.
  const decisive = scope === undefined || (scope.tasks >= scope.allTasks && (scope.deciding ?? 2) >= 2 && scope.decideRepeats >= 5 && scope.controls !== false)
  if (scope !== undefined && !decisive) {
    lines.push(
      `> **Subset run** — ${scope.tasks} of ${scope.allTasks} tasks, ${scope.variants} of ${scope.allVariants} variants, ${scope.repeats} repeat(s) a cell ` +
        `(${scope.decideRepeats} for essential and full). It shows the report's columns and validates the code; it decides nothing. ` +
        `The decisive run: \`${DECISIVE_COMMAND}\` (every task, every control), then the informative variants with \`npm run bench:profiles -- --repeats 3\`.`
    )
    lines.push("")
  } else if (scope !== undefined && scope.variants < scope.allVariants) {
    lines.push(
      `> **Decisive run** — every task, essential and full ${scope.decideRepeats} times a cell, the controls. The informative variants ` +
        `(${scope.allVariants - scope.variants} of ${scope.allVariants}) are not in this run: \`npm run bench:profiles -- --repeats 3 --out bench/out/profile-informative.json\` measures them.`
    )
    lines.push("")
  }
  lines.push(`Generated ${report.generatedAt} on ${report.runtime}; BPE is ${report.encoding}. Reproduce with \`${command}\`.`)
  lines.push("")
  lines.push("## Verdict")
  lines.push("")
  for (const v of report.verdicts) lines.push(`- ${v.governs ? "**" : ""}${v.text}${v.governs ? "**" : ""}`)
  if (report.verdicts.length === 0) lines.push("- Not enough variants in this run for a verdict (needs essential and full).")
  lines.push(`- ${RULE_TEXT}`)
  const kinds = [...new Set(report.control.map((r) => r.variant))]
  for (const kind of kinds) {
    const mine = report.control.filter((r) => r.variant === kind)
    const passed = mine.filter((r) => r.success)
    lines.push(
      `- Control ${kind} (${CONTROL_TEXT[kind] ?? ""}): ${passed.length}/${mine.length} checks passed${passed.length === 0 ? "" : ` — A CHECK IS TOO WEAK: ${passed.map((r) => r.task).join(", ")}`}.`
    )
  }
  lines.push("")
  lines.push("## Per variant: success and both accountings")
  lines.push("")
  lines.push(
    "Eager: every listed schema once per task + instructions + requests + responses. On demand: the names index + each tool's schema the first time the task uses it + " +
      `one search call (${SEARCH_CALL_BPE} BPE) per tool loaded + instructions + requests + responses. Inline images at pixel cost in both (w×h/750 after the host's resize), never base64. Figures are means per run.`
  )
  lines.push("")
  lines.push("| variant | runs | success | eager BPE/run | on demand BPE/run | of which images | calls/run | retries | wall s/run |")
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
  const per = (x: number, n: number) => (n === 0 ? 0 : Math.round(x / n))
  for (const s of report.summaries) {
    lines.push(
      `| ${s.variant} | ${s.tasks} | ${s.successes}/${s.tasks} (${pct(s.successRate)}) | ${per(s.eagerBpe, s.tasks)} | ${per(s.onDemandBpe, s.tasks)} | ${per(s.imageTokens, s.tasks)} | ${(s.calls / Math.max(1, s.tasks)).toFixed(1)} | ${s.retries} | ${(s.wallMs / 1000 / Math.max(1, s.tasks)).toFixed(1)} |`
    )
  }
  lines.push("")
  lines.push(...capabilityLines(report, variants))
  lines.push("## Every task × variant (passes/runs) and flake rate")
  lines.push("")
  lines.push("✅ every run passed, ❌ none, ⚠️ some (flaky). Flake rate: the share of a cell's runs whose outcome is the minority one, the task's worst cell.")
  lines.push("")
  lines.push(`| task | ${variants.join(" | ")} | flake rate |`)
  lines.push(`|---|${variants.map(() => "---").join("|")}|---:|`)
  const cells = cellsOf(report.results.map((r) => ({ task: r.task, variant: r.variant, success: r.success, cost: 0 })))
  for (const t of report.tasks) {
    const flake = Math.max(0, ...cells.filter((c) => c.task === t.id).map((c) => c.flakeRate))
    lines.push(`| ${t.id}${t.heldOut === true ? " (held out)" : ""} | ${variants.map((v) => cellText(runsOf(report, t.id, v))).join(" | ")} | ${pct(flake)} |`)
  }
  lines.push("")
  const unseen = report.results.filter((r) => (r.unseen ?? []).length > 0)
  lines.push("## Seen before")
  lines.push("")
  lines.push(
    "Every target of every call (refs, window ids, selectors, URLs, menu paths, waited-for texts, selectors in eval code) must come from an earlier answer " +
      "(or, for words, the task's statement); a run that used anything else fails whatever its check says."
  )
  lines.push("")
  if (unseen.length === 0) lines.push("No run used a target it had not seen.")
  for (const r of unseen.slice(0, 20)) lines.push(`- ${r.variant} / ${r.task} #${r.repeat ?? 1}: ${esc((r.unseen ?? []).join(" | "))}`)
  lines.push("")
  if (report.selection !== undefined) lines.push(...selectionLines(report, command))
  if (report.results.some((r) => r.responseByTool !== undefined)) {
    lines.push("## Response BPE by tool (summed over the runs)")
    lines.push("")
    lines.push(toolTable(report))
    lines.push("")
  }
  lines.push("## Failed runs and the tool each missed")
  lines.push("")
  const failed = report.results.filter((r) => !r.success)
  if (failed.length === 0) lines.push("None.")
  for (const r of failed) {
    const why =
      r.missingTool !== undefined
        ? `missing \`${r.missingTool}\`${r.fallbacks.length > 0 ? ` (fallback tried: ${r.fallbacks.join("; ")})` : ""}`
        : r.timedOut
          ? "timed out (no tool missing: the session got stuck)"
          : "no tool missing: the listed tools did not do the job"
    lines.push(`- ${r.variant} / ${r.task} #${r.repeat ?? 1}: ${why} — ${esc(r.detail)}`)
  }
  lines.push("")
  lines.push("## Tasks")
  lines.push("")
  lines.push("| task | app | capability | user goal | covers | statement |")
  lines.push("|---|---|---|---|---|---|")
  for (const t of report.tasks)
    lines.push(
      `| ${t.id}${t.heldOut === true ? " (held out)" : ""} | ${t.app}${t.plugins !== undefined ? ` (+${t.plugins.join(", ")})` : ""} | ${t.capability ?? ""} | ${esc(t.goal ?? "")} | ${esc(t.covers)} | ${esc(t.statement)} |`
    )
  lines.push("")
  return lines.join("\n")
}

const CONTROL_TEXT: Readonly<Record<string, string>> = {
  control: "launches and closes",
  "control:read-only": "looks at the window and answers what it read, never acts",
  "control:claim": "answers the text the statement quotes without doing anything",
  "control:wrong-route": "reaches the goal's end by another route than the one the goal names"
}

/** Success per capability, and the held-out tasks apart from the tuned ones. */
const capabilityLines = (report: ProfileReport, variants: ReadonlyArray<string>): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const capOf = new Map(report.tasks.map((t) => [t.id, t.capability ?? "other"]))
  const heldOut = new Set(report.tasks.filter((t) => t.heldOut === true).map((t) => t.id))
  const rate = (rs: ReadonlyArray<TaskResult>) => (rs.length === 0 ? "–" : `${rs.filter((r) => r.success).length}/${rs.length}`)
  const caps = [...new Set(report.tasks.map((t) => t.capability ?? "other"))].sort()
  lines.push("## Success per capability (runs passed / runs)")
  lines.push("")
  lines.push(`| capability | tasks | ${variants.join(" | ")} |`)
  lines.push(`|---|---:|${variants.map(() => "---:").join("|")}|`)
  for (const c of caps) {
    const ids = report.tasks.filter((t) => (t.capability ?? "other") === c).map((t) => t.id)
    lines.push(`| ${c} | ${ids.length} | ${variants.map((v) => rate(report.results.filter((r) => r.variant === v && capOf.get(r.task) === c))).join(" | ")} |`)
  }
  lines.push("")
  lines.push("## Held-out tasks apart (written from goals and frozen; not used while tuning names, descriptions or membership)")
  lines.push("")
  lines.push(`| set | tasks | ${variants.join(" | ")} |`)
  lines.push(`|---|---:|${variants.map(() => "---:").join("|")}|`)
  for (const [label, inSet] of [
    ["tuned", (id: string) => !heldOut.has(id)],
    ["held out", (id: string) => heldOut.has(id)]
  ] as const) {
    const n = report.tasks.filter((t) => inSet(t.id)).length
    lines.push(`| ${label} | ${n} | ${variants.map((v) => rate(report.results.filter((r) => r.variant === v && inSet(r.task)))).join(" | ")} |`)
  }
  lines.push("")
  return lines
}

const selectionLines = (report: ProfileReport, command: string): ReadonlyArray<string> => {
  const sel = report.selection!
  const lines: Array<string> = []
  lines.push("## Selection proxy (top-1 / top-3 per variant)")
  lines.push("")
  lines.push(
    `Each step of each task has an intent in plain words; ${sel.method} ranks the tools the variant listed at that step. ` +
      "The expected tool is the one the scripted step used (an eval fallback where the variant lacked the tool); " +
      '"not listed" counts steps of the switch variant whose tool came only after a profile switch. ' +
      `Descriptions: ${sel.descriptions}. After a description change, \`${command} -- selection --descriptions-from <ref>\` prints before (the ref) and after (the working tree) over the same steps.`
  )
  lines.push("")
  lines.push(selectionMarkdown(sel))
  lines.push("")
  if (sel.misses.length > 0) {
    lines.push(`Steps whose tool ranked below 3 (one line per intent and tool, ${Math.min(25, sel.misses.length)} of ${sel.misses.length}):`)
    lines.push("")
    lines.push("| intent | expected tool | rank (variant) | ranked first |")
    lines.push("|---|---|---|---|")
    for (const m of sel.misses.slice(0, 25)) lines.push(`| ${esc(m.intent)} | ${m.tool} | ${m.rank} (${m.variant}) | ${m.top} |`)
    lines.push("")
  }
  return lines
}

/** Two bar groups per variant: success rate (left axis) and total BPE (right axis). */
/** Response BPE by tool and variant, summed over the tasks: what each tool's answers cost the agent. */
export const toolTable = (report: ProfileReport): string => {
  const variants = [...new Set(report.results.map((r) => r.variant))]
  const byTool = new Map<string, Map<string, { calls: number; bpe: number }>>()
  for (const r of report.results) {
    for (const [tool, figures] of Object.entries(r.responseByTool ?? {})) {
      const row = byTool.get(tool) ?? new Map<string, { calls: number; bpe: number }>()
      const cell = row.get(r.variant) ?? { calls: 0, bpe: 0 }
      row.set(r.variant, { calls: cell.calls + figures.calls, bpe: cell.bpe + figures.bpe })
      byTool.set(tool, row)
    }
  }
  const lines = [`| tool | ${variants.join(" | ")} |`, `|---|${variants.map(() => "---").join("|")}|`]
  for (const tool of [...byTool.keys()].sort()) {
    const row = byTool.get(tool)!
    lines.push(`| ${tool} | ${variants.map((v) => (row.get(v) ? `${row.get(v)!.bpe} (${row.get(v)!.calls} calls)` : "")).join(" | ")} |`)
  }
  return lines.join("\n")
}

export const toSvg = (report: ProfileReport): string => {
  const s = report.summaries
  const width = 120 + s.length * 90
  const height = 340
  const top = 40
  const base = 260
  const maxBpe = Math.max(1, ...s.map((x) => x.totalBpe))
  const parts: Array<string> = []
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`
  )
  parts.push(`<rect width="100%" height="100%" fill="white"/>`)
  parts.push(`<text x="10" y="20" font-size="14">Stagewright profiles: success (green, %) and total ${report.encoding} BPE (blue) per variant</text>`)
  parts.push(`<line x1="60" y1="${base}" x2="${width - 20}" y2="${base}" stroke="#333"/>`)
  s.forEach((x, i) => {
    const x0 = 70 + i * 90
    const hs = (base - top) * x.successRate
    const hb = ((base - top) * x.totalBpe) / maxBpe
    parts.push(`<rect x="${x0}" y="${base - hs}" width="30" height="${hs}" fill="#3a3"><title>${x.variant}: ${x.successes}/${x.tasks}</title></rect>`)
    parts.push(`<text x="${x0 + 15}" y="${base - hs - 4}" text-anchor="middle">${Math.round(x.successRate * 100)}%</text>`)
    parts.push(`<rect x="${x0 + 34}" y="${base - hb}" width="30" height="${hb}" fill="#36c"><title>${x.variant}: ${x.totalBpe} BPE</title></rect>`)
    parts.push(`<text x="${x0 + 49}" y="${base - hb - 4}" text-anchor="middle">${Math.round(x.totalBpe / 1000)}k</text>`)
    parts.push(`<text x="${x0 + 32}" y="${base + 16}" text-anchor="middle">${x.variant}</text>`)
    parts.push(`<text x="${x0 + 32}" y="${base + 30}" text-anchor="middle" fill="#555">${x.successes}/${x.tasks}</text>`)
  })
  parts.push(
    `<text x="10" y="${height - 10}" fill="#555">BPE bars scaled to the largest (${maxBpe}); control agent: ${report.controlSuccesses}/${report.control.length} checks passed.</text>`
  )
  parts.push(`</svg>`)
  return parts.join("\n") + "\n"
}
