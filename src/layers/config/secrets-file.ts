/**
 * The operator's secrets (`--secrets FILE`, dotenv format): `NAME=value` lines, `export ` allowed, values
 * optionally in single or double quotes (double quotes understand \n, \" and \\), `#` comments and blank
 * lines skipped. The agent refers to a secret as `{{secret:NAME}}` (src/tools/policy/secret-values.ts); its
 * value is substituted only at the page and never returned or recorded.
 */
import { readRegularFile } from "./read-file.js"

/** A secret's name: what the agent writes inside `{{secret:NAME}}`. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

export type Secrets = ReadonlyArray<readonly [name: string, value: string]>

/** The secrets of a dotenv text, or the first line that is not one (by number: a line is never quoted). */
export const parseSecrets = (text: string): Secrets | { readonly reason: string } => {
  const out = new Map<string, string>()
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line)
    if (match === null || !SECRET_NAME.test(match[1]!)) return { reason: `line ${index + 1} is not NAME=value (a name is letters, digits and _)` }
    let value = match[2]!
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replace(/\\(n|"|\\)/g, (_, c: string) => (c === "n" ? "\n" : c))
    } else if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) value = value.slice(1, -1)
    else value = value.replace(/\s+#.*$/, "")
    if (value === "") return { reason: `line ${index + 1}: ${match[1]} has an empty value` }
    out.set(match[1]!, value)
  }
  return [...out.entries()]
}

/** Reads the secrets file: a regular file of at most 1 MiB (never a FIFO or a device). */
export const loadSecrets = (path: string): Secrets | { readonly reason: string } => {
  const text = readRegularFile(path, 1024 * 1024)
  return typeof text === "string" ? parseSecrets(text) : text
}

/** Any value (text, structured content) with every secret's value replaced by its placeholder, at any depth. */
export const hideSecrets = <A>(value: A, secrets: Secrets | undefined): A => {
  if (secrets === undefined || secrets.length === 0) return value
  // Longest first, so a secret that contains another is hidden whole.
  const ordered = [...secrets].filter(([, secret]) => secret.length > 0).sort((a, b) => b[1].length - a[1].length)
  const text = (s: string) => ordered.reduce((out, [name, secret]) => (out.includes(secret) ? out.split(secret).join(`{{secret:${name}}}`) : out), s)
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return text(v)
    if (v === null || typeof v !== "object" || depth > 64) return v
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1))
    if (Buffer.isBuffer(v) || v instanceof Uint8Array) return v
    return Object.fromEntries(Object.entries(v).map(([key, item]) => [key, walk(item, depth + 1)]))
  }
  return walk(value, 0) as A
}
