/**
 * Capture redaction by rule, not by list: a name (a JSON key at any depth, a form or query parameter,
 * a multipart part, a header) is secret when one of its words is a secret word. Names are normalised
 * first: camelCase, snake_case, kebab-case and dotted names are split into lower-case words
 * (`newPassword`, `user_password`, `X-Api-Key`, `client.secret`). A secret name's whole value is
 * replaced, whatever its type. Bodies are redacted by what they parse as (JSON, a form, multipart
 * parts), whatever their content type says; text that does not parse (a cut body) is scrubbed of
 * `"name": value` and `name=value` pairs with secret names. Nothing here is given the raw value back.
 */
export const REDACTED = "<redacted>"

/** Words that make a name secret on their own. */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pass",
  "pwd",
  "passphrase",
  "passcode",
  "secret",
  "secrets",
  "token",
  "tokens",
  "auth",
  "authorization",
  "credential",
  "credentials",
  "cookie",
  "cookies",
  "session",
  "sessionid",
  "sid",
  "jwt",
  "otp",
  "totp",
  "signature",
  "csrf",
  "xsrf",
  "apikey",
  "privatekey",
  "accesskey",
  "bearer",
  "saml",
  "ssn",
  "cvv",
  "cvc"
])
/** Word pairs that are secret together (`api key`, `private key`, `access key`, `client secret`). */
const SECRET_JOINED = ["apikey", "privatekey", "accesskey", "secretkey", "clientsecret", "authtoken", "sessionkey", "signingkey", "encryptionkey"]

/** The words of a name: `XApiKey` / `x-api-key` / `x_api_key` -> ["x", "api", "key"]. */
export const nameWords = (name: string): ReadonlyArray<string> =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "")

/** Whether a field, parameter or header name names a secret (by rule: see the module's comment). */
export const isSecretName = (name: string): boolean => {
  const words = nameWords(name)
  if (words.some((word) => SECRET_WORDS.has(word))) return true
  const joined = words.join("")
  return SECRET_JOINED.some((pair) => joined.includes(pair))
}

/** Deeper than this, a JSON value is replaced whole: a walk never runs out of stack, and fails closed. */
const MAX_DEPTH = 200

/** A parsed JSON value with every secret-named field's value replaced; `found` says whether any was. */
const redactValue = (value: unknown, depth: number, found: { hit: boolean }): unknown => {
  if (value === null || typeof value !== "object") return value
  if (depth > MAX_DEPTH) {
    found.hit = true
    return REDACTED
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, found))
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    // A flag (`csrf: true`) or an empty value says nothing; a string, a number or a whole object does.
    if (isSecretName(key) && item !== null && item !== "" && typeof item !== "boolean") {
      found.hit = true
      out[key] = REDACTED
    } else out[key] = redactValue(typeof item === "string" ? redactNested(item, found) : item, depth + 1, found)
  }
  return out
}

/** A string value that is itself JSON or a query string (a token inside a `state` or `payload` field). */
const redactNested = (text: string, found: { hit: boolean }): string => {
  const trimmed = text.trim()
  if (trimmed.length < 3 || trimmed.length > 64 * 1024) return text
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const redacted = redactText(text)
    if (redacted !== text) found.hit = true
    return redacted
  }
  return text
}

/** A form or query string (`a=1&password=x`) with secret-named parameters' values replaced. */
export const redactForm = (text: string): string => {
  let hit = false
  const parts = text.split("&").map((pair) => {
    const at = pair.indexOf("=")
    if (at < 0) return pair
    let name: string
    try {
      name = decodeURIComponent(pair.slice(0, at).replace(/\+/g, " "))
    } catch {
      name = pair.slice(0, at)
    }
    if (!isSecretName(name)) return pair
    hit = true
    return `${pair.slice(0, at)}=${encodeURIComponent(REDACTED)}`
  })
  return hit ? parts.join("&") : text
}

