/**
 * ServerState: when the server started and a breadcrumb of the last failure. The breadcrumb is
 * bounded and redacted: it keeps the tool, the code and a shortened message, never the call's
 * arguments (eval source, typed text, environment values or file contents).
 */
import { Context, Effect, Layer, Ref } from "effect"

export interface LastError {
  readonly at: string
  readonly tool: string
  readonly code: string
  readonly message: string
}

export interface ServerStateShape {
  readonly startedAt: Date
  /**
   * Keeps a redacted breadcrumb of a failure: every string the call was given (eval source, typed
   * text, environment values, paths) is cut out of the message, also in the forms Playwright prints
   * it after normalising a URL (percent-encoded, JSON-escaped); the credentials of every URL in the
   * stored text go too; eval tools keep no message at all.
   */
  readonly recordFailure: (failure: {
    readonly tool: string
    readonly code: string
    readonly message: string
    readonly args?: unknown
    readonly runsCallerCode?: boolean
  }) => Effect.Effect<void>
  readonly lastError: Effect.Effect<LastError | undefined>
  readonly calls: Effect.Effect<{ readonly total: number; readonly failed: number }>
  readonly recordCall: Effect.Effect<void>
}

export const MAX_BREADCRUMB_CHARS = 240
const REDACTED = "«redacted»"
/** How much of a message's first line is redacted before the breadcrumb is cut to MAX_BREADCRUMB_CHARS. */
const REDACTION_WINDOW = 16 * MAX_BREADCRUMB_CHARS
/** Pieces of one argument looked for (its head, its lines): bounds the work on a multi-megabyte argument. */
const MAX_PIECES_PER_SECRET = 200

/** Every string inside a call's arguments (bounded), longest first, for redaction. */
export const stringLeaves = (value: unknown, out: Array<string> = [], depth = 0): Array<string> => {
  if (out.length >= 500 || depth > 20) return out
  if (typeof value === "string") out.push(value)
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, out, depth + 1)
  else if (value !== null && typeof value === "object") for (const item of Object.values(value)) stringLeaves(item, out, depth + 1)
  return out
}

const attempt = (f: () => string): string | undefined => {
  try {
    return f()
  } catch {
    return undefined // a lone surrogate (encodeURI*), a malformed escape (decodeURIComponent), not a URL
  }
}

/**
 * The forms a secret takes in an error text: as given, JSON-escaped, percent-encoded (upper and lower
 * hex, `+` for spaces) and, for a URL, the parts Playwright or Chromium print after normalising it
 * (its href, its password raw and decoded, its query values).
 */
export const secretForms = (secret: string): Array<string> => {
  const head = secret.slice(0, REDACTION_WINDOW)
  const forms = [head, JSON.stringify(head).slice(1, -1)]
  for (const encode of [encodeURIComponent, encodeURI]) {
    const encoded = attempt(() => encode(head))
    if (encoded !== undefined)
      forms.push(
        encoded,
        encoded.replace(/%20/g, "+"),
        encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())
      )
  }
  const url = /^\s*[a-z][a-z0-9+.-]*:/i.test(head) ? attempt(() => new URL(head.trim()).href) : undefined
  if (url !== undefined) {
    const parsed = new URL(url)
    forms.push(url, parsed.password, attempt(() => decodeURIComponent(parsed.password)) ?? "")
    for (const [, value] of parsed.searchParams) forms.push(value, attempt(() => encodeURIComponent(value)) ?? "")
  }
  return forms
}

const SECRET_NAME = String.raw`(?:[\w.-]|%[0-9a-f]{2})*?(?:token|pass(?:word|wd)?|pwd|secret|key|auth|session|sig(?:nature)?|credential|cookie)(?:[\w.-]|%[0-9a-f]{2})*`
/**
 * `scheme://user:pass@`, also with JSON-escaped slashes and percent-encoded (a URL inside another URL's query). A
 * scheme starts where no scheme character precedes it, so a long run of them is scanned once, not from each of its
 * word boundaries (a 240,000-character argument took 21 s).
 */
