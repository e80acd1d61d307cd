/** The fuzz oracle and tally: every result is well formed with a known code and no defect. */

import { ErrorCodes } from "../../index.js"
import { type CallKind, MALFORMED_KINDS, KIND_LABEL, type FuzzCall, KNOWN_CODES, preview } from "./shapes.js"

// ---------------------------------------------------------------------------------------------
// Oracle and tally

export interface Checked {
  /** "OK", an error code, or REJECTED (the call threw or its promise rejected). */
  readonly code: string
  readonly problems: ReadonlyArray<string>
  readonly textChars: number
}

/** Checks one tools/call result against the contract. */
export const checkResult = (result: unknown): Checked => {
  const problems: Array<string> = []
  if (result === null || typeof result !== "object") return { code: "MALFORMED_RESULT", problems: [`the result is ${preview(result)}`], textChars: 0 }
  const r = result as { content?: unknown; isError?: unknown; structuredContent?: { error?: { code?: unknown } } }
  const content = Array.isArray(r.content) ? (r.content as Array<{ type?: unknown; text?: unknown }>) : undefined
  if (content === undefined || content.length === 0) problems.push("the result has no content")
  const first = content?.[0]
  const text = first?.type === "text" && typeof first.text === "string" ? first.text : undefined
  if (text === undefined) problems.push("the first content item is not text")
  const textChars = (content ?? []).reduce((n, c) => n + (typeof c.text === "string" ? c.text.length : 0), 0)
  if (r.isError === true) {
    const code = r.structuredContent?.error?.code
    if (typeof code !== "string")
      return {
        code: "NO_CODE",
        problems: [...problems, `isError without structuredContent.error.code: ${preview(text?.split("\n")[0] ?? "", 200)}`],
        textChars
      }
    if (!KNOWN_CODES.has(code)) problems.push(`unknown code ${code}`)
    if (text !== undefined && !text.startsWith(`${code}: `)) problems.push(`text does not start with "${code}: ": ${preview(text.slice(0, 80))}`)
    if (code === ErrorCodes.InternalError) problems.push(`INTERNAL_ERROR (a defect): ${text?.split("\n")[0]?.slice(0, 240)}`)
    return { code, problems, textChars }
  }
  if (r.isError !== undefined && r.isError !== false) problems.push(`isError is ${preview(r.isError)}`)
  if (r.structuredContent?.error !== undefined) problems.push("a success result carries structuredContent.error")
  return { code: "OK", problems, textChars }
}

export interface Violation {
  readonly index: number
  readonly kind: CallKind
  readonly tool: string
  readonly args: string
  readonly code: string
  readonly problem: string
}

export interface TallySummary {
  readonly calls: number
  readonly byCode: Record<string, number>
  readonly byKind: Record<string, Record<string, number>>
  readonly byTool: Record<string, Record<string, number>>
  readonly violations: number
  readonly distinctViolations: ReadonlyArray<Violation & { readonly count: number }>
  readonly largestTextChars: { readonly chars: number; readonly tool: string; readonly kind: CallKind; readonly code: string }
  readonly slowest: { readonly ms: number; readonly tool: string; readonly kind: CallKind; readonly code: string; readonly args: string }
}

/** Counts of outcomes by code, kind and tool, and the contract violations. */
export class FuzzTally {
  calls = 0
  readonly byCode = new Map<string, number>()
  readonly byKind = new Map<CallKind, Map<string, number>>()
  readonly byTool = new Map<string, Map<string, number>>()
  readonly violations: Array<Violation> = []
  largest = { chars: 0, tool: "", kind: "valid" as CallKind, code: "" }
  slowest = { ms: 0, tool: "", kind: "valid" as CallKind, code: "", args: "" }