const FORM = /^[^=&\s{}[\]"]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/

/** The multipart boundary of a content type, or the one the body starts with. */
const boundaryOf = (text: string, mimeType: string): string | undefined =>
  /boundary="?([^";]+)"?/i.exec(mimeType)?.[1] ?? /^--([^\r\n]{1,200})\r?\n/.exec(text)?.[1]

/** A multipart body: each part named secret is replaced; the others are redacted as text (JSON, a form). */
const redactMultipart = (text: string, boundary: string): string => {
  const delimiter = `--${boundary}`
  const parts = text.split(delimiter)
  if (parts.length < 3) return text
  return parts
    .map((part, i) => {
      if (i === 0 || part.startsWith("--")) return part
      const split = /\r?\n\r?\n/.exec(part)
      if (split === null) return part
      const head = part.slice(0, split.index)
      const body = part.slice(split.index + split[0].length)
      const name = /name="([^"]*)"/i.exec(head)?.[1] ?? ""
      const ending = /\r?\n$/.exec(body)?.[0] ?? ""
      const content = body.slice(0, body.length - ending.length)
      const filename = /filename="([^"]*)"/i.exec(head)?.[1]
      const secret = isSecretName(name) || (filename !== undefined && isSecretName(filename.replace(/\.[^.]*$/, "")))
      return `${head}${split[0]}${secret ? REDACTED : redactText(content)}${ending}`
    })
    .join(delimiter)
}

/** `"name": value` and `name=value` pairs with secret names, in text that does not parse (a cut body). */
const scrub = (text: string): string =>
  text
    .replace(/"((?:[^"\\\n]|\\.){1,200})"(\s*:\s*)("(?:[^"\\]|\\.)*("|$)|[^,}\]\s]+)/g, (all, name: string, colon: string) =>
      isSecretName(name) ? `"${name}"${colon}"${REDACTED}"` : all
    )
    .replace(/(^|[?&\s;,])([A-Za-z0-9_.\-[\]]{1,200})=([^&\s;,]*)/g, (all, lead: string, name: string) =>
      isSecretName(name) ? `${lead}${name}=${REDACTED}` : all
    )

/**
 * A body's text with its secrets redacted: as JSON when it parses as JSON, as multipart when it has a
 * boundary, as a form when it looks like one, else scrubbed; whatever the content type says.
 */
export const redactText = (text: string, mimeType = ""): string => {
  const trimmed = text.trim()
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const found = { hit: false }
      const redacted = redactValue(JSON.parse(trimmed), 0, found)
      return found.hit ? JSON.stringify(redacted) : text
    } catch {
      return scrub(text)
    }
  }
  const boundary = /multipart\//i.test(mimeType) || text.startsWith("--") ? boundaryOf(text, mimeType) : undefined
  if (boundary !== undefined) return redactMultipart(text, boundary)
  if (FORM.test(trimmed)) return redactForm(trimmed)
  return scrub(text)
}

/** A URL with secret-named query (and fragment) parameters and its password replaced. */
export const redactUrl = (url: string): string => {
  const query = url.indexOf("?")
  const hash = url.indexOf("#")
  const cut = (end: number) => (end < 0 ? url.length : end)
  let out = url
  if (hash >= 0) out = `${out.slice(0, hash)}#${redactForm(out.slice(hash + 1))}`
  if (query >= 0 && (hash < 0 || query < hash)) {
    const end = cut(out.indexOf("#"))
    out = `${out.slice(0, query)}?${redactForm(out.slice(query + 1, end))}${out.slice(end)}`
  }
  return out.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@\s]*):[^/@\s]*@/i, `$1:${REDACTED}@`)
}

/** Header names lower-cased; a name secret by rule, or in the configured list, has its value replaced. */
export const redactHeaders = (headers: Readonly<Record<string, string>>, redact: ReadonlySet<string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), redact.has(name.toLowerCase()) || isSecretName(name) ? REDACTED : value])
  )
