/**
 * Argument decoding: bounds checked before anything formats the arguments, the object shape MCP
 * requires, and one readable line per argument path when the tool's Schema refuses them.
 */
import { ParseResult } from "effect"
import { cut } from "../tools/contract/respond.js"

/** Bounds on a call's arguments, checked without recursion before anything formats or decodes them. */
export const ARGUMENT_LIMITS = { depth: 32, nodes: 200_000, chars: 12_000_000 } as const

export const argumentsTooLarge = (args: unknown): string | undefined => {
  const stack: Array<readonly [unknown, number]> = [[args, 0]]
  let nodes = 0
  let chars = 0
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (++nodes > ARGUMENT_LIMITS.nodes) return `arguments have more than ${ARGUMENT_LIMITS.nodes} values`
    if (typeof value === "string") {
      chars += value.length
      if (chars > ARGUMENT_LIMITS.chars) return `arguments hold more than ${ARGUMENT_LIMITS.chars} characters`
    } else if (value !== null && typeof value === "object") {
      if (depth >= ARGUMENT_LIMITS.depth) return `arguments are nested deeper than ${ARGUMENT_LIMITS.depth} levels`
      for (const [key, child] of Object.entries(value)) {
        chars += key.length
        stack.push([child, depth + 1])
      }
    }
  }
  return undefined
}

const MAX_ISSUE_CHARS = 300

/** One line per argument path; the alternatives of a union are merged into one "Expected a | b". */
export const formatDecodeError = (error: ParseResult.ParseError): string => {
  const byPath = new Map<string, Array<string>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(arguments)"
    byPath.set(path, [...(byPath.get(path) ?? []), issue.message])
  }
  return [...byPath]
    .slice(0, 20)
    .map(([path, messages]) => {
      const parsed = messages.map((m) => /^Expected (.*), actual (.*)$/s.exec(m))
      if (messages.length > 1 && parsed.every((m) => m !== null)) {
        return cut(`${path}: Expected ${[...new Set(parsed.map((m) => m![1]))].join(" | ")}, actual ${parsed[0]![2]}`, MAX_ISSUE_CHARS)
      }
      return cut(`${path}: ${[...new Set(messages)].join("; ")}`, MAX_ISSUE_CHARS)
    })
    .join("; ")
}

/** MCP's tools/call arguments: an object, or absent (undefined or null, read as {}). */
export const isArgumentObject = (args: unknown): boolean => args === undefined || args === null || (typeof args === "object" && !Array.isArray(args))
