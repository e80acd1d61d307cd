/**
 * Caller-supplied regular expressions and URL globs matched in this process (electron_expect_text's
 * pattern, the network plugin's /regex/ and glob URLs) run on RE2 (the re2js port: pure JavaScript, no
 * native build), never on V8's backtracking RegExp: matching costs O(program size × text length), so no
 * pattern can block the event loop. Two bounds keep that product small: a compiled program of at most
 * MAX_PROGRAM_SIZE instructions, and texts of at most MAX_WORK / program size characters (a longer text
 * is not matched; `fits` tells the caller so it can say why).
 *
 * re2js (~260 KiB) is imported at the first compile, not at start: the bin's cold start never pays for it.
 */
import { Effect } from "effect"
import type { RE2JS } from "re2js"
import { InvalidArgument } from "../contract/errors.js"
import { dynamicImport } from "../../dynamic-import.js"

const MAX_PATTERN_LENGTH = 1_000
/** RE2 instructions of one compiled pattern: a 1,000-character literal is ~1,000; `[a-z]{1000}` ~1,000. */
const MAX_PROGRAM_SIZE = 4_000
/** Instructions × characters of one match: re2js's slowest path (every NFA thread alive) takes ~25 ns each, so ≤ ~0.1 s. */
const MAX_WORK = 3_000_000

const HINT =
  "Patterns run on RE2 (linear time): no backreferences (\\1, \\k<name>) and no lookarounds ((?=, (?!, (?<=, (?<!). Use a simpler pattern, or match with text."

/** A caller pattern compiled for linear-time matching. */
export interface SafePattern {
  readonly source: string
  readonly flags: string
  /** Whether the pattern matches somewhere in `text`; false for a text longer than maxInput. */
  readonly test: (text: string) => boolean
  /** Whether `text` is short enough to be matched at all (see maxInput). */
  readonly fits: (text: string) => boolean
  /** The longest text this pattern is matched against (MAX_WORK / its program size). */
  readonly maxInput: number
  /** The pattern as a JavaScript regex literal (`/source/flags`), for generated Playwright code. */
  readonly literal: string
}

type Re2js = typeof import("re2js")
let engine: Promise<Re2js> | undefined
const loadEngine = Effect.promise(() => (engine ??= dynamicImport<Re2js>("re2js")))

/** The first JavaScript-only construct RE2 cannot run (backreference, lookaround), outside classes and escapes. */
const unsupported = (source: string): string | undefined => {
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\") {
      const next = source[i + 1] ?? ""
      if (/[1-9]/.test(next)) return "backreferences (\\1) are not supported"
      if (next === "k" && source[i + 2] === "<") return "named backreferences (\\k<name>) are not supported"
      i++
    } else if (c === "[") {
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++
    } else if (c === "(" && source[i + 1] === "?") {
      const rest = source.slice(i + 2, i + 4)
      if (rest.startsWith("=") || rest.startsWith("!") || rest === "<=" || rest === "<!") return "lookarounds ((?=, (?!, (?<=, (?<!) are not supported"
    }
  }
  return undefined
}

/** `source` as the body of a `/…/` literal: unescaped slashes outside classes and line breaks escaped. */
const literalBody = (source: string): string => {
  let out = ""
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\" && i + 1 < source.length) {
      out += c + source[++i]
      continue
    }
    if (c === "[") inClass = true
    else if (c === "]") inClass = false
    out += c === "/" && !inClass ? "\\/" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : c
  }
  return out === "" ? "(?:)" : out
}

const refuse = (why: string) => new InvalidArgument({ message: `pattern: ${why}`, hint: HINT })

const compileWith = (re2: Re2js, source: string, flags: string, translate: boolean): SafePattern | InvalidArgument => {
  const { RE2JS } = re2
  if (source.length > MAX_PATTERN_LENGTH) return refuse(`longer than ${MAX_PATTERN_LENGTH} characters`)
  const bad = [...flags].find((f) => !"dimsu".includes(f))
  if (bad !== undefined) return refuse(`flag "${bad}" is not supported (use i, m, s)`)
  const why = unsupported(source)
  if (why !== undefined) return refuse(why)
  let compiled: RE2JS
  try {
    // i, m, s as in JavaScript; u and d change nothing here (RE2 matches code points; only test() is used).
    const mask = (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes("m") ? RE2JS.MULTILINE : 0) | (flags.includes("s") ? RE2JS.DOTALL : 0)
    compiled = RE2JS.compile(translate ? RE2JS.translateRegExp(source) : source, mask)
  } catch (error) {
    return refuse(String((error as Error).message ?? error).replace(/^error parsing regexp: /, ""))
  }
  const size = compiled.programSize()
  if (size > MAX_PROGRAM_SIZE) return refuse(`too large once compiled (${size} instructions, at most ${MAX_PROGRAM_SIZE}): use smaller repeat counts`)
  const maxInput = Math.floor(MAX_WORK / Math.max(size, 1))
  const fits = (text: string) => text.length <= maxInput
  return { source, flags, maxInput, fits, test: (text) => fits(text) && compiled.test(text), literal: `/${literalBody(source)}/${flags}` }
}