const USERINFO = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:(?:\\?\/){2})[^\s/?#"'`<>\\]*@/gi
const ENCODED_USERINFO = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*%(?:25)*3A%(?:25)*2F%(?:25)*2F)(?:(?!%(?:25)*(?:2F|3F|23))[^\s/?#&"'`<>])*%(?:25)*40/gi
/** A query (or fragment) parameter named like a credential: its name stays, its value goes. */
const SECRET_PARAM = new RegExp(String.raw`([?&;#]|%(?:25)*(?:3F|26))(${SECRET_NAME})(=|%(?:25)*3D)[^&#\s"'<>]*`, "gi")
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{6,}/gi

/** Credentials in every URL of a text (userinfo, percent-encoded forms, secret-named query parameters), and Bearer tokens. */
export const redactUrls = (text: string): string =>
  text
    .replace(USERINFO, `$1${REDACTED}@`)
    .replace(ENCODED_USERINFO, `$1${REDACTED}%40`)
    .replace(SECRET_PARAM, `$1$2$3${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)

/** A text cut at its end may end with the head of a piece: that head goes too. */
const cutPartialTail = (text: string, pieces: ReadonlyArray<string>): string => {
  for (const piece of pieces) {
    const probe = piece.slice(0, 3)
    for (let at = text.indexOf(probe, Math.max(0, text.length - piece.length + 1)); at >= 0; at = text.indexOf(probe, at + 1)) {
      if (piece.startsWith(text.slice(at))) return text.slice(0, at) + REDACTED
    }
  }
  return text
}

/**
 * The first line of a message, redacted, bounded in length: the given secrets (the call's string
 * arguments) in each form they can take once Playwright normalised or encoded them, the credentials of
 * any URL in it, and long quoted payloads are cut out.
 */
export const redactMessage = (message: string, secrets: ReadonlyArray<string> = []): string => {
  const line = message.split("\n", 1)[0] ?? ""
  // Bound the work first: a message can quote a multi-megabyte argument.
  let text = line.slice(0, REDACTION_WINDOW)
  const pieces = new Set<string>()
  for (const secret of secrets) {
    if (secret.length < 3) continue
    const forms = secretForms(secret)
    // Multi-line values can surface one line at a time.
    const lines = secret
      .slice(0, 64 * REDACTION_WINDOW)
      .split(/\r?\n/)
      .slice(0, MAX_PIECES_PER_SECRET)
      .map((l) => l.trim().slice(0, REDACTION_WINDOW))
    for (const piece of [...forms, ...lines]) if (piece.length >= 3) pieces.add(piece)
  }
  const sorted = [...pieces].sort((a, b) => b.length - a.length)
  for (const piece of sorted) if (text.includes(piece)) text = text.split(piece).join(REDACTED)
  // Cut at the window, the text may end with the head of a secret.
  if (line.length > REDACTION_WINDOW) text = cutPartialTail(text, sorted)
  text = redactUrls(text)
  text = text.replace(/(["'`])(?:(?!\1).){24,}\1/g, "$1…$1")
  return text.length > MAX_BREADCRUMB_CHARS ? text.slice(0, MAX_BREADCRUMB_CHARS - 1) + "…" : text
}

export class ServerState extends Context.Tag("stagewright/ServerState")<ServerState, ServerStateShape>() {
  static readonly layer = Layer.effect(
    ServerState,
    Effect.gen(function* () {
      const last = yield* Ref.make<LastError | undefined>(undefined)
      const counts = yield* Ref.make({ total: 0, failed: 0 })
      return ServerState.of({
        startedAt: new Date(),
        recordFailure: ({ tool, code, message, args, runsCallerCode }) =>
          Effect.zipRight(
            Ref.set(last, {
              at: new Date().toISOString(),
              tool,
              code,
              message: runsCallerCode ? "(message withheld: the call ran caller-supplied code)" : redactMessage(message, stringLeaves(args))
            }),
            Ref.update(counts, (c) => ({ ...c, failed: c.failed + 1 }))
          ),
        lastError: Ref.get(last),
        calls: Ref.get(counts),
        recordCall: Ref.update(counts, (c) => ({ ...c, total: c.total + 1 }))
      })
    })
  )
}
