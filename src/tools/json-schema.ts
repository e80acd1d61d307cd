/**
 * How a tool is listed to hosts: its compact JSON Schema (no $schema, titles or empty noise: every byte
 * sits in each session's context), its MCP annotations and its tools/list entry.
 */
import { JSONSchema } from "effect"
import { isReadOnly, type Tool } from "./Tool.js"

/** One entry of the tools/list payload. */
export interface ListedTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown }
  readonly annotations: Record<string, boolean>
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

const schemas = new WeakMap<object, ListedTool["inputSchema"]>()

/** A tool's input as compact JSON Schema; made once per input Schema (listing and checks share it). */
export const inputJsonSchema = (tool: Tool<any, any>): ListedTool["inputSchema"] => {
  const known = schemas.get(tool.input)
  if (known !== undefined) return known
  const schema = { ...(compactJsonSchema(JSONSchema.make(tool.input)) as Record<string, unknown>), type: "object" } as ListedTool["inputSchema"]
  schemas.set(tool.input, schema)
  return schema
}

/** MCP annotations that match the operation type. */
export const annotationsOf = (tool: Tool<any, any>): Record<string, boolean> =>
  isReadOnly(tool)
    ? { readOnlyHint: true, openWorldHint: tool.openWorld === true }
    : { readOnlyHint: false, destructiveHint: tool.destructive === true, openWorldHint: tool.openWorld === true }

export const toListedTool = (tool: Tool<any, any>): ListedTool => ({
  name: tool.name,
  description: tool.description,
  inputSchema: inputJsonSchema(tool),
  annotations: annotationsOf(tool)
})
