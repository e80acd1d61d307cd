/**
 * The manifest benchmark's outputs, pure: the printed table and the JSON report (deterministic: no
 * dates, so it changes only when the figures do).
 */
import { MAX_GROWTH, type VariantChange } from "./gate.js"
import type { Measurement } from "./measure.js"
import type { Variant } from "./variants.js"

export const REPORT_NOTE =
  "Each figure is the tools/list payload a host receives ({ tools } as parsed by an MCP client, serialized with JSON.stringify). " +
  "Plugin variants select no core tools, so they give what the plugin adds on top of any profile."

export const reportOf = (variants: ReadonlyArray<Variant>, measurements: ReadonlyArray<Measurement>, stagewrightVersion: string) => ({
  stagewright: stagewrightVersion,
  encoding: "o200k_base",
  maxGrowth: MAX_GROWTH,
  note: REPORT_NOTE,
  variants: measurements.map((m) => {
    const variant = variants.find((v) => v.name === m.variant)
    return {
      variant: m.variant,
      config: variant?.config ?? null,
      tools: m.tools,
      codePoints: m.codePoints,
      bytes: m.bytes,
      bpe: m.bpe,
      bpePerTool: m.bpePerTool,
      listedSorted: m.listedSorted,
      largest: m.largest,
      names: m.names
    }
  })
})

const pad = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
    .join("  ")
    .trimEnd()

const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const rule = widths.map((w) => "-".repeat(w)).join("  ")
  return [pad(header, widths), rule, ...rows.map((r) => pad(r, widths))].join("\n")
}

const change = (before: number | null, after: number | null) => {
  if (before === null) return "new"
  if (after === null) return "gone"
  if (before === 0) return after === 0 ? "+0.0%" : "+inf%"
  const pct = (after / before - 1) * 100
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(1)}%`
}

/**
 * The table `npm run manifest` prints: variant, tools, code points, bytes, BPE, BPE/tool; with the
 * comparison rows (check mode) also the baseline BPE and the change.
 */
export const formatTable = (measurements: ReadonlyArray<Measurement>, rows?: ReadonlyArray<VariantChange>): string => {
  const header = ["variant", "tools", "code points", "bytes", "BPE", "BPE/tool", ...(rows ? ["baseline BPE", "change"] : [])]
  const body = measurements.map((m) => {
    const row = rows?.find((r) => r.variant === m.variant)
    return [
      m.variant,
      String(m.tools),
      String(m.codePoints),
      String(m.bytes),
      String(m.bpe),
      m.bpePerTool.toFixed(1),
      ...(rows ? [row?.before === null || row === undefined ? "-" : String(row.before), change(row?.before ?? null, m.bpe)] : [])
    ]
  })
  const gone = (rows ?? []).filter((r) => r.after === null).map((r) => [r.variant, "-", "-", "-", "-", "-", String(r.before), "gone"])
  return table(header, [...body, ...gone])
}
