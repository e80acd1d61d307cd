/**
 * A call's arguments as observers see them (./observers.ts): a bounded copy with every secret replaced by
 * REDACTED_MARK. Secret by name: every value of `env`, and the value of any key named like a credential
 * (password, passphrase, secret, …token, api key, authorization, auth, credentials, cookies, private key).
 * Secret by form, inside any string: Bearer tokens and URL credentials (ServerState's redactUrls, the
 * breadcrumb's rules). Secret by what the call did: the values it typed into a password field, which the
 * text-entry tools report (src/tools/policy/call-secrets.ts). A copy that had to be cut (too deep, too many
 * values, a huge string) is marked too, since it no longer says what the call was given.
 */
import { REDACTED_MARK } from "../plugins/observer.js"
import { redactUrls } from "./ServerState.js"

const SECRET_KEY = /password|passwd|passphrase|^pass$|^pwd$|secret|token$|api[-_]?key$|^authori[sz]ation$|^auth$|credentials?$|^cookies?$|private[-_]?key$/i

const LIMITS = { depth: 32, nodes: 20_000, stringChars: 200_000 } as const
const CUT = "«cut»"

export interface RedactedArguments {
  readonly args: unknown
  /** Whether anything was redacted or cut. */
  readonly redacted: boolean
}

/** The arguments with their secrets redacted; `secrets` are values known to be secret (typed into a password field). */
export const redactArguments = (args: unknown, secrets: ReadonlySet<string> = new Set()): RedactedArguments => {
  let redacted = false
  let nodes = 0
  // Longest first, so a secret that contains another is cut out whole.
  const known = [...secrets].filter((s) => s !== "").sort((a, b) => b.length - a.length)
  const mark = () => {
    redacted = true
    return REDACTED_MARK
  }
  const text = (value: string): string => {
    if (value.length > LIMITS.stringChars) {
      redacted = true
      return CUT
    }
    let out = value
    for (const secret of known) {
      if (out === secret) return mark()
      if (secret.length >= 3 && out.includes(secret)) {
        out = out.split(secret).join(REDACTED_MARK)
        redacted = true
      }
    }
    const cleaned = redactUrls(out)
    if (cleaned !== out) redacted = true
    return cleaned
  }
  const copy = (value: unknown, depth: number): unknown => {
    if (++nodes > LIMITS.nodes || depth > LIMITS.depth) {
      redacted = true
      return CUT
    }
    if (typeof value === "string") return text(value)
    if (value === null || typeof value !== "object") return value
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value)) {
      if (SECRET_KEY.test(key) && child !== undefined && child !== null && child !== "") out[key] = mark()
      else if (key === "env" && child !== null && typeof child === "object" && !Array.isArray(child)) {
        out[key] = Object.fromEntries(Object.keys(child).map((name) => [name, mark()]))
      } else out[key] = copy(child, depth + 1)
    }
    return out
  }
  const result = copy(args, 0)
  return { args: result, redacted }
}

/** Whether a recorded argument value holds a redaction (or a cut), anywhere. */
export const holdsRedaction = (value: unknown): boolean => {
  if (typeof value === "string") return value.includes(REDACTED_MARK) || value === CUT
  if (value === null || typeof value !== "object") return false
  return Object.values(value).some(holdsRedaction)
}
