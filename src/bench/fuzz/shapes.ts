/** Call kinds, decode predicates and the shape of each tool's arguments, for the fuzz generator (./index.ts). */
import { CallToolRequestParamsSchema } from "@modelcontextprotocol/sdk/types.js"
import { Either, JSONSchema, Schema } from "effect"
import { ErrorCodes, type Tool } from "../../index.js"

export type CallKind = "valid" | "json-value" | "anything" | "wrong-type" | "extra-key" | "huge-string" | "deep-nesting" | "missing-required" | "bad-name"

export const MALFORMED_KINDS: ReadonlyArray<Exclude<CallKind, "valid">> = [
  "json-value",
  "anything",
  "wrong-type",
  "extra-key",
  "huge-string",
  "deep-nesting",
  "missing-required",
  "bad-name"
]

/** Short column names for the tables. */
export const KIND_LABEL: Record<CallKind, string> = {
  valid: "valid",
  "json-value": "json",
  anything: "any",
  "wrong-type": "wrongT",
  "extra-key": "extra",
  "huge-string": "huge",
  "deep-nesting": "deep",
  "missing-required": "missing",
  "bad-name": "name"
}

export interface FuzzCall {
  readonly kind: CallKind
  readonly tool: string
  readonly args: unknown
}

/** Tools that start or connect to real processes: never sent a call that would decode. */
export const PROCESS_TOOLS: ReadonlyArray<string> = ["electron_launch", "electron_attach"]

/** Names of first-party plugins (a tool name `electron_<plugin>_x` answers PLUGIN_NOT_LOADED). */
export const PLUGIN_NAMES: ReadonlyArray<string> = [
  "production",
  "ipc",
  "storage",
  "network",
  "a11y",
  "visual",
  "emulation",
  "native",
  "perf",
  "clock",
  "trace",
  "video"
]

export const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCodes))

// ---------------------------------------------------------------------------------------------
// Schema helpers

/**
 * MCP's shape of tools/call `arguments`, from the SDK's own schema of the request (a record, or
 * absent), plus the Dispatcher's documented reading of `null` as `{}`. The oracle states the contract
 * from the spec rather than importing the Dispatcher's check: a mistake there would otherwise hide
 * itself. For the JSON values the generator draws, the two agree.
 */
const ARGUMENTS = CallToolRequestParamsSchema.shape.arguments
const isArgumentShape = (args: unknown): boolean => args === null || ARGUMENTS.safeParse(args).success

/**
 * Whether the Dispatcher's decoding would accept `args` for `tool`: the arguments shape MCP allows, the
 * same Schema options, the same `null -> {}` default, and its guard for tools without parameters
 * (`Schema.Struct({})` alone accepts any object). The Dispatcher's size and depth bounds are not
 * mirrored: they only reject more.
 */
export const wouldDecode = (tool: Tool<any, any>, args: unknown): boolean => {
  if (!isArgumentShape(args)) return false
  if (fieldsOf(tool).length === 0 && args !== null && typeof args === "object" && Object.keys(args).length > 0) return false
  return Either.isRight(Schema.decodeUnknownEither(tool.input, { onExcessProperty: "error" })(args ?? {}))
}

/** `value` without own `__proto__` keys, at any depth: what the MCP SDK's request parsing leaves of them. */
export const withoutProtoKeys = (value: unknown, depth = 0): unknown => {
  if (depth > 50 || value === null || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map((v) => withoutProtoKeys(v, depth + 1))
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== "__proto__")
      .map(([k, v]) => [k, withoutProtoKeys(v, depth + 1)])
  )
}

/**
 * Whether `args` could decode on any path to the Dispatcher: as they are, after a JSON round trip
 * (undefined fields drop out), or after the MCP SDK drops `__proto__` keys. Used to keep every call
 * to a process tool from ever reaching its handler.
 */
export const mayDecode = (tool: Tool<any, any>, args: unknown): boolean => {
  if (wouldDecode(tool, args) || wouldDecode(tool, withoutProtoKeys(args))) return true
  try {
    const wire = JSON.parse(JSON.stringify(args) ?? "null") as unknown
    return wouldDecode(tool, wire) || wouldDecode(tool, withoutProtoKeys(wire))
  } catch {
    return false
  }
}

