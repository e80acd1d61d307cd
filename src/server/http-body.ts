/**
 * The body of an MCP POST, read before the SDK's transport sees it: bounded in size (the SDK's own 4 MiB)
 * and in nesting (checked by a linear scan before JSON.parse), so a 100,000-deep array is answered with a
 * JSON-RPC error instead of overflowing a recursive validator's stack and hanging up the socket. The parsed
 * value goes to the transport as its `parsedBody`.
 */
import type { IncomingMessage } from "node:http"

export const BODY_LIMITS = { bytes: 4 * 1024 * 1024, depth: 64 } as const

export type ReadBody =
  | { readonly _tag: "Parsed"; readonly value: unknown }
  | { readonly _tag: "Refused"; readonly status: number; readonly code: number; readonly message: string }

/** How deep the arrays and objects of a JSON text nest (strings skipped), stopping past `limit`. */
export const jsonDepth = (text: string, limit: number): number => {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: skip to its closing quote, over escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++
    } else if (c === 91 || c === 123) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest
    } else if (c === 93 || c === 125) depth--
  }
  return deepest
}

/** Reads and parses `req`'s body within BODY_LIMITS; a refusal carries the HTTP status and JSON-RPC error to answer. */
export const readJsonBody = (req: IncomingMessage): Promise<ReadBody> =>
  new Promise((resolve) => {
    const declared = Number(req.headers["content-length"])
    const tooLarge: ReadBody = {
      _tag: "Refused",
      status: 413,
      code: -32000,
      message: `Payload too large: a request body is at most ${BODY_LIMITS.bytes} bytes`
    }
    if (declared > BODY_LIMITS.bytes) {
      req.resume()
      return resolve(tooLarge)
    }
    const chunks: Array<Buffer> = []
    let size = 0
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= BODY_LIMITS.bytes) chunks.push(chunk)
    })
    req.once("error", () => resolve({ _tag: "Refused", status: 400, code: -32700, message: "Parse error: the request body could not be read" }))
    req.once("end", () => {
      if (size > BODY_LIMITS.bytes) return resolve(tooLarge)
      const text = Buffer.concat(chunks).toString("utf8")
      if (jsonDepth(text, BODY_LIMITS.depth) > BODY_LIMITS.depth) {
        return resolve({ _tag: "Refused", status: 400, code: -32700, message: `Parse error: the JSON is nested deeper than ${BODY_LIMITS.depth} levels` })
      }
      try {
        resolve({ _tag: "Parsed", value: JSON.parse(text) as unknown })
      } catch {
        resolve({ _tag: "Refused", status: 400, code: -32700, message: "Parse error: Invalid JSON" })
      }
    })
  })
