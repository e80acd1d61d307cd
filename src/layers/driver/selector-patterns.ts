/**
 * Regular expressions inside selectors run in the page, on V8's backtracking RegExp, against the text of
 * every candidate element: `text=/…/`, `internal:text=/…/`, `internal:has-text=/…/`, `internal:label=/…/`,
 * `[attr=/…/]` values of role=, internal:role, internal:attr, internal:testid, and CSS
 * `:text-matches("…", "flags")`, also inside the nested selectors of internal:has, internal:and, etc. A
 * catastrophic one (`text=/(a+)+$/`) hangs the renderer, so every target's selector (after our shorthands
 * are expanded) is checked here before anything reaches the page: each regex found must pass
 * pageRegexProblem (page-regex.ts), or the target is refused with INVALID_ARGUMENT.
 */
import { InvalidArgument } from "./errors.js"
import { pageRegexProblem } from "./page-regex.js"

const TOP = 0x10ffff

export interface SelectorRegex {
  readonly source: string
  readonly flags: string
}

const NESTED = new Set(["internal:has", "internal:has-not", "internal:and", "internal:or", "internal:chain", "left-of", "right-of", "above", "below", "near"])
const TEXT = new Set(["text", "text:light", "internal:text", "internal:has-text", "internal:has-not-text", "internal:label"])
const REFUSED = new Set(["aria-template"])

/** A selector's parts (engine name and body), split as playwright-core's parseSelectorString splits them. */
const parts = (selector: string): Array<{ name: string; body: string }> => {
  const out: Array<{ name: string; body: string }> = []
  let start = 0
  let index = 0
  let quote: string | undefined
  const append = () => {
    const part = selector.substring(start, index).trim()
    const eq = part.indexOf("=")
    let name: string
    let body = part
    if (eq !== -1 && /^[a-zA-Z_0-9-+:*]+$/.test(part.substring(0, eq).trim())) (name = part.substring(0, eq).trim()), (body = part.substring(eq + 1))
    else if (part.length > 1 && (part[0] === '"' || part[0] === "'") && part[part.length - 1] === part[0]) name = "text"
    else if (/^\(*\/\//.test(part) || part.startsWith("..")) name = "xpath"
    else name = "css"
    out.push({ name: name.startsWith("*") ? name.substring(1) : name, body })
  }
  if (!selector.includes(">>")) {
    index = selector.length
    append()
    return out
  }
  const ignoreQuote = () => (/^\s*text\s*=(.*)$/.exec(selector.substring(start, index))?.[1] ?? "") !== ""
  while (index < selector.length) {
    const c = selector[index]!
    if (c === "\\" && index + 1 < selector.length) index += 2
    else if (c === quote) (quote = undefined), index++
    else if (!quote && (c === '"' || c === "'" || c === "`") && !ignoreQuote()) (quote = c), index++
    else if (!quote && c === ">" && selector[index + 1] === ">") {
      append()
      index += 2
      start = index
    } else index++
  }
  append()
  return out
}

/** A `/source/flags` regex at `from` (the opening slash), read as playwright-core's attribute parser reads it. */
const readRegex = (body: string, from: number): [SelectorRegex, number] => {
  let i = from + 1
  let inClass = false
  while (i < body.length) {
    const c = body[i]!
    if (c === "\\") i++
    else if (c === "[") inClass = true
    else if (c === "]") inClass = false
    else if (c === "/" && !inClass) break
    i++
  }
  const source = body.substring(from + 1, i)
  let end = i + 1
  while (end < body.length && /[dgimsuvy]/.test(body[end]!)) end++
  return [{ source, flags: body.substring(i + 1, end) }, end]
}

/** The index of the quote closing the string that opens at i (backslash escapes skipped). */
const skipQuoted = (body: string, i: number): number => {
  let j = i + 1
  while (j < body.length && body[j] !== body[i]) j += body[j] === "\\" ? 2 : 1
  return j
}

/** Regex values of attribute filters (`[name=/…/i]`), outside quoted strings. */
const attributeRegexes = (body: string): Array<SelectorRegex> => {
  const found: Array<SelectorRegex> = []
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === '"' || c === "'") i = skipQuoted(body, i)
    else if (c === "=") {
      let j = i + 1
      while (/\s/.test(body[j] ?? "")) j++
      if (body[j] === "/") {
        const [regex, end] = readRegex(body, j)
        found.push(regex)
        i = end - 1
      }
    }
  }
  return found
}

