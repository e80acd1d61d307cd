/**
 * The two ways a host pays for an MCP server's tools (issue 40), per task:
 * - eager: every listed tool's schema is sent with the task (counted once per task, as hosts that send the
 *   whole tools/list each request pay at least that), plus the server instructions, requests and responses;
 * - on demand: the host shows the tool names only, the model searches (a search call, ~150 tokens) and loads
 *   a tool's schema the first time the task uses it; then the same instructions, requests and responses.
 * Inline images are counted in both at a host's pixel cost (width × height / 750 after the host's resize to
 * at most 1568 px on the long edge and 1.15 megapixels), never as base64 text.
 */
import { bpe } from "./scoring.js"

/** A search over the deferred tools: the call and its short answer (the host's own figure, ~150 tokens). */
export const SEARCH_CALL_BPE = 150
/** An image whose size cannot be read is counted at a typical window screenshot's cost. */
export const DEFAULT_IMAGE_TOKENS = 1400

/** Width and height of a base64 PNG (its IHDR), when it is one. */
export const pngDims = (base64: string): { readonly width: number; readonly height: number } | undefined => {
  try {
    const head = Buffer.from(base64.slice(0, 64), "base64")
    if (head.length < 24 || head.readUInt32BE(0) !== 0x89504e47) return undefined
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) }
  } catch {
    return undefined
  }
}

/** The tokens a host charges for one inline image of this size. */
export const imageTokens = (dims: { readonly width: number; readonly height: number } | undefined): number => {
  if (dims === undefined || dims.width <= 0 || dims.height <= 0) return DEFAULT_IMAGE_TOKENS
  const scale = Math.min(1, 1568 / Math.max(dims.width, dims.height), Math.sqrt(1_150_000 / (dims.width * dims.height)))
  return Math.ceil((dims.width * scale * (dims.height * scale)) / 750)
}

/** The pixel cost of the image items of one result. */
export const imageCost = (content: ReadonlyArray<{ readonly type: string; readonly data?: string }>): number =>
  content.filter((c) => c.type === "image").reduce((a, c) => a + imageTokens(pngDims(c.data ?? "")), 0)

/** The names index a deferring host shows: one tool name a line. */
export const namesIndexBpe = (tools: ReadonlyArray<{ readonly name: string }>): number => bpe(tools.map((t) => t.name).join("\n"))

/** One tool's schema as tools/list carries it (name, description, input schema, annotations). */
export const schemaBpe = (tool: unknown): number => bpe(JSON.stringify(tool))

export interface Accounting {
  readonly eagerBpe: number
  readonly onDemandBpe: number
  readonly imageTokens: number
  readonly instructionsBpe: number
  readonly namesIndexBpe: number
  /** Schemas loaded on demand (each tool's the first time the task used it) and the search calls that found them. */
  readonly loadedSchemasBpe: number
  readonly searches: number
}

export const accountingOf = (input: {
  readonly manifestBpe: number
  readonly instructions: string
  readonly tools: ReadonlyArray<{ readonly name: string }>
  /** Tools/list read again after a profile switch (the switch variant): their names count again on demand. */
  readonly relisted: ReadonlyArray<ReadonlyArray<{ readonly name: string }>>
  readonly toolsUsedInOrder: ReadonlyArray<string>
  readonly responseBpe: number
  readonly requestBpe: number
  readonly imageTokens: number
}): Accounting => {
  const instructionsBpe = bpe(input.instructions)
  const known = new Map<string, unknown>()
  for (const list of [input.tools, ...input.relisted]) for (const t of list) known.set(t.name, t)
  const used = [...new Set(input.toolsUsedInOrder)]
  const loadedSchemasBpe = used.reduce((a, name) => a + schemaBpe(known.get(name) ?? { name }), 0)
  const names = namesIndexBpe(input.tools) + input.relisted.reduce((a, l) => a + namesIndexBpe(l), 0)
  const common = instructionsBpe + input.responseBpe + input.requestBpe + input.imageTokens
  return {
    eagerBpe: input.manifestBpe + common,
    onDemandBpe: names + loadedSchemasBpe + used.length * SEARCH_CALL_BPE + common,
    imageTokens: input.imageTokens,
    instructionsBpe,
    namesIndexBpe: names,
    loadedSchemasBpe,
    searches: used.length
  }
}