/**
 * Compiles a caller's regular expression (JavaScript syntax: `\uXXXX`, `(?<name>…)` are translated) for
 * linear-time matching. Flags: i, m, s (u, d accepted). A pattern RE2 cannot run, or a malformed one,
 * fails with INVALID_ARGUMENT and a hint.
 */
export const compileSafePattern = (source: string, flags = ""): Effect.Effect<SafePattern, InvalidArgument> =>
  Effect.flatMap(loadEngine, (re2) => {
    const compiled = compileWith(re2, source, flags, true)
    return compiled instanceof InvalidArgument ? Effect.fail(compiled) : Effect.succeed(compiled)
  })

const GLOB_ESCAPED = new Set(["$", "^", "+", ".", "*", "(", ")", "|", "\\", "?", "{", "}", "[", "]"])

/**
 * A URL glob as Playwright's route() reads it (playwright-core's globToRegexPattern, in RE2 syntax):
 * `**` any characters, `*` any but `/`, `?` a literal `?`, `{a,b}` alternatives, `\` escapes the next character.
 */
const globSource = (glob: string): string | InvalidArgument => {
  const tokens = ["^"]
  let inGroup = false
  for (let i = 0; i < glob.length; ++i) {
    const c = glob[i]!
    if (c === "\\" && i + 1 < glob.length) {
      const char = glob[++i]!
      tokens.push(GLOB_ESCAPED.has(char) ? `\\${char}` : char)
      continue
    }
    if (c === "*") {
      const before = glob[i - 1]
      let stars = 1
      while (glob[i + 1] === "*") {
        stars++
        i++
      }
      if (stars > 1 && glob[i + 1] === "/") {
        tokens.push(before === "/" ? "((.+/)|)" : "(.*/)")
        i++
      } else tokens.push(stars > 1 ? "(.*)" : "([^/]*)")
      continue
    }
    if (c === "{") {
      if (inGroup)
        return new InvalidArgument({ message: `glob ${JSON.stringify(glob)}: nested '{' is not supported`, hint: "Use one level of {a,b} alternatives." })
      inGroup = true
      tokens.push("(")
    } else if (c === "}") {
      if (!inGroup) return new InvalidArgument({ message: `glob ${JSON.stringify(glob)}: unmatched '}'`, hint: "Close each { with }." })
      inGroup = false
      tokens.push(")")
    } else if (c === ",") tokens.push(inGroup ? "|" : "\\,")
    else tokens.push(GLOB_ESCAPED.has(c) ? `\\${c}` : c)
  }
  if (inGroup) return new InvalidArgument({ message: `glob ${JSON.stringify(glob)}: unmatched '{'`, hint: "Close each { with }." })
  tokens.push("$")
  return tokens.join("")
}

/**
 * An absolute URL glob normalized the way playwright-core's resolveGlobBase does without a baseURL (our
 * contexts have none): its wildcard tokens set aside, the rest through `new URL` (lower-case scheme and
 * host, `/` after a bare origin), the tokens put back. A glob starting with `*`, or not a URL, is unchanged.
 */
const resolveGlob = (glob: string): string => {
  if (glob.startsWith("*")) return glob
  const match = glob.replaceAll("\\\\?", "?")
  if (/^(about|data|chrome|edge|file):/.test(match)) return match
  const tokens = new Map<string, string>()
  const token = (original: string, replacement: string) => {
    if (original.length === 0) return ""
    tokens.set(replacement, original)
    return replacement
  }
  const relative = match
    .split("/")
    .map((part, index) => {
      if (part === "." || part === ".." || part === "") return part
      if (index === 0 && part.endsWith(":")) return part.includes("*") || part.includes("{") ? token(part, "http:") : part
      if (!/[*?{}\\]/.test(part)) return part
      const question = part.indexOf("?")
      if (question === -1) return token(part, `$_${index}_$`)
      return token(part.substring(0, question), `$_${index}_$`) + token(part.substring(question), `?$_${index}_$`)
    })
    .join("/")
  let resolved: string
  let origin: string | undefined
  try {
    const url = new URL(relative)
    resolved = url.toString()
    origin = url.origin
  } catch {
    resolved = relative
  }
  for (const [replacement, original] of tokens) {
    const value = origin?.includes(replacement) ? original.toLowerCase() : original
    resolved = resolved.replace(replacement, () => value)
  }
  return resolved
}

/** Compiles a URL glob (Playwright's rules, see globSource) for linear-time matching of whole URLs. */
export const compileGlob = (glob: string): Effect.Effect<SafePattern, InvalidArgument> =>
  Effect.flatMap(loadEngine, (re2) => {
    const source = globSource(resolveGlob(glob))
    if (source instanceof InvalidArgument) return Effect.fail(source)
    const compiled = compileWith(re2, source, "", false)
    return compiled instanceof InvalidArgument ? Effect.fail(compiled) : Effect.succeed({ ...compiled, source: glob })
  })
