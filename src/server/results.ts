/**
 * Results as MCP carries them: text for the agent, structuredContent with the same facts (for machines and
 * hosts that forward only it), a size in `_meta`, a cap that moves an oversized result to a file, and the
 * CODE / message / hint shape of failures.
 */
import { writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { outputPath, timestampedName } from "../layers/config/paths.js"
import type { ToolResult } from "../tools/contract/Tool.js"
import { errorCode, isRetryable } from "../tools/contract/errors.js"
import type { ServerError } from "./errors.js"
import { artifactUri } from "./resource-uri.js"

export type Content =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "resource_link"; readonly uri: string; readonly name: string; readonly mimeType: string; readonly description?: string }

/** A tools/call result as MCP carries it. */
export interface CallResult {
  readonly content: ReadonlyArray<Content>
  readonly structuredContent?: Record<string, unknown>
  readonly isError?: boolean
  readonly _meta?: Record<string, unknown>
}

/** An approximate token count (about four characters a token), so results can report their size without a tokenizer. */
export const approxTokens = (chars: number): number => Math.ceil(chars / 4)

/**
 * The size of a result, each fact counted once: its text content plus the JSON of its structured fields
 * (without the copy of the text `completeStructured` may add, so it is about what a host forwarding either
 * content or structuredContent pays); `structuredChars` is structuredContent exactly as sent.
 */
const sizeMeta = (content: ReadonlyArray<Content>, fields: unknown, structuredContent?: unknown) => {
  const chars = content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0) + (fields ? JSON.stringify(fields).length : 0)
  const images = content.filter((c) => c.type === "image").length
  const sent = structuredContent !== undefined ? { structuredChars: JSON.stringify(structuredContent).length } : {}
  return { chars, approxTokens: approxTokens(chars), ...(images > 0 ? { images } : {}), ...sent }
}

/** Words and numbers as the coverage check compares them. */
const WORD = /[\p{L}\p{N}]+/gu

/** Every word of the keys and scalar values of a structured value, in lower case. */
const structuredWords = (value: unknown, into: Set<string> = new Set()): Set<string> => {
  if (value === null || typeof value !== "object") {
    for (const w of String(value).match(WORD) ?? []) into.add(w.toLowerCase())
  } else {
    for (const [key, v] of Object.entries(value)) {
      if (!Array.isArray(value)) for (const w of key.match(WORD) ?? []) into.add(w.toLowerCase())
      structuredWords(v, into)
    }
  }
  return into
}

/**
 * Whether the structured fields already say everything the text says: each word of the text (case aside) is
 * a word of their keys or values (`Hint: …` beside `error.hint`); prose or a tree of their own is not.
 */
export const coversText = (structured: Record<string, unknown>, text: string): boolean => {
  const words = structuredWords(structured)
  return (text.match(WORD) ?? []).every((w) => words.has(w.toLowerCase()))
}

/** Decoded size of base64 data. */
const base64Bytes = (data: string) => Math.max(0, Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0))

/**
 * structuredContent carries every fact of the result, since some hosts forward only it: the handler's
 * fields unchanged, a note of each image (`images: [{ mimeType, bytes }]`), the full result's URI when the
 * text was cut, and the text itself (as `text`, or `resultText` when `text` is a field of another value)
 * unless the fields already cover it word for word (`coversText`) or it is longer than TEXT_COPY_MAX (then
 * only its length, `textChars`: a long text is not sent twice). Returns the fields without that copy too.
 */
