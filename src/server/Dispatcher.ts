/**
 * Dispatcher: the one MCP tool contract.
 *
 * - `list()` returns the visible tools sorted by name (core tools in the profile, eval tools whose
 *   target is allowed, loaded plugin tools), as the MCP tools/list entries.
 * - `call()` resolves the name and its availability first (unknown, excluded by the profile, eval
 *   target not allowed, plugin not loaded: each with its hint, before any argument is looked at),
 *   then decodes the arguments with the tool's Schema, runs the handler under the operation
 *   timeout, records failures in ServerState and turns every outcome, defects included, into a
 *   tool result.
 */
import { writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { pathToFileURL } from "node:url"
import { Cause, Context, Duration, Effect, JSONSchema, Layer, Option, ParseResult, Schema } from "effect"
import { EvalPolicy } from "../eval-policy/EvalPolicy.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"
import { isCoreToolName } from "../profile/profiles.js"
import {
  errorCode,
  InternalError,
  InvalidArgument,
  isRetryable,
  PluginNotLoaded,
  Timeout,
  UnknownTool,
  type ToolError
} from "../tools/errors.js"
import { coreTools } from "../tools/index.js"
import { isReadOnly, type Tool, type ToolResult, type ToolServices } from "../tools/Tool.js"
import { LoadedPlugins, pluginOfToolName } from "../plugins/PluginLoader.js"
import { ServerConfig } from "../layers/config/ServerConfig.js"
import { ServerState } from "./ServerState.js"
import { outputPath, timestampedName } from "../layers/config/paths.js"

/** One entry of the tools/list payload. */
export interface ListedTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown }
  readonly annotations: Record<string, boolean>
}

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

/** Removes what JSON Schema generation adds that an agent does not need (it costs tokens in every session). */
export const compactJsonSchema = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(compactJsonSchema)
  if (schema === null || typeof schema !== "object") return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === "$schema" || key === "title" || key === "$id") continue
    if (key === "additionalProperties" && value === false) continue
    if (key === "required" && Array.isArray(value) && value.length === 0) continue
    if (key === "properties" && value && typeof value === "object" && Object.keys(value).length === 0 && "additionalProperties" in (schema as object)) continue
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, compactJsonSchema(v)])) : compactJsonSchema(value)
  }
  return out
}

export const inputJsonSchema = (tool: Tool): ListedTool["inputSchema"] => {
  const schema = compactJsonSchema(JSONSchema.make(tool.input)) as Record<string, unknown>
  return { ...schema, type: "object" } as ListedTool["inputSchema"]
}

/** MCP annotations that match the operation type. */
export const annotationsOf = (tool: Tool): Record<string, boolean> =>
  isReadOnly(tool)
    ? { readOnlyHint: true, openWorldHint: tool.openWorld === true }
    : { readOnlyHint: false, destructiveHint: tool.destructive === true, openWorldHint: tool.openWorld === true }

export const toListedTool = (tool: Tool): ListedTool => ({
  name: tool.name,
  description: tool.description,
  inputSchema: inputJsonSchema(tool),
  annotations: annotationsOf(tool)
})

const byName = (a: { readonly name: string }, b: { readonly name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)

/** Levenshtein distance, for near-miss suggestions. */
const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const temp = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1))
      previous = temp
    }
  }
  return row[b.length]!
}

