/**
 * How a tool is listed to hosts: its compact JSON Schema (no $schema, titles or empty noise: every byte
 * sits in each session's context), its MCP annotations and its tools/list entry.
 */
import { JSONSchema } from "effect"
import { annotationsOf } from "../contract/annotations.js"
import { toolTitle, type Tool } from "../contract/Tool.js"

/** One entry of the tools/list payload. */
export interface ListedTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown }
  readonly annotations: Record<string, boolean>
}

/**
 * The subset of JSON Schema every model API accepts in a tool's input (Anthropic, OpenAI, Bedrock, Vertex
 * and Gemini): a listed schema uses no other keyword, and its top level is a plain object schema.
 */
export const PORTABLE_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "description",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "pattern",
  "anyOf"
])

/**
 * What Effect writes as the description of a refinement that has none of its own ("a string at most 40
 * character(s) long", "a non-negative number", "an array of at most 100 item(s)", "an integer"): it repeats
 * the schema's own keywords (maxLength, minimum, maxItems, type), so it tells the model nothing and is dropped.
 */
export const GENERATED_DESCRIPTION =
  /^an? (?:string|number|integer|array|non-negative number|positive number|negative number|non-positive number|non empty string|finite number)(?: (?:at most|at least|between|of at most|of at least|of exactly|less than|greater than|matching)\b.*)?$/

/**
 * Turns Effect's JSON Schema into the portable, compact form hosts receive: no $schema, $id, titles or
 * generated descriptions (GENERATED_DESCRIPTION);
 * a record is `additionalProperties: <value schema>` (not patternProperties/propertyNames: the key bounds
 * stay enforced by the decoder); an integer's exclusiveMinimum becomes its minimum; a struct keeps
 * `additionalProperties: false`, which the dispatcher enforces (unknown keys are refused).
 */
export const compactJsonSchema = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(compactJsonSchema)
  if (schema === null || typeof schema !== "object") return schema
  const source = schema as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(source)) {
    if (key === "$schema" || key === "title" || key === "$id" || key === "propertyNames") continue
    if (key === "required" && Array.isArray(value) && value.length === 0) continue
    if (key === "description" && typeof value === "string" && GENERATED_DESCRIPTION.test(value)) continue
    if (key === "patternProperties" && value !== null && typeof value === "object" && Object.keys(value).length === 1 && "" in value) {
      out.additionalProperties = compactJsonSchema((value as Record<string, unknown>)[""])
      continue
    }
    if (key === "exclusiveMinimum" && typeof value === "number" && source.type === "integer") {
      out.minimum = value + 1
      continue
    }
    out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, compactJsonSchema(v)])) : compactJsonSchema(value)
  }
  // A record lists no properties of its own: its value schema says it all.
  if (out.properties !== undefined && Object.keys(out.properties as object).length === 0 && typeof out.additionalProperties === "object") delete out.properties
  return out
}

/** The top level hosts receive: always `{ type: "object", properties, … }`, never a combinator. */
const objectSchema = (schema: Record<string, unknown>): ListedTool["inputSchema"] => {
  // Effect describes an empty struct as "an object or an array"; the dispatcher accepts {} only.
  if (schema.anyOf !== undefined && schema.properties === undefined) return { type: "object", properties: {}, additionalProperties: false }
  return { type: "object", ...schema, properties: schema.properties ?? {} } as ListedTool["inputSchema"]
}

const schemas = new WeakMap<object, ListedTool["inputSchema"]>()

/** A tool's input as compact JSON Schema; made once per input Schema (listing and checks share it). */
export const inputJsonSchema = (tool: Tool<any, any>): ListedTool["inputSchema"] => {
  const known = schemas.get(tool.input)
  if (known !== undefined) return known
  const schema = objectSchema(compactJsonSchema(JSONSchema.make(tool.input)) as Record<string, unknown>)
  schemas.set(tool.input, schema)
  return schema
}

export const toListedTool = (tool: Tool<any, any>): ListedTool => ({
  name: tool.name,
  title: toolTitle(tool),
  description: tool.description,
  inputSchema: inputJsonSchema(tool),
  annotations: { ...annotationsOf(tool) }
})
export { annotationsOf } from "../contract/annotations.js"