  record(call: FuzzCall, checked: Checked, ms: number): void {
    const index = this.calls++
    const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)
    bump(this.byCode, checked.code)
    if (!this.byKind.has(call.kind)) this.byKind.set(call.kind, new Map())
    bump(this.byKind.get(call.kind)!, checked.code)
    const toolKey = call.kind === "bad-name" ? "(bad name)" : call.tool
    if (!this.byTool.has(toolKey)) this.byTool.set(toolKey, new Map())
    bump(this.byTool.get(toolKey)!, checked.code)
    if (checked.textChars > this.largest.chars) this.largest = { chars: checked.textChars, tool: call.tool.slice(0, 60), kind: call.kind, code: checked.code }
    if (ms > this.slowest.ms)
      this.slowest = { ms: Math.round(ms), tool: call.tool.slice(0, 60), kind: call.kind, code: checked.code, args: preview(call.args, 160) }
    for (const problem of checked.problems) {
      this.violations.push({ index, kind: call.kind, tool: call.tool.slice(0, 80), args: preview(call.args), code: checked.code, problem })
    }
  }

  /** One entry per (tool, code, problem shape), with how often it happened. */
  distinct(): ReadonlyArray<Violation & { readonly count: number }> {
    const groups = new Map<string, Violation & { count: number }>()
    for (const v of this.violations) {
      const key = `${v.tool}|${v.code}|${v.problem.replace(/\d+/g, "#").slice(0, 120)}`
      const seen = groups.get(key)
      if (seen) seen.count++
      else groups.set(key, { ...v, count: 1 })
    }
    return [...groups.values()].sort((a, b) => b.count - a.count)
  }

  summary(): TallySummary {
    const obj = (map: Map<string, number>) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]))
    return {
      calls: this.calls,
      byCode: obj(this.byCode),
      byKind: Object.fromEntries([...this.byKind].map(([k, m]) => [k, obj(m)])),
      byTool: Object.fromEntries([...this.byTool].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, m]) => [k, obj(m)])),
      violations: this.violations.length,
      distinctViolations: this.distinct(),
      largestTextChars: this.largest,
      slowest: this.slowest
    }
  }

  /** A compact table: one row per result code, one column per kind of call. */
  table(title: string): string {
    const kinds = [...this.byKind.keys()].sort((a, b) =>
      a === "valid" ? -1 : b === "valid" ? 1 : MALFORMED_KINDS.indexOf(a as never) - MALFORMED_KINDS.indexOf(b as never)
    )
    const codes = [...this.byCode].sort((a, b) => b[1] - a[1]).map(([code]) => code)
    const width = Math.max(18, ...codes.map((c) => c.length + 1))
    const cell = (value: string | number, w = 8) => String(value).padStart(w)
    const lines = [
      `${title}: ${this.calls} calls, ${this.violations.length} contract violations`,
      `${"code".padEnd(width)}${kinds.map((k) => cell(KIND_LABEL[k])).join("")}${cell("total")}`
    ]
    for (const code of codes) {
      lines.push(`${code.padEnd(width)}${kinds.map((k) => cell(this.byKind.get(k)?.get(code) ?? "·")).join("")}${cell(this.byCode.get(code) ?? 0)}`)
    }
    lines.push(
      `${"total".padEnd(width)}${kinds.map((k) => cell([...(this.byKind.get(k)?.values() ?? [])].reduce((a, b) => a + b, 0))).join("")}${cell(this.calls)}`
    )
    lines.push(
      `largest result text: ${this.largest.chars} chars (${this.largest.tool}, ${this.largest.kind}, ${this.largest.code}); slowest call: ${this.slowest.ms} ms (${this.slowest.tool}, ${this.slowest.kind}, ${this.slowest.code})`
    )
    return lines.join("\n")
  }

  /** The distinct violations, readable, for a failing assertion. */
  report(seed: number, max = 15): string {
    const distinct = this.distinct()
    if (distinct.length === 0) return "no violations"
    return [
      `${this.violations.length} violations in ${distinct.length} groups (seed ${seed}; rerun with FUZZ_SEED=${seed}):`,
      ...distinct.slice(0, max).map((v) => `  [${v.count}x] ${v.tool} (${v.kind}) #${v.index}: ${v.problem}\n       args: ${v.args}`)
    ].join("\n")
  }
}

/** Calls `invoke` for each call (in order, or by `concurrency` workers), checking each result; a rejection or throw is recorded as REJECTED. */
export const runCalls = async (
  calls: ReadonlyArray<FuzzCall>,
  invoke: (call: FuzzCall) => Promise<unknown>,
  tally: FuzzTally,
  options: { readonly concurrency?: number; readonly onProgress?: (done: number) => void } = {}
): Promise<FuzzTally> => {
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < calls.length) {
      const call = calls[next++]!
      const started = performance.now()
      let checked: Checked
      try {
        checked = checkResult(await invoke(call))
      } catch (error) {
        checked = {
          code: "REJECTED",
          problems: [`the call rejected: ${error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]?.slice(0, 200)}` : preview(error)}`],
          textChars: 0
        }
      }
      tally.record(call, checked, performance.now() - started)
      if (options.onProgress && ++done % 500 === 0) options.onProgress(done)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker))
  return tally
}

/** The seed of a run: FUZZ_SEED when set, else a fixed default (so runs reproduce unless asked otherwise). */
export const fuzzSeed = (fallback: number): number => {
  const raw = process.env.FUZZ_SEED
  const parsed = raw === undefined ? Number.NaN : Number(raw)
  return Number.isInteger(parsed) ? parsed : fallback
}