export const completeStructured = (
  structured: Record<string, unknown>,
  text: string,
  images: ReadonlyArray<{ readonly mimeType: string; readonly data: string }>,
  link?: Content
): { readonly fields: Record<string, unknown>; readonly structuredContent: Record<string, unknown> } => {
  const fields: Record<string, unknown> = {
    ...structured,
    ...(images.length > 0 && !("images" in structured) ? { images: images.map((i) => ({ mimeType: i.mimeType, bytes: base64Bytes(i.data) })) } : {}),
    ...(link?.type === "resource_link" && !("fullResultUri" in structured) ? { fullResultUri: link.uri } : {})
  }
  if (coversText(fields, text)) return { fields, structuredContent: fields }
  // A long text (a snapshot, a cut result) is not sent twice: structuredContent keeps its facts as fields
  // (ids, counts, refs, the full result's URI) and says how long the text beside it is.
  if (text.length > TEXT_COPY_MAX) return { fields, structuredContent: { ...fields, textChars: text.length } }
  const key = !("text" in fields) ? "text" : fields.text === text ? undefined : "resultText"
  return { fields, structuredContent: key === undefined ? fields : { ...fields, [key]: text } }
}

/** The longest result text copied into structuredContent (a short answer's facts stay readable from it alone). */
export const TEXT_COPY_MAX = 1_000

/**
 * Caps a result: text longer than `maxChars` is cut and the whole result (text and structured content)
 * is written to a file under `outputDir/responses`, returned as a resource link whose URI resources/read
 * serves (stdio and HTTP clients alike; the text keeps the path on the server's disk).
 */
export const capResult = (tool: string, result: ToolResult, maxChars: number, outputDir: string): ToolResult & { readonly link?: Content } => {
  const structuredChars = result.structured ? JSON.stringify(result.structured).length : 0
  if (result.text.length <= maxChars && structuredChars <= maxChars) return result
  const path = outputPath(join(outputDir, "responses"), timestampedName(tool, ".txt"), ".txt")
  if (typeof path !== "string") return result
  writeFileSync(path, result.structured ? `${result.text}\n\n--- structuredContent ---\n${JSON.stringify(result.structured, null, 1)}` : result.text)
  const uri = artifactUri("output", `responses/${basename(path)}`)
  const total = result.text.length
  const text = total > maxChars ? `${result.text.slice(0, maxChars)}\n… cut at ${maxChars} of ${total} characters; the full result is in ${path}` : result.text
  return {
    ...result,
    text,
    ...(result.structured
      ? {
          structured:
            structuredChars > maxChars
              ? { truncated: true, fullResult: path, fullResultUri: uri }
              : total > maxChars
                ? { ...result.structured, textCut: { at: maxChars, of: total }, fullResult: path }
                : result.structured
        }
      : {}),
    link: { type: "resource_link", uri, name: basename(path), mimeType: "text/plain", description: `full result of ${tool}` }
  }
}

export const successResult = (result: ToolResult & { readonly link?: Content }): CallResult => {
  const content: Array<Content> = [{ type: "text", text: result.text }]
  if (result.link) content.push(result.link)
  for (const image of result.images ?? []) content.push({ type: "image", data: image.data, mimeType: image.mimeType })
  if (!result.structured) return { content, _meta: { size: sizeMeta(content, undefined) } }
  const { fields, structuredContent } = completeStructured(result.structured, result.text, result.images ?? [], result.link)
  return { content, structuredContent, _meta: { size: sizeMeta(content, fields, structuredContent) } }
}

/** Fields of a tool error beyond the common ones, for structuredContent. */
const extraFields = (error: ServerError): Record<string, unknown> => {
  const { _tag, message, hint, details, cause: _cause, ...rest } = error as unknown as Record<string, unknown>
  return { ...rest, ...((details as object | undefined) ?? {}) }
}

export const errorResult = (error: ServerError): CallResult => {
  const code = errorCode(error)
  const extra = extraFields(error)
  const lines = [`${code}: ${error.message}`]
  if (error._tag === "AssertionFailed") lines.push(`Expected: ${stringify(error.expected)}`, `Actual: ${stringify(error.actual)}`)
  lines.push(`Hint: ${error.hint}`)
  const structured = { error: { code, message: error.message, hint: error.hint, retryable: isRetryable(error), ...extra } }
  const text = lines.join("\n")
  const content: Array<Content> = [{ type: "text", text }]
  const { fields, structuredContent } = completeStructured(structured, text, [])
  return { content, structuredContent, isError: true, _meta: { size: sizeMeta(content, fields, structuredContent) } }
}

const stringify = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value)))
