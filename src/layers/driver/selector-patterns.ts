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
import { pageRegex } from "./page-regex.js"

const TOP = 0x10ffff

export interface SelectorRegex {
  readonly source: string
  readonly flags: string
}
/** A regex and, when the selector holds its source verbatim (not inside a nested selector's string or a CSS string), where. */
interface FoundRegex extends SelectorRegex {
  readonly at?: number
}

const NESTED = new Set(["internal:has", "internal:has-not", "internal:and", "internal:or", "internal:chain", "left-of", "right-of", "above", "below", "near"])
const TEXT = new Set(["text", "text:light", "internal:text", "internal:has-text", "internal:has-not-text", "internal:label"])
const REFUSED = new Set(["aria-template"])

/** A selector's parts (engine name and body), split as playwright-core's parseSelectorString splits them. */
const parts = (selector: string): Array<{ name: string; body: string; offset: number }> => {
  const out: Array<{ name: string; body: string; offset: number }> = []
  let start = 0
  let index = 0
  let quote: string | undefined
  const append = () => {
    const raw = selector.substring(start, index)
    const part = raw.trim()
    let offset = start + (raw.length - raw.trimStart().length)
    const eq = part.indexOf("=")
    let name: string
    let body = part
    if (eq !== -1 && /^[a-zA-Z_0-9-+:*]+$/.test(part.substring(0, eq).trim()))
      (name = part.substring(0, eq).trim()), (body = part.substring(eq + 1)), (offset += eq + 1)
    else if (part.length > 1 && (part[0] === '"' || part[0] === "'") && part[part.length - 1] === part[0]) name = "text"
    else if (/^\(*\/\//.test(part) || part.startsWith("..")) name = "xpath"
    else name = "css"
    out.push({ name: name.startsWith("*") ? name.substring(1) : name, body, offset })
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
const readRegex = (body: string, from: number): [FoundRegex, number] => {
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
  return [{ source, flags: body.substring(i + 1, end), at: from + 1 }, end]
}

/** The index of the quote closing the string that opens at i (backslash escapes skipped). */
const skipQuoted = (body: string, i: number): number => {
  let j = i + 1
  while (j < body.length && body[j] !== body[i]) j += body[j] === "\\" ? 2 : 1
  return j
}

/** Regex values of attribute filters (`[name=/…/i]`), outside quoted strings. */
const attributeRegexes = (body: string, offset: number): Array<FoundRegex> => {
  const found: Array<FoundRegex> = []
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c === '"' || c === "'") i = skipQuoted(body, i)
    else if (c === "=") {
      let j = i + 1
      while (/\s/.test(body[j] ?? "")) j++
      if (body[j] === "/") {
        const [regex, end] = readRegex(body, j)
        found.push({ ...regex, at: offset + regex.at! })
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
      else (value += body[i + 1] === "\n" ? "" : (body[i + 1] ?? "")), (i += 2)
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

/** Every regex a selector hands to Playwright's engines in the page, nested selectors included (where, for top-level ones). */
const foundRegexes = (selector: string, depth = 0): Array<FoundRegex> | string => {
  if (depth > 10) return "nested selectors go too deep"
  const found: Array<FoundRegex> = []
  for (const { name, body, offset } of parts(selector)) {
    if (REFUSED.has(name)) return `the ${name} engine is not a target`
    if (NESTED.has(name)) {
      let inner: unknown
      try {
        inner = JSON.parse(`[${body}]`)
      } catch {
        continue // Playwright refuses a malformed nested selector before matching anything
      }
      if (Array.isArray(inner) && typeof inner[0] === "string") {
        const nested = foundRegexes(inner[0], depth + 1)
        if (typeof nested === "string") return nested
        found.push(...nested.map(({ source, flags }) => ({ source, flags })))
      }
    } else if (TEXT.has(name)) {
      const text = body.trim()
      const at = offset + (body.length - body.trimStart().length) + 1
      if (text.startsWith("/") && text.lastIndexOf("/") > 0)
        found.push({ source: text.substring(1, text.lastIndexOf("/")), flags: text.substring(text.lastIndexOf("/") + 1), at })
    } else if (name === "css" || name === "css:light") found.push(...cssRegexes(body))
    else if (name !== "xpath" && name !== "xpath:light") found.push(...attributeRegexes(body, offset))
  }
  return found
}

/** Every regex a selector hands to Playwright's engines in the page, nested selectors included. */
export const selectorRegexes = (selector: string): Array<SelectorRegex> | string => {
  const found = foundRegexes(selector)
  return typeof found === "string" ? found : found.map(({ source, flags }) => ({ source, flags }))
}

const HINT =
  'Match with plain text instead (text=Save, role=button[name="Save"], label=Email), or use a simpler regex: open-ended repeats (.*, \\d+) only at the pattern\'s ends or between characters they cannot match (^Task \\d+$, \\w+@\\w+\\.com), no nested repeats like (a+)+, no backreferences or lookarounds.'

/**
 * The selector the page may run: each regex replaced by pageRegex's linear-time equivalent (`text=/.*b/`
 * becomes `text=/b/`), or INVALID_ARGUMENT when a regex has none. A regex inside a nested selector's string
 * or a CSS string is not rewritten: it must already be its own equivalent (the answer names it).
 */
export const pageSelector = (selector: string): string | InvalidArgument => {
  const regexes = foundRegexes(selector)
  if (typeof regexes === "string") return new InvalidArgument({ message: `target: ${regexes}`, hint: HINT })
  let out = selector
  for (const regex of [...regexes].reverse()) {
    const decided = pageRegex(regex.source, regex.flags)
    if ("problem" in decided)
      return new InvalidArgument({ message: `target: the regex /${regex.source}/${regex.flags} is refused: ${decided.problem}`, hint: HINT })
    if (decided.source === regex.source) continue
    if (regex.at === undefined) {
      return new InvalidArgument({
        message: `target: the regex /${regex.source}/${regex.flags} inside a nested selector is refused: it would scan the rest of the text from every position`,
        hint: `Write /${decided.source}/${regex.flags}: it matches the same texts.`
      })
    }
    out = out.slice(0, regex.at) + decided.source + out.slice(regex.at + regex.source.length)
  }
  return out
}

/** INVALID_ARGUMENT when a (expanded) selector holds a regex the page may not run (see pageSelector). */
export const checkSelectorPatterns = (selector: string): InvalidArgument | undefined => {
  const decided = pageSelector(selector)
  return typeof decided === "string" ? undefined : decided
}
