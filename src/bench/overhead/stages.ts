/**
 * The per-stage table of the overhead report: what each pipeline stage adds to a tool call. The counting
 * pass (./main.ts) gives, per call, the playwright-core API calls made and the CDP commands each sent; the
 * calls beyond the direct ones belong to the stage that makes them (STAGE_OF), timed alone by the probes
 * (./runners.ts). What the stages cost without a playwright-core call (confinement, the dialog race,
 * declared-error checks, observers, new errors, the handle, the answer's shaping) shows as the rest: the
 * call's median minus the direct call, the MCP hop (the bare SDK handler's cost over direct) and the
 * stages' calls.
 */
import { round2 } from "./runners.js"

/** The stage that makes each playwright-core call a tool adds (by API name). */
export const STAGE_OF: Readonly<Record<string, string>> = {
  "electronApplication.evaluate": "held native dialogs read",
  "locator.evaluate": "editor detection",
  "locator.count": "editor detection (plain field)",
  "page.evaluate": "change summary: page check",
  "page.ariaSnapshot": "change summary: snapshot",
  "frame.evaluate": "change summary: password masking",
  "locator.normalize": "step code",
  "page.title": "window header"
}

export interface ApiSends {
  readonly api: string
  readonly sends: number
}

export interface StageRow {
  readonly stage: string
  readonly apiCalls: number
  readonly cdpCommands: number
  /** The stage's calls timed alone (the probes' medians); undefined when no probe times it. */
  readonly estimatedMs: number | undefined
}

/** The API calls of `ours` beyond `direct` (multiset difference, by name), with their CDP commands. */
const extraCalls = (ours: ReadonlyArray<ApiSends>, direct: ReadonlyArray<ApiSends>): Array<ApiSends> => {
  const left = direct.map((d) => d.api)
  return ours.filter((call) => {
    const index = left.indexOf(call.api)
    if (index >= 0) {
      left.splice(index, 1)
      return false
    }
    return true
  })
}

/**
 * The stages of one call: the tool's own call (the direct ones, their CDP commands as Stagewright sent
 * them), each added stage, and the rest.
 */
export const stageRows = (
  ours: ReadonlyArray<ApiSends>,
  direct: ReadonlyArray<ApiSends>,
  probeMs: Readonly<Record<string, number>>,
  times: { readonly oursMs: number; readonly directMs: number; readonly floorMs: number }
): Array<StageRow> => {
  const extra = extraCalls(ours, direct)
  const own = ours.filter((call) => !extra.includes(call))
  const rows: Array<StageRow> = [
    {
      stage: "the tool's own playwright-core call",
      apiCalls: own.length,
      cdpCommands: own.reduce((n, c) => n + c.sends, 0),
      estimatedMs: round2(times.directMs)
    }
  ]
  const byStage = new Map<string, { apiCalls: number; cdpCommands: number }>()
  for (const call of extra) {
    const stage = STAGE_OF[call.api] ?? call.api
    const row = byStage.get(stage) ?? { apiCalls: 0, cdpCommands: 0 }
    row.apiCalls++
    row.cdpCommands += call.sends
    byStage.set(stage, row)
  }
  let staged = 0
  for (const [stage, row] of byStage) {
    const each = probeMs[stage]
    const ms = each === undefined ? undefined : round2(each * row.apiCalls)
    if (ms !== undefined) staged += ms
    rows.push({ stage, ...row, estimatedMs: ms })
  }
  const hop = Math.max(0, times.floorMs - times.directMs)
  rows.push({ stage: "MCP hop (bare SDK handler over direct)", apiCalls: 0, cdpCommands: 0, estimatedMs: round2(hop) })
  rows.push({
    stage: "the pipeline's own work (the rest: confinement, dialog race, checks, observers, new errors, handle, answer)",
    apiCalls: 0,
    cdpCommands: 0,
    estimatedMs: round2(times.oursMs - times.directMs - hop - staged)
  })
  return rows
}

export const stagesMarkdown = (
  tables: ReadonlyArray<{ readonly name: string; readonly snapshot: boolean; readonly oursMs: number; readonly rows: ReadonlyArray<StageRow> }>
): Array<string> => {
  const lines = [
    "## Per-stage cost",
    "",
    "Per call (in-memory; after a snapshot and without one): each stage's playwright-core calls and CDP commands (counting pass), and its time estimated from the probes below (each call timed alone); the MCP hop is the bare SDK handler's median over direct; the rest is what the pipeline's stages cost without a playwright-core call (it absorbs the probes' error: negative when the estimates overshoot).",
    "",
    "| call | stage | API calls | CDP commands | ≈ ms |",
    "|---|---|---:|---:|---:|"
  ]
  for (const table of tables) {
    table.rows.forEach((row, i) => {
      const name = i === 0 ? `${table.name}${table.snapshot ? "" : " (no snapshot)"} (${round2(table.oursMs)} ms)` : ""
      lines.push(`| ${name} | ${row.stage} | ${row.apiCalls} | ${row.cdpCommands} | ${row.estimatedMs ?? "–"} |`)
    })
  }
  lines.push("")
  return lines
}