interface JsonSchemaNode {
  readonly type?: string | ReadonlyArray<string>
  readonly maxLength?: number
  readonly minLength?: number
  readonly properties?: Record<string, JsonSchemaNode>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchemaNode
  readonly anyOf?: ReadonlyArray<JsonSchemaNode>
}

export interface FieldInfo {
  readonly name: string
  readonly required: boolean
  /** maxLength of the field's string form, when it has one (directly, as array items or in a union). */
  readonly maxLength: number | undefined
  readonly isString: boolean
  readonly isArray: boolean
}

const stringNode = (node: JsonSchemaNode | undefined): JsonSchemaNode | undefined => {
  if (node === undefined) return undefined
  if (node.type === "string") return node
  if (node.type === "array") return stringNode(node.items)
  for (const alternative of node.anyOf ?? []) {
    const found = stringNode(alternative)
    if (found) return found
  }
  return undefined
}

const jsonSchemas = new WeakMap<Tool, JsonSchemaNode>()
const jsonSchemaOf = (tool: Tool<any, any>): JsonSchemaNode => {
  let schema = jsonSchemas.get(tool)
  if (schema === undefined) {
    schema = JSONSchema.make(tool.input) as JsonSchemaNode
    jsonSchemas.set(tool, schema)
  }
  return schema
}

/** The top-level fields of a tool's input, read from its JSON Schema. */
export const fieldsOf = (tool: Tool<any, any>): ReadonlyArray<FieldInfo> => {
  const schema = jsonSchemaOf(tool)
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties ?? {}).map(([name, node]) => {
    const str = stringNode(node)
    return { name, required: required.has(name), maxLength: str?.maxLength, isString: str !== undefined, isArray: node.type === "array" }
  })
}

// ---------------------------------------------------------------------------------------------
// Values

/** A value JSON carries unchanged: null, booleans, finite numbers (not -0), strings, dense arrays, plain objects. */
export const isJsonSerializable = (value: unknown, depth = 0): boolean => {
  if (depth > 200) return false
  if (value === null || typeof value === "boolean" || typeof value === "string") return true
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0)
  if (Array.isArray(value)) {
    if (Object.keys(value).length !== value.length) return false
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonSerializable(value[i], depth + 1)) return false
    return true
  }
  if (typeof value === "object") {
    if (Object.getPrototypeOf(value) !== Object.prototype) return false
    if (Object.getOwnPropertySymbols(value).length > 0) return false
    return Object.entries(value as Record<string, unknown>).every(([key, v]) => key !== "__proto__" && isJsonSerializable(v, depth + 1))
  }
  return false
}

/** `value` nested `depth` times in arrays or objects. Built iteratively (a recursive builder would overflow first). */
export const nested = (depth: number, shape: "array" | "object", leaf: unknown = "x"): unknown => {
  let value = leaf
  for (let i = 0; i < depth; i++) value = shape === "array" ? [value] : { a: value }
  return value
}

/** A bounded, cycle- and depth-safe preview of a value for failure messages. */
export const preview = (value: unknown, max = 300): string => {
  const walk = (v: unknown, depth: number): string => {
    if (depth > 6) return "…"
    if (typeof v === "string") return JSON.stringify(v.length > 80 ? `${v.slice(0, 60)}…(${v.length} chars)` : v)
    if (v === undefined) return "undefined"
    if (typeof v === "bigint") return `${v}n`
    if (v === null || typeof v !== "object") return String(v)
    if (Array.isArray(v))
      return `[${v
        .slice(0, 5)
        .map((x) => walk(x, depth + 1))
        .join(",")}${v.length > 5 ? `,…${v.length}` : ""}]`
    const entries = Object.entries(v as Record<string, unknown>)
    return `{${entries
      .slice(0, 8)
      .map(([k, x]) => `${JSON.stringify(k)}:${walk(x, depth + 1)}`)
      .join(",")}${entries.length > 8 ? ",…" : ""}}`
  }
  const text = walk(value, 0)
  return text.length > max ? `${text.slice(0, max)}…` : text
}