export const nearMisses = (name: string, candidates: ReadonlyArray<string>, max = 3): ReadonlyArray<string> => {
  const bare = name.replace(/^electron_/, "")
  return candidates
    .map((candidate) => {
      const other = candidate.replace(/^electron_/, "")
      const d = distance(bare, other)
      const contains = other.includes(bare) || bare.includes(other)
      return { candidate, score: contains ? Math.min(d, 1) : d }
    })
    .filter(({ score, candidate }) => score <= Math.max(2, Math.floor(candidate.length / 4)))
    .sort((a, b) => a.score - b.score || byName({ name: a.candidate }, { name: b.candidate }))
    .slice(0, max)
    .map(({ candidate }) => candidate)
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
 * is written to a file under `outputDir`, returned as a resource link.
 */
export const capResult = (tool: string, result: ToolResult, maxChars: number, outputDir: string): ToolResult & { readonly link?: Content } => {
  const structuredChars = result.structured ? JSON.stringify(result.structured).length : 0
  if (result.text.length <= maxChars && structuredChars <= maxChars) return result
  const path = outputPath(join(outputDir, "responses"), timestampedName(tool, ".txt"), ".txt")
  if (typeof path !== "string") return result
  writeFileSync(path, result.structured ? `${result.text}\n\n--- structuredContent ---\n${JSON.stringify(result.structured, null, 1)}` : result.text)
  const total = result.text.length
  const text =
    total > maxChars
      ? `${result.text.slice(0, maxChars)}\n… cut at ${maxChars} of ${total} characters; the full result is in ${path}`
      : result.text
  return {
    ...result,
    text,
    ...(result.structured ? { structured: structuredChars > maxChars ? { truncated: true, fullResult: path } : result.structured } : {}),
    link: { type: "resource_link", uri: pathToFileURL(path).href, name: basename(path), mimeType: "text/plain", description: `full result of ${tool}` }
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
const extraFields = (error: ToolError): Record<string, unknown> => {
  const { _tag, message, hint, details, ...rest } = error as unknown as Record<string, unknown>
  return { ...rest, ...((details as object | undefined) ?? {}) }
}

export const errorResult = (error: ToolError): CallResult => {
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

/** Bounds on a call's arguments, checked without recursion before anything formats or decodes them. */
export const ARGUMENT_LIMITS = { depth: 32, nodes: 200_000, chars: 12_000_000 } as const

export const argumentsTooLarge = (args: unknown): string | undefined => {
  const stack: Array<readonly [unknown, number]> = [[args, 0]]
  let nodes = 0
  let chars = 0
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!
    if (++nodes > ARGUMENT_LIMITS.nodes) return `arguments have more than ${ARGUMENT_LIMITS.nodes} values`
    if (typeof value === "string") {
      chars += value.length
      if (chars > ARGUMENT_LIMITS.chars) return `arguments hold more than ${ARGUMENT_LIMITS.chars} characters`
    } else if (value !== null && typeof value === "object") {
      if (depth >= ARGUMENT_LIMITS.depth) return `arguments are nested deeper than ${ARGUMENT_LIMITS.depth} levels`
      for (const [key, child] of Object.entries(value)) {
        chars += key.length
        stack.push([child, depth + 1])
      }
    }
  }
  return undefined
}

const MAX_ISSUE_CHARS = 300

/** One line per argument path; the alternatives of a union are merged into one "Expected a | b". */
export const formatDecodeError = (error: ParseResult.ParseError): string => {
  const byPath = new Map<string, Array<string>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(arguments)"
    byPath.set(path, [...(byPath.get(path) ?? []), issue.message])
  }
  const shorten = (text: string) => (text.length > MAX_ISSUE_CHARS ? `${text.slice(0, MAX_ISSUE_CHARS - 1)}…` : text)
  return [...byPath]
    .slice(0, 20)
    .map(([path, messages]) => {
      const parsed = messages.map((m) => /^Expected (.*), actual (.*)$/s.exec(m))
      if (messages.length > 1 && parsed.every((m) => m !== null)) {
        return shorten(`${path}: Expected ${[...new Set(parsed.map((m) => m![1]))].join(" | ")}, actual ${parsed[0]![2]}`)
      }
      return shorten(`${path}: ${[...new Set(messages)].join("; ")}`)
    })
    .join("; ")
}

/** MCP's tools/call arguments: an object, or absent (undefined or null, read as {}). */
export const isArgumentObject = (args: unknown): boolean =>
  args === undefined || args === null || (typeof args === "object" && !Array.isArray(args))

export interface DispatcherShape {
  /** The visible tools, sorted by name. */
  readonly tools: ReadonlyArray<Tool>
  readonly list: () => ReadonlyArray<ListedTool>
  readonly call: (name: string, args: unknown) => Effect.Effect<CallResult>
}

export class Dispatcher extends Context.Tag("stagewright/Dispatcher")<Dispatcher, DispatcherShape>() {
  static readonly layer = Layer.effect(
    Dispatcher,
    Effect.gen(function* () {
      const profile = yield* ProfileSelector
      const policy = yield* EvalPolicy
      const plugins = yield* LoadedPlugins
      const config = yield* ServerConfig
      const state = yield* ServerState
      const context = yield* Effect.context<ToolServices>()

      const known = new Map<string, Tool>()
      for (const tool of [...coreTools, ...plugins.tools]) known.set(tool.name, tool)

      const isVisible = (tool: Tool) =>
        (tool.evalTarget === undefined || policy.isAllowed(tool.evalTarget)) &&
        (tool.plugin !== undefined || tool.evalTarget !== undefined || profile.isActive(tool.name))

      const visible = [...known.values()].filter(isVisible).sort(byName)
      const listed = visible.map(toListedTool)

      const resolveTool = (name: string): Effect.Effect<Tool, ToolError> =>
        Effect.gen(function* () {
          // A catalog name outside the selection is answered as such, whatever else is true of it.
          if (isCoreToolName(name)) yield* profile.check(name)
          const tool = known.get(name)
          if (tool === undefined) {
            const plugin = pluginOfToolName(name, plugins.available)
            if (plugin !== undefined) {
              return yield* new PluginNotLoaded({
                message: `${name} belongs to the ${plugin} plugin, which is not loaded`,
                hint: `restart with --plugin ${plugin}`,
                tool: name,
                plugin
              })
            }
            const shown = name.length > 80 ? `${name.slice(0, 79)}…` : name
            const suggestions = name.length > 80 ? [] : nearMisses(name, [...known.keys()].filter((n) => isVisible(known.get(n)!)))
            return yield* new UnknownTool({
              message: `There is no tool named ${shown}`,
              hint: suggestions.length > 0 ? `Did you mean ${suggestions.join(" or ")}?` : "Call one of the tools from tools/list.",
              tool: shown,
              suggestions
            })
          }
          if (tool.evalTarget !== undefined) yield* policy.authorize(tool.name, tool.evalTarget)
          return tool
        })

      // Schema.Struct({}) accepts any object; a tool without parameters must still reject unknown ones.
      const takesNothing = new Set(
        [...known.values()].filter((t) => Object.keys((inputJsonSchema(t).properties as object | undefined) ?? {}).length === 0).map((t) => t.name)
      )

      const decode = (tool: Tool, args: unknown) => {
        const problem = argumentsTooLarge(args)
        return problem !== undefined
          ? Effect.fail(new InvalidArgument({ message: `${tool.name}: ${problem}`, hint: "Send plain, reasonably sized JSON arguments as the inputSchema describes." }))
          : decodeShaped(tool, args)
      }

      const decodeShaped = (tool: Tool, args: unknown) =>
        !isArgumentObject(args)
          ? Effect.fail(
              new InvalidArgument({
                message: `${tool.name}: arguments must be a JSON object, not ${Array.isArray(args) ? "an array" : typeof args}`,
                hint: "Send the arguments as an object, {} when there are none."
              })
            )
          : takesNothing.has(tool.name) && args !== null && typeof args === "object" && Object.keys(args).length > 0
          ? Effect.fail(
              new InvalidArgument({
                message: `${tool.name}: ${Object.keys(args).join(", ")}: unexpected, this tool takes no arguments`,
                hint: "Call it with {}."
              })
            )
          : Schema.decodeUnknown(tool.input, { onExcessProperty: "error", errors: "all" })(args ?? {}).pipe(
          Effect.mapError(
            (error) =>
              new InvalidArgument({
                message: `${tool.name}: ${formatDecodeError(error)}`,
                hint: "Fix the named argument; the tool's inputSchema gives the expected form and defaults."
              })
          )
        )

      const call = (name: string, args: unknown): Effect.Effect<CallResult> =>
        Effect.gen(function* () {
          yield* state.recordCall
          const tool = yield* resolveTool(name)
          const input = yield* decode(tool, args)
          return yield* tool.handler(input).pipe(
            Effect.timeoutFail({
              duration: Duration.millis(config.operationTimeoutMs),
              onTimeout: () =>
                new Timeout({
                  message: `${name} did not finish within ${config.operationTimeoutMs} ms (--operation-timeout-ms)`,
                  hint: "Retry; if the app is stuck, electron_status shows its state and electron_close ends it."
                })
            })
          )
        }).pipe(
          Effect.map((result) => successResult(capResult(name, result, config.maxResponseChars, config.outputDir))),
          Effect.catchAllCause((cause) => {
            const failure = Cause.failureOption(cause)
            const error: ToolError = Option.isSome(failure)
              ? failure.value
              : Cause.isInterruptedOnly(cause)
                ? new Timeout({ message: `${name} was cancelled`, hint: "Call it again when needed." })
                : new InternalError({ message: `${name} failed unexpectedly: ${Cause.pretty(cause).split("\n")[0]}` })
            const logDefect = error._tag === "InternalError" ? Effect.logError(`defect in ${name}`, cause) : Effect.void
            const tool = known.get(name)
            const breadcrumb = {
              tool: name,
              code: errorCode(error),
              message: error.message,
              args,
              runsCallerCode: tool?.evalTarget !== undefined || /^\s*javascript:/i.test(String((args as { url?: unknown } | null)?.url ?? ""))
            }
            return Effect.as(Effect.zipRight(logDefect, state.recordFailure(breadcrumb)), errorResult(error))
          }),
          Effect.provide(context),
          Effect.withSpan("Dispatcher.call", { attributes: { tool: name } })
        )

      return Dispatcher.of({ tools: visible, list: () => listed, call })
    })
  )
}
