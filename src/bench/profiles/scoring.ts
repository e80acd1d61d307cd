/**
 * Scoring of the profile benchmark: o200k BPE counting, retry detection, per-variant summaries and the
 * point verdict of the design's rule on one set of runs (essential needs >= 95% of full's success and a
 * material token saving; decide.ts applies the rule to a bound over repeats). Pure apart from the tokenizer.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"

export const ENCODING = "o200k_base" as const

/** Special-token markers are ordinary text to a host: never reject them. */
const TOKENIZE_OPTIONS = { disallowedSpecial: new Set<string>() }

export const bpe = (text: string): number => (text.length === 0 ? 0 : countTokens(text, TOKENIZE_OPTIONS))

/** One MCP content item as the benchmark counts it: images by their data size, never their base64 text. */
export interface ContentItem {
  readonly type: string
  readonly text?: string
  readonly data?: string
  readonly mimeType?: string
}

/** The text a host receives for a result's content: text items verbatim, images as a short marker. */
export const contentText = (content: ReadonlyArray<ContentItem>): string =>
  content
    .map((item) => (item.type === "text" ? (item.text ?? "") : `[${item.type} ${item.mimeType ?? ""} ${Math.floor(((item.data ?? "").length * 3) / 4)} bytes]`))
    .join("\n")

export const responseBpe = (content: ReadonlyArray<ContentItem>): number => bpe(contentText(content))

/** What the agent sent: the tools/call params (name and arguments) as JSON. */
export const requestBpe = (name: string, args: Record<string, unknown>): number => bpe(JSON.stringify({ name, arguments: args }))

/** The listed tools as a host receives them, counted once per task. */
export const manifestBpe = (tools: ReadonlyArray<unknown>): number => bpe(JSON.stringify({ tools }))

export interface CallRecord {
  readonly tool: string
  readonly args: Record<string, unknown>
  readonly isError: boolean
  readonly requestBpe: number
  readonly responseBpe: number
  /** Inline images at a host's pixel cost (accounting.ts). */
  readonly imageTokens: number
  /** The answer's text as the agent read it (the "seen before" check reads it). */
  readonly answer: string
  readonly ms: number
  /** The agent said so itself: it repeats a step it already took. */
  readonly flaggedRetry: boolean
}

/** JSON with sorted keys, so that two equal argument objects compare equal. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )

/**
 * A call is a retry when the agent flagged it, or when it repeats (same tool, same arguments) an
 * earlier call of the task that failed. Returns the indexes of the retries.
 */
export const detectRetries = (calls: ReadonlyArray<Pick<CallRecord, "tool" | "args" | "isError" | "flaggedRetry">>): ReadonlyArray<number> => {
  const failed = new Set<string>()
  const retries: Array<number> = []
  calls.forEach((call, index) => {
    const key = `${call.tool} ${canonical(call.args)}`
    if (call.flaggedRetry || failed.has(key)) retries.push(index)
    if (call.isError) failed.add(key)
  })
  return retries
}

export interface TaskResult {
  readonly task: string
  readonly variant: string
  /** 1-based repeat of this (task, variant) cell (absent in reports from before repeats: 1). */
  readonly repeat?: number
  readonly success: boolean
  /** The check's own verdict, before the "seen before" rule (success = checkOk and no unseen target). */
  readonly checkOk?: boolean
  /** Calls whose target no earlier answer showed (observed.ts); any fails the task. */
  readonly unseen?: ReadonlyArray<string>
  /** Inline images at a host's pixel cost, and the two accountings (accounting.ts). */
  readonly imageTokens?: number
  readonly eagerBpe?: number
  readonly onDemandBpe?: number
  /** Why it failed: the check's reason, the agent's give-up, a timeout. */
  readonly detail: string
  /** The tool the agent missed when it gave up (undefined when it did not give up for a missing tool). */
  readonly missingTool?: string
  /** Tools the agent used in place of a missing one (eval fallbacks). */
  readonly fallbacks: ReadonlyArray<string>
  readonly answer?: string
  readonly calls: number
  readonly failedCalls: number
  readonly retries: number
  readonly manifestBpe: number
  readonly toolsListed: number
  readonly responseBpe: number
  readonly requestBpe: number
  /** manifest + responses + requests. */
  readonly totalBpe: number
  readonly wallMs: number
  readonly timedOut: boolean
  readonly toolsUsed: ReadonlyArray<string>
  /** Response BPE by tool: calls and the BPE of their results (what each tool costs the agent). */
  readonly responseByTool?: Readonly<Record<string, { readonly calls: number; readonly bpe: number }>>
  /** The task's steps as the agent ran them: plain-words intent and the tool used (the selection proxy's items). */
  readonly steps?: ReadonlyArray<{ readonly intent: string; readonly tool: string; readonly profile?: string }>
}

