/** Renders a profile report as Markdown and as an SVG chart (success and total BPE per variant). */
import type { ProfileReport } from "./merge.js"
import type { TaskResult } from "./scoring.js"
import { selectionMarkdown } from "./selection.js"

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`
const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ")

const cell = (r: TaskResult | undefined) =>
  r === undefined ? "–" : `${r.success ? "✅" : "❌"} ${r.calls}c ${r.retries}r ${r.totalBpe}`

export const toMarkdown = (report: ProfileReport, command: string): string => {
  const lines: Array<string> = []
  lines.push("# Profile benchmark")
  lines.push("")
  lines.push(`Generated ${report.generatedAt} on ${report.runtime}; BPE is ${report.encoding}. Reproduce with \`${command}\`.`)
  lines.push("")
  lines.push("## Verdict")
  lines.push("")
  for (const v of report.verdicts) lines.push(`- ${v.text}`)
  if (report.verdicts.length === 0) lines.push("- Not enough variants in this run for a verdict (needs essential and full).")
  lines.push(
    "- The rule: essential becomes the default only with at least 95% of full's successes and a material saving; this benchmark calls a saving material from 20% fewer total BPE (the design fixes no number). The verdict lines on essential+proposed and essential+candidates measure memberships item 4 of issue 28 proposes; they change nothing in force."
  )
  lines.push(`- Control agent (launch + close only): ${report.controlSuccesses}/${report.control.length} checks passed${report.controlSuccesses === 0 ? " (every check can fail)" : " — A CHECK IS TOO WEAK"}.`)
  lines.push("")
  lines.push("## Per variant")
  lines.push("")
  lines.push("| variant | success | calls | retries | manifest BPE | response BPE | request BPE | total BPE | BPE per solved task | wall s |")
  lines.push("|---|---|---|---|---|---|---|---|---|---|")
  for (const s of report.summaries) {
    lines.push(
      `| ${s.variant} | ${s.successes}/${s.tasks} (${pct(s.successRate)}) | ${s.calls} | ${s.retries} | ${s.manifestBpe} | ${s.responseBpe} | ${s.requestBpe} | ${s.totalBpe} | ${s.bpePerSuccess} | ${Math.round(s.wallMs / 1000)} |`
    )
  }
  lines.push("")
  if (report.selection !== undefined) {
    const sel = report.selection
    lines.push("## Selection proxy (top-1 / top-3 per variant)")
    lines.push("")
    lines.push(
      `Each step of each task has an intent in plain words; ${sel.method} ranks the tools the variant listed at that step. ` +
        "The expected tool is the one the scripted step used (an eval fallback where the variant lacked the tool); " +
        "\"not listed\" counts steps of the switch variant whose tool came only after a profile switch. " +
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
  }
  lines.push("## Every task × variant")
  lines.push("")
  lines.push("Cell: outcome, calls (c), retries (r), total BPE (manifest once + responses + requests).")
  lines.push("")
  lines.push(`| task | ${report.variants.join(" | ")} |`)
  lines.push(`|---|${report.variants.map(() => "---").join("|")}|`)
  for (const t of report.tasks) {
    const row = report.variants.map((v) => cell(report.results.find((r) => r.task === t.id && r.variant === v)))
    lines.push(`| ${t.id} | ${row.join(" | ")} |`)
  }
  lines.push("")
  if (report.results.some((r) => r.responseByTool !== undefined)) {
    lines.push("## Response BPE by tool (summed over the tasks)")
    lines.push("")
    lines.push(toolTable(report))
    lines.push("")
  }
  lines.push("## Detailed results")
  lines.push("")
  lines.push("| task | variant | ok | calls | failed calls | retries | manifest | response | request | total | wall ms | missing tool | fallbacks | detail |")
  lines.push("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
  for (const r of [...report.results, ...report.control]) {
    lines.push(
      `| ${r.task} | ${r.variant} | ${r.success ? "yes" : "no"} | ${r.calls} | ${r.failedCalls} | ${r.retries} | ${r.manifestBpe} | ${r.responseBpe} | ${r.requestBpe} | ${r.totalBpe} | ${r.wallMs} | ${r.missingTool ?? ""} | ${esc(r.fallbacks.join("; "))} | ${esc(r.detail)} |`
    )
  }
  lines.push("")
  lines.push("## Failed tasks and the tool each missed")
  lines.push("")
  const failed = report.results.filter((r) => !r.success)
  if (failed.length === 0) lines.push("None.")
  for (const r of failed) {
    const why = r.missingTool !== undefined ? `missing \`${r.missingTool}\`${r.fallbacks.length > 0 ? ` (fallback tried: ${r.fallbacks.join("; ")})` : ""}` : r.timedOut ? "timed out (no tool missing: the session got stuck)" : "no tool missing: the listed tools did not do the job"
    lines.push(`- ${r.variant} / ${r.task}: ${why} — ${esc(r.detail)}`)
  }
  lines.push("")
  lines.push("## Tasks")
  lines.push("")
  lines.push("| task | app | user goal | covers | statement |")
  lines.push("|---|---|---|---|---|")
  for (const t of report.tasks) lines.push(`| ${t.id} | ${t.app}${t.plugins !== undefined ? ` (+${t.plugins.join(", ")})` : ""} | ${esc(t.goal ?? "")} | ${esc(t.covers)} | ${esc(t.statement)} |`)
  lines.push("")
  return lines.join("\n")
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
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`)
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
  parts.push(`<text x="10" y="${height - 10}" fill="#555">BPE bars scaled to the largest (${maxBpe}); control agent: ${report.controlSuccesses}/${report.control.length} checks passed.</text>`)
  parts.push(`</svg>`)
  return parts.join("\n") + "\n"
}
