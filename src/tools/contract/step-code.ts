/**
 * The Playwright code of a target for recorded steps and action results, without asking the page when
 * the code is already known: a selector is its own code (our shorthands as the getBy* call they stand
 * for), and a ref whose role and name are unique in the window's latest snapshot is `getByRole`. Only
 * the other refs (unnamed, repeated, in a frame) pay for `locator.normalize()`, once per snapshot.
 */
import type { Locator } from "playwright-core"
import { Effect } from "effect"
import { Snapshots, expandSelector, REF_PATTERN, shorthandOf, type Surface } from "../../layers/driver/ElectronDriver.js"

/**
 * A string as a JavaScript/TypeScript literal for generated code: JSON.stringify, plus escapes for the
 * two line terminators JSON leaves raw (U+2028, U+2029), so the literal is inert in any position.
 */
export const codeString = (value: string): string =>
  JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")

/** Characters that must never reach generated code outside a string literal: controls, line terminators, bidi overrides. */
export const UNSAFE_CODE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

/** Playwright code for a locator, preferring role, label and test id (what `normalize()` picks): 11–13 round trips. */
export const locatorCode = (locator: Locator, fallbackSelector: string): Promise<string> =>
  locator
    .normalize()
    .then((normalized) => normalized.toString())
    // Playwright quotes what it prints; anything that is not one line of plain code takes the quoted form.
    .then((code) => (UNSAFE_CODE_CHARACTERS.test(code) ? `locator(${codeString(fallbackSelector)})` : code))
    .catch(() => `locator(${codeString(fallbackSelector)})`)

/** The code of a selector target: a one-segment shorthand as its getBy* call (the driver's table), anything else as `locator(...)`. */
export const selectorCode = (target: string): string => {
  const trimmed = target.trim()
  const found = /\s>>\s/.test(trimmed) ? undefined : shorthandOf(trimmed)
  if (found !== undefined) {
    const { shorthand, value, quoted } = found
    return `${shorthand.method}(${codeString(value)}${shorthand.exactable && quoted ? ", { exact: true }" : ""})`
  }
  return `locator(${codeString(expandSelector(trimmed))})`
}

/** A snapshot line's key (`role "name" [attrs] [ref=…]`, maybe followed by `: text`), without the list dash and the YAML key quoting. */
const lineKey = (line: string): string => {
  const item = line.trim().replace(/^- /, "")
  if (!item.startsWith("'")) return item
  let key = ""
  for (let i = 1; i < item.length; i++) {
    if (item[i] !== "'") key += item[i]
    else if (item[i + 1] === "'") (key += "'"), i++
    else break
  }
  return key
}

const ROLE_AND_NAME = /^([a-z]+) ("(?:[^"\\]|\\.)*")(?=[ :]|$)/

/**
 * `getByRole(role, { name, exact: true })` for a ref whose role and accessible name appear once in the
 * snapshot (so the code matches exactly that element); undefined when that cannot be told from the text.
 */
export const refCodeFromSnapshot = (snapshot: string, ref: string): string | undefined => {
  if (!/^e\d+$/.test(ref)) return undefined // refs inside frames need the frame in their code
  const lines = snapshot.split("\n")
  const own = lines.find((line) => line.includes(`[ref=${ref}]`))
  if (own === undefined) return undefined
  const match = ROLE_AND_NAME.exec(lineKey(own))
  if (match === null) return undefined
  const prefix = `${match[1]} ${match[2]}`
  const same = lines.filter((line) => {
    const key = lineKey(line)
    return key === prefix || key.startsWith(`${prefix} `) || key.startsWith(`${prefix}:`)
  }).length
  if (same !== 1) return undefined
  let name: string
  try {
    name = JSON.parse(match[2]!) as string
  } catch {
    return undefined
  }
  return `getByRole(${codeString(match[1]!)}, { name: ${codeString(name)}, exact: true })`
}

/**
 * The code of a target for the recorded step: from the target or the snapshot when possible, else
 * normalized once per ref and snapshot (the driver keeps it on the window).
 */
export const stepCode = (entry: Surface, target: string, locator: Locator): Effect.Effect<string, never, Snapshots> => {
  const trimmed = target.trim()
  if (!REF_PATTERN.test(trimmed)) return Effect.succeed(selectorCode(trimmed))
  const known = entry.latestSnapshot !== undefined ? refCodeFromSnapshot(entry.latestSnapshot, trimmed) : undefined
  return known !== undefined
    ? Effect.succeed(known)
    : Effect.flatMap(Snapshots, (snapshots) => snapshots.refCode(entry, trimmed, () => locatorCode(locator, trimmed)))
}
