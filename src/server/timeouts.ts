/**
 * One timeout rule for every call: its own `timeoutMs` governs, up to the operator's cap
 * (--operation-timeout-ms). The listed schemas say the cap the server has (a `timeoutMs` maximum is the
 * cap, not the shapes' absolute 600000), a `timeoutMs` over the cap is refused before the tool runs, and
 * the call's bound is its own limit plus a grace in which its own timeout answers (with what it waited
 * for) before the bound would cut it.
 */
import type { ListedTool } from "../tools/pipeline/json-schema.js"

/** Time after a call's own limit for its own timeout to be answered (a last check, the failure's details). */
export const ANSWER_GRACE_MS = 2_000

/** `timeoutMs` maxima above `capMs` lowered to it, anywhere in a listed schema (the schema is not changed in place). */
export const capTimeoutSchema = (schema: ListedTool["inputSchema"], capMs: number): ListedTool["inputSchema"] => {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== "object") return node
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === "properties" && value !== null && typeof value === "object") {
        out[key] = Object.fromEntries(
          Object.entries(value as Record<string, unknown>).map(([name, property]) => {
            const walked = walk(property) as Record<string, unknown>
            return [name, name === "timeoutMs" && typeof walked.maximum === "number" && walked.maximum > capMs ? { ...walked, maximum: capMs } : walked]
          })
        )
      } else out[key] = walk(value)
    }
    return out
  }
  return walk(schema) as ListedTool["inputSchema"]
}

/** The call's own `timeoutMs` when it is over the cap (then the call is refused), else undefined. */
export const timeoutOverCap = (input: unknown, capMs: number): number | undefined => {
  const own = input !== null && typeof input === "object" ? (input as { timeoutMs?: unknown }).timeoutMs : undefined
  return typeof own === "number" && own > capMs ? own : undefined
}
