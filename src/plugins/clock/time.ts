/**
 * The clock tool's inputs read as numbers: a point in time (ISO 8601 or epoch ms) and a duration
 * ("1d", "2h30m", "90s", "250ms", or plain ms). Pure, so the unit tests can drive them.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g

/** Milliseconds of a duration, or undefined when it is not one. */
export const parseDuration = (text: string): number | undefined => {
  const t = text.trim().toLowerCase()
  if (/^\d+$/.test(t)) return Number(t)
  if (!DURATION.test(t)) return undefined
  let ms = 0
  for (const [, amount, unit] of t.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit!]!
  return Math.round(ms)
}

/** The latest time accepted (the earliest is 1970). */
const MAX_TIME = Date.UTC(9999, 11, 31)
/** ISO 8601 as Date.parse reads it: a date, a time, a zone (without one, this machine's local time). */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i

/** Epoch ms of a time (ISO 8601 or epoch ms), or undefined when it is not one. */
export const parseTime = (text: string): number | undefined => {
  const t = text.trim()
  const ms = /^\d+$/.test(t) ? Number(t) : ISO.test(t) ? Date.parse(t) : NaN
  return Number.isFinite(ms) && ms >= 0 && ms <= MAX_TIME ? ms : undefined
}

/** A duration in its largest units: 90000000 -> "1d1h". */
export const formatDuration = (ms: number): string => {
  if (ms === 0) return "0ms"
  let left = ms
  const parts: Array<string> = []
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1_000],
    ["ms", 1]
  ] as const) {
    const n = Math.floor(left / size)
    if (n > 0) parts.push(`${n}${unit}`)
    left -= n * size
  }
  return parts.join("")
}