/** A CSS string or bare argument at i: its value (escapes resolved) and where it ends. */
const cssArgument = (body: string, i: number): [string, number] => {
  while (/\s/.test(body[i] ?? "")) i++
  const quote = body[i] === '"' || body[i] === "'" ? body[i++] : undefined
  let value = ""
  while (i < body.length && (quote ? body[i] !== quote : body[i] !== "," && body[i] !== ")")) {
    if (body[i] === "\\") {
      const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(body.slice(i + 1, i + 8))
      if (hex) (value += String.fromCodePoint(Math.min(parseInt(hex[0], 16), TOP))), (i += 1 + hex[0].length)
      else (value += body[i + 1] === "\n" ? "" : body[i + 1] ?? ""), (i += 2)
    } else value += body[i++]
  }
  if (quote) i++
  while (/\s/.test(body[i] ?? "")) i++
  return [quote ? value : value.trim(), i]
}

/** `:text-matches("source", "flags")` anywhere in a CSS selector, outside quoted strings. */
const cssRegexes = (body: string): Array<SelectorRegex> => {
  const found: Array<SelectorRegex> = []
  const lower = body.toLowerCase()
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === '"' || c === "'") i = skipQuoted(body, i)
    else if (c === ":" && lower.startsWith(":text-matches(", i)) {
      const [source, next] = cssArgument(body, i + ":text-matches(".length)
      const [flags, end] = body[next] === "," ? cssArgument(body, next + 1) : ["", next]
      found.push({ source, flags })
      i = end
    }
  }
  return found
}

/** Every regex a selector hands to Playwright's engines in the page, nested selectors included. */
export const selectorRegexes = (selector: string, depth = 0): Array<SelectorRegex> | string => {
  if (depth > 10) return "nested selectors go too deep"
  const found: Array<SelectorRegex> = []
  for (const { name, body } of parts(selector)) {
    if (REFUSED.has(name)) return `the ${name} engine is not a target`
    if (NESTED.has(name)) {
      let inner: unknown
      try {
        inner = JSON.parse(`[${body}]`)
      } catch {
        continue // Playwright refuses a malformed nested selector before matching anything
      }
      if (Array.isArray(inner) && typeof inner[0] === "string") {
        const nested = selectorRegexes(inner[0], depth + 1)
        if (typeof nested === "string") return nested
        found.push(...nested)
      }
    } else if (TEXT.has(name)) {
      const text = body.trim()
      if (text.startsWith("/") && text.lastIndexOf("/") > 0) found.push({ source: text.substring(1, text.lastIndexOf("/")), flags: text.substring(text.lastIndexOf("/") + 1) })
    } else if (name === "css" || name === "css:light") found.push(...cssRegexes(body))
    else if (name !== "xpath" && name !== "xpath:light") found.push(...attributeRegexes(body))
  }
  return found
}

const HINT =
  "Match with plain text instead (text=Save, role=button[name=\"Save\"], label=Email), or use a simpler regex: at most one open-ended repeat (.*, \\d+) that can match what follows it, no nested repeats like (a+)+, no backreferences or lookarounds."

/** INVALID_ARGUMENT when a (expanded) selector holds a regex whose matching in the page is not provably bounded. */
export const checkSelectorPatterns = (selector: string): InvalidArgument | undefined => {
  const regexes = selectorRegexes(selector)
  if (typeof regexes === "string") return new InvalidArgument({ message: `target: ${regexes}`, hint: HINT })
  for (const regex of regexes) {
    const problem = pageRegexProblem(regex.source, regex.flags)
    if (problem !== undefined) return new InvalidArgument({ message: `target: the regex /${regex.source}/${regex.flags} is refused: ${problem}`, hint: HINT })
  }
  return undefined
}
