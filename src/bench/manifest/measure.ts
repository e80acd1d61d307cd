/**
 * Measures what a host pays for Stagewright's tools/list (and the server's instructions): for each variant, a real MCP client and
 * server on the SDK's in-memory linked pair (the server built from the public `serverLayer`), the
 * parsed `{ tools }` serialized with JSON.stringify, counted in Unicode code points, UTF-8 bytes and
 * o200k_base BPE tokens, with the sorted names and each tool's own size.
 *
 * This module, and only src/bench/, depends on gpt-tokenizer (a devDependency).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Data, Effect } from "effect"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base"
import { McpServer, PluginLoader, serverLayer, VERSION } from "../../index.js"
import { serverConfigOf, type Variant } from "./variants.js"

/** The tokenizer every figure is counted with. */
export const ENCODING = "o200k_base" as const

/** How many of the largest tools a measurement names. */
export const LARGEST = 10

export class McpClientFailed extends Data.TaggedError("McpClientFailed")<{ readonly variant: string; readonly step: string; readonly cause: unknown }> {
  override get message() {
    return `${this.variant}: ${this.step} failed: ${this.cause instanceof Error ? this.cause.message : String(this.cause)}`
  }
}

export interface TextSize {
  readonly codePoints: number
  readonly bytes: number
  readonly bpe: number
}

export interface ToolSize extends TextSize {
  readonly name: string
}

export interface Measurement extends TextSize {
  readonly variant: string
  /** Number of tools listed. */
  readonly tools: number
  /** BPE tokens per tool, rounded to one decimal. */
  readonly bpePerTool: number
  /** Tool names, sorted by UTF-16 code units (the canonical order). */
  readonly names: ReadonlyArray<string>
  /** Whether the server listed them in that order already (the Dispatcher promises it). */
  readonly listedSorted: boolean
  /** The ten largest tools by BPE tokens (ties by name). */
  readonly largest: ReadonlyArray<ToolSize>
  /** Every tool's own size (its entry serialized alone), sorted by name. */
  readonly perTool: ReadonlyArray<ToolSize>
}

/** Special-token markers in a description are ordinary text to a host: never reject them. */
const TOKENIZE_OPTIONS = { disallowedSpecial: new Set<string>() }

export const sizeOf = (text: string): TextSize => {
  let codePoints = 0
  for (const _ of text) codePoints++
  return { codePoints, bytes: Buffer.byteLength(text, "utf8"), bpe: countTokens(text, TOKENIZE_OPTIONS) }
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Measures a parsed tools/list payload (pure apart from the tokenizer). */
export const measureTools = (variant: string, tools: ReadonlyArray<{ readonly name: string }>, instructions?: string): Measurement => {
  // What a host receives before any call: the server's instructions (initialize) and the tools/list payload.
  const total = sizeOf(JSON.stringify({ instructions, tools }))
  const listed = tools.map((t) => t.name)
  const names = [...listed].sort(byName)
  const perTool = tools.map((tool) => ({ name: tool.name, ...sizeOf(JSON.stringify(tool)) })).sort((a, b) => byName(a.name, b.name))
  const largest = [...perTool].sort((a, b) => b.bpe - a.bpe || byName(a.name, b.name)).slice(0, LARGEST)
  return {
    variant,
    tools: tools.length,
    ...total,
    bpePerTool: tools.length === 0 ? 0 : Math.round((total.bpe / tools.length) * 10) / 10,
    names,
    listedSorted: listed.every((name, i) => name === names[i]),
    largest,
    perTool
  }
}

/** Connects an SDK client to the server over the in-memory pair; closed with the scope. */
const connectClient = (variant: string) =>
  Effect.gen(function* () {
    const mcp = yield* McpServer
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
    yield* mcp.connect(serverTransport).pipe(Effect.mapError((cause) => new McpClientFailed({ variant, step: "server connect", cause })))
    return yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: async () => {
          const client = new Client({ name: "stagewright-manifest-bench", version: VERSION })
          await client.connect(clientTransport)
          return client
        },
        catch: (cause) => new McpClientFailed({ variant, step: "client connect", cause })
      }),
      (client) => Effect.promise(() => client.close().catch(() => undefined))
    )
  })

/** tools/list, following nextCursor until the last page; returns the parsed tools of every page. */
export const listAllTools = (variant: string, client: Client) =>
  Effect.gen(function* () {
    const tools: Array<{ readonly name: string }> = []
    let cursor: string | undefined = undefined
    for (let page = 0; ; page++) {
      if (page >= 1000) return yield* new McpClientFailed({ variant, step: "tools/list", cause: new Error("more than 1000 pages: the cursor never ends") })
      const params: { cursor?: string } = cursor === undefined ? {} : { cursor }
      const result = yield* Effect.tryPromise({
        try: () => client.listTools(params),
        catch: (cause) => new McpClientFailed({ variant, step: "tools/list", cause })
      })
      tools.push(...result.tools)
      cursor = result.nextCursor
      if (cursor === undefined) return tools
    }
  })

/** The server's instructions and parsed tools/list of one variant, from a fresh server built for it. */
export const listVariantPayload = (variant: Variant) =>
  Effect.gen(function* () {
    const client = yield* connectClient(variant.name)
    const tools = yield* listAllTools(variant.name, client)
    return { instructions: client.getInstructions(), tools }
  }).pipe(
    Effect.scoped,
    Effect.provide(serverLayer(serverConfigOf(variant))),
    Effect.withSpan("manifest.listVariant", { attributes: { variant: variant.name } })
  )

/** The parsed tools/list of one variant. */
export const listVariant = (variant: Variant) => Effect.map(listVariantPayload(variant), (payload) => payload.tools)

/** Measures one variant: its own server (one per variant: each is a different configuration). */
export const measureVariant = (variant: Variant) =>
  Effect.map(listVariantPayload(variant), ({ instructions, tools }) => measureTools(variant.name, tools, instructions))

export const measureVariants = (variants: ReadonlyArray<Variant>) => Effect.forEach(variants, measureVariant)

/** The first-party plugin names, from the public PluginLoader (with nothing loaded, all are available). */
export const firstPartyPluginNames = Effect.flatMap(PluginLoader, (loader) => loader.load([])).pipe(
  Effect.map((loaded) => loaded.available),
  Effect.provide(PluginLoader.layer)
)
