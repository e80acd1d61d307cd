/**
 * Results as MCP carries them: text for the agent, structuredContent for machines, a size in `_meta`,
 * a cap that moves an oversized result to a file, and the CODE / message / hint shape of failures.
 */
import { writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { outputPath, timestampedName } from "../layers/config/paths.js"
import type { ToolResult } from "../tools/Tool.js"
import { errorCode, isRetryable } from "../tools/errors.js"
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

const sizeMeta = (content: ReadonlyArray<Content>, structured: unknown) => {
  const chars = content.reduce((n, c) => n + (c.type === "text" ? c.text.length : 0), 0) + (structured ? JSON.stringify(structured).length : 0)
  const images = content.filter((c) => c.type === "image").length
  return { chars, approxTokens: approxTokens(chars), ...(images > 0 ? { images } : {}) }
}

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
  const text =
    total > maxChars
      ? `${result.text.slice(0, maxChars)}\n… cut at ${maxChars} of ${total} characters; the full result is in ${path}`
      : result.text
  return {
    ...result,
    text,
    ...(result.structured ? { structured: structuredChars > maxChars ? { truncated: true, fullResult: path, fullResultUri: uri } : result.structured } : {}),
    link: { type: "resource_link", uri, name: basename(path), mimeType: "text/plain", description: `full result of ${tool}` }
  }
}

export const successResult = (result: ToolResult & { readonly link?: Content }): CallResult => {
  const content: Array<Content> = [{ type: "text", text: result.text }]
  if (result.link) content.push(result.link)
  for (const image of result.images ?? []) content.push({ type: "image", data: image.data, mimeType: image.mimeType })
  return {
    content,
    ...(result.structured ? { structuredContent: result.structured } : {}),
    _meta: { size: sizeMeta(content, result.structured) }
  }
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
  const content: Array<Content> = [{ type: "text", text: lines.join("\n") }]
  return { content, structuredContent: structured, isError: true, _meta: { size: sizeMeta(content, structured) } }
}

const stringify = (value: unknown) => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value))
