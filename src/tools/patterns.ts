/**
 * Caller-supplied regular expressions run in this process against page text: refuse the shapes that
 * backtrack catastrophically (a quantified group that itself contains a quantifier or alternation,
 * like (a+)+ or (a|a)*, and backreferences) before compiling them.
 */
import { InvalidArgument } from "./errors.js"

const MAX_PATTERN_LENGTH = 1_000

/** Finds a group with a quantifier or `|` inside that is itself quantified. */
const hasNestedQuantifier = (source: string): boolean => {
  const stack: Array<{ inner: boolean }> = []
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!
    if (c === "\\") {
      i++
      continue
    }
    if (c === "[") {
      // Skip a character class: quantifier characters inside it are literals.
      for (i++; i < source.length && source[i] !== "]"; i++) if (source[i] === "\\") i++
      continue
    }
    if (c === "(") stack.push({ inner: false })
    else if (c === ")") {
      const group = stack.pop()
      const next = source[i + 1]
      const quantified = next === "*" || next === "+" || next === "{"
      if (group?.inner && quantified) return true
      if (group?.inner && stack.length > 0) stack[stack.length - 1]!.inner = true
    } else if ((c === "*" || c === "+" || c === "{" || c === "|") && stack.length > 0) {
      stack[stack.length - 1]!.inner = true
    }
  }
  return false
}

export const compileSafePattern = (source: string, flags = ""): RegExp | InvalidArgument => {
  const refuse = (why: string) =>
    new InvalidArgument({ message: `pattern: ${why}`, hint: "Use a simpler pattern (no nested quantifiers such as (a+)+, no backreferences), or match with text." })
  if (source.length > MAX_PATTERN_LENGTH) return refuse(`longer than ${MAX_PATTERN_LENGTH} characters`)
  if (/\\[1-9]|\\k</.test(source)) return refuse("backreferences are not allowed")
  if (hasNestedQuantifier(source)) return refuse("a quantified group contains a quantifier or alternation, which can backtrack catastrophically")
  try {
    return new RegExp(source, flags)
  } catch (error) {
    return refuse((error as Error).message)
  }
}