/** Sums the calls and response BPE of each tool. */
export const responseByTool = (calls: ReadonlyArray<Pick<CallRecord, "tool" | "responseBpe">>): Record<string, { calls: number; bpe: number }> => {
  const out: Record<string, { calls: number; bpe: number }> = {}
  for (const call of calls) {
    const entry = (out[call.tool] ??= { calls: 0, bpe: 0 })
    entry.calls++
    entry.bpe += call.responseBpe
  }
  return out
}

export const totalOf = (r: Pick<TaskResult, "manifestBpe" | "responseBpe" | "requestBpe">): number => r.manifestBpe + r.responseBpe + r.requestBpe

export interface VariantSummary {
  readonly variant: string
  readonly tasks: number
  readonly successes: number
  readonly successRate: number
  readonly calls: number
  readonly retries: number
  readonly manifestBpe: number
  readonly responseBpe: number
  readonly requestBpe: number
  readonly totalBpe: number
  /** The two accountings (accounting.ts) and the images' pixel cost, summed over the runs. */
  readonly eagerBpe: number
  readonly onDemandBpe: number
  readonly imageTokens: number
  readonly wallMs: number
  /** Total BPE over the tasks the variant solved, per solved task (0 when none). */
  readonly bpePerSuccess: number
}

const sum = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0)

export const summarize = (variant: string, results: ReadonlyArray<TaskResult>): VariantSummary => {
  const mine = results.filter((r) => r.variant === variant)
  const successes = mine.filter((r) => r.success)
  return {
    variant,
    tasks: mine.length,
    successes: successes.length,
    successRate: mine.length === 0 ? 0 : successes.length / mine.length,
    calls: sum(mine.map((r) => r.calls)),
    retries: sum(mine.map((r) => r.retries)),
    manifestBpe: sum(mine.map((r) => r.manifestBpe)),
    responseBpe: sum(mine.map((r) => r.responseBpe)),
    requestBpe: sum(mine.map((r) => r.requestBpe)),
    totalBpe: sum(mine.map((r) => r.totalBpe)),
    eagerBpe: sum(mine.map((r) => r.eagerBpe ?? r.totalBpe)),
    onDemandBpe: sum(mine.map((r) => r.onDemandBpe ?? r.totalBpe)),
    imageTokens: sum(mine.map((r) => r.imageTokens ?? 0)),
    wallMs: sum(mine.map((r) => r.wallMs)),
    bpePerSuccess: successes.length === 0 ? 0 : Math.round(sum(successes.map((r) => r.totalBpe)) / successes.length)
  }
}

/** The design's rule: essential needs >= 95% of full's success and a material saving (>= 20% fewer total BPE). */
export const SUCCESS_RATIO = 0.95
export const MATERIAL_SAVING = 0.2

export interface Verdict {
  readonly pair: string
  readonly essentialSuccess: number
  readonly fullSuccess: number
  readonly successRatio: number
  readonly essentialTotalBpe: number
  readonly fullTotalBpe: number
  readonly saving: number
  readonly meetsSuccess: boolean
  readonly meetsSaving: boolean
  readonly essentialBecomesDefault: boolean
  readonly text: string
}

/** The rule on a pair; `subject` names the candidate side (a proposed membership is measured, never in force). */
export const verdictOf = (
  pair: string,
  essential: VariantSummary | undefined,
  full: VariantSummary | undefined,
  subject = "essential"
): Verdict | undefined => {
  if (essential === undefined || full === undefined || essential.tasks === 0 || full.tasks === 0) return undefined
  const successRatio = full.successes === 0 ? (essential.successes > 0 ? Infinity : 0) : essential.successes / full.successes
  const saving = full.totalBpe === 0 ? 0 : 1 - essential.totalBpe / full.totalBpe
  const meetsSuccess = full.successes > 0 && successRatio >= SUCCESS_RATIO
  const meetsSaving = saving >= MATERIAL_SAVING
  const yes = meetsSuccess && meetsSaving
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`
  const text =
    `${pair}: ${subject} solved ${essential.successes}/${essential.tasks}, full ${full.successes}/${full.tasks} ` +
    `(${Number.isFinite(successRatio) ? pct(successRatio) : "n/a"} of full's success, needs ${pct(SUCCESS_RATIO)}); ` +
    `total BPE ${essential.totalBpe} vs ${full.totalBpe} (saving ${pct(saving)}, material from ${pct(MATERIAL_SAVING)}). ` +
    (subject === "essential"
      ? yes
        ? "The evidence exists: essential could become the default."
        : "No: full stays the default."
      : yes
        ? "Would meet the rule as essential."
        : "Would not meet the rule as essential: full would stay the default.")
  return {
    pair,
    essentialSuccess: essential.successes,
    fullSuccess: full.successes,
    successRatio: Number.isFinite(successRatio) ? successRatio : 0,
    essentialTotalBpe: essential.totalBpe,
    fullTotalBpe: full.totalBpe,
    saving,
    meetsSuccess,
    meetsSaving,
    essentialBecomesDefault: yes,
    text
  }
}
