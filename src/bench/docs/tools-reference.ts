/**
 * docs/TOOLS.md, generated from the documentation manifest (what `stagewright tools --json` prints):
 * core groups in catalog order, then the eval tools, then each first-party plugin; tools sorted by
 * name within a group; for each tool its description, operation type, eval target, profiles, plugin,
 * parameters (from its JSON Schema) and error codes. Deterministic: the same tools give the same text.
 *
 *   npm run docs:tools            regenerate docs/TOOLS.md (entry point: ./main.ts)
 */
import { Effect, SchemaAST } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { repoRoot } from "../repo-root.js"
import {
  CORE_GROUPS,
  CORE_TOOL_NAMES,
  defaultServerConfig,
  coreTools,
  DEFAULT_PROFILE,
  documentationManifest,
  type ManifestEntry,
  PluginLoader,
  PluginValue,
  PROFILE_NAMES,
  PROFILES
} from "../../index.js"

export interface PluginInfo {
  readonly name: string
  readonly purpose: string
  /** docs/plugins/NAME.md, when the plugin has one: shown in its section as written (Markdown). */
  readonly readme?: string | undefined
}

/** A first-party plugin's own page (docs/plugins/NAME.md), if it has one. */
const pluginReadme = (name: string): string | undefined => {
  const path = join(repoRoot(), "docs", "plugins", `${name}.md`)
  return existsSync(path) ? readFileSync(path, "utf8").trim() : undefined
}

export interface ReferenceInput {
  readonly tools: ReadonlyArray<ManifestEntry>
  readonly plugins: ReadonlyArray<PluginInfo>
}

/** The documentation manifest of every core and eval tool and every first-party plugin's tools, as the CLI builds it. */
export const loadReferenceInput = Effect.gen(function* () {
  const loader = yield* PluginLoader
  const available = (yield* loader.load([])).available
  const loaded = yield* loader.load(available)
  return {
    tools: documentationManifest([...coreTools, ...loaded.tools]),
    plugins: loaded.plugins.map((p) => ({ name: p.name, purpose: p.purpose, readme: pluginReadme(p.name) }))
  } satisfies ReferenceInput
}).pipe(Effect.provide(PluginLoader.layer))

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

// ---------------------------------------------------------------------------------------------
// Markdown escaping

/** Escapes what Markdown would read as markup outside code spans (`<tag>`, `*`). */
const escapeText = (text: string) =>
  text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\*/g, "\\*")))
    .join("")

/** A table cell: one line, pipes escaped (GFM requires it even inside code spans). */
const cell = (text: string) => escapeText(text.replace(/\s*\n\s*/g, " ")).replace(/\|/g, "\\|")

const code = (text: string) => `\`${text}\``

// ---------------------------------------------------------------------------------------------
// JSON Schema -> parameter rows

type JsonSchema = Record<string, unknown>

const isObject = (u: unknown): u is JsonSchema => u !== null && typeof u === "object" && !Array.isArray(u)

const json = (value: unknown) => JSON.stringify(value)

const range = (what: string, min: unknown, max: unknown) => {
  if (typeof min === "number" && typeof max === "number") return min === max ? `${what} exactly ${min}` : `${what} ${min} to ${max}`
  if (typeof min === "number") return `${what} at least ${min}`
  if (typeof max === "number") return `${what} at most ${max}`
  return undefined
}

/** A compact type: `string`, `"a" | "b"`, `string[]`, `Record<string, string>`, `object`. */
export const typeOf = (schema: unknown): string => {
  if (!isObject(schema)) return "any"
  if (Array.isArray(schema.enum)) return schema.enum.map(json).join(" | ")
  if ("const" in schema) return json(schema.const)
  const union = (schema.anyOf ?? schema.oneOf) as unknown
  if (Array.isArray(union)) return union.map(typeOf).join(" | ")
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() ?? "any"
  const type = schema.type
  if (Array.isArray(type)) return type.join(" | ")
  if (type === "array") {
    const items = typeOf(schema.items)
    return items.includes(" | ") ? `(${items})[]` : `${items}[]`
  }
  if (type === "object") {
    const props = isObject(schema.properties) ? Object.keys(schema.properties) : []
    if (props.length === 0 && isObject(schema.additionalProperties)) return `Record<string, ${typeOf(schema.additionalProperties)}>`
    return "object"
  }
  return typeof type === "string" ? type : "any"
}

/** The constraints of one schema node, in words. */
const constraintsOf = (schema: JsonSchema): ReadonlyArray<string> => {
  const out: Array<string> = []
  const numeric = range("range", schema.minimum, schema.maximum)
  if (numeric) out.push(numeric)
  if (typeof schema.exclusiveMinimum === "number") out.push(`greater than ${schema.exclusiveMinimum}`)
  if (typeof schema.exclusiveMaximum === "number") out.push(`less than ${schema.exclusiveMaximum}`)
  const length = range("length", schema.minLength, schema.maxLength)
  if (length) out.push(length)
  const items = range("items", schema.minItems, schema.maxItems)
  if (items) out.push(items)
  if (typeof schema.pattern === "string") out.push(`pattern ${code(schema.pattern)}`)
  return out
}

export interface ParameterRow {
  readonly name: string
  readonly type: string
  readonly required: boolean
  readonly description: string
}

const requiredOf = (schema: JsonSchema) => new Set(Array.isArray(schema.required) ? (schema.required as ReadonlyArray<string>) : [])

/** Object properties of a node, or of the object alternative of a union (first found). */
const nestedObject = (schema: JsonSchema): { readonly schema: JsonSchema; readonly suffix: string } | undefined => {
  if (isObject(schema.properties) && Object.keys(schema.properties).length > 0) return { schema, suffix: "." }
  if (schema.type === "array" && isObject(schema.items)) {
    const inner = nestedObject(schema.items)
    if (inner) return { schema: inner.schema, suffix: inner.suffix === "." ? "[]." : `[]${inner.suffix}` }
  }
  return undefined
}

/**
 * A `timeoutMs` row says the cap rule, not the shapes' absolute maximum: a running server lists its own
 * cap (--operation-timeout-ms) as the maximum (src/server/timeouts.ts) and refuses a larger value.
 */
const TIMEOUT_CAP = `(range 0 to the server's cap, \`--operation-timeout-ms\`: ${defaultServerConfig.operationTimeoutMs} by default, listed as the maximum; a larger value is refused)`

/** Parameter rows of an input schema in declaration order, nested object fields as `a.b` and `a[].b`. */
export const parameterRows = (schema: unknown, prefix = ""): ReadonlyArray<ParameterRow> => {
  if (!isObject(schema) || !isObject(schema.properties)) return []
  const required = requiredOf(schema)
  return Object.entries(schema.properties).flatMap(([key, raw]) => {
    const node = isObject(raw) ? raw : {}
    const name = `${prefix}${key}`
    const notes = [
      ...(typeof node.description === "string" && node.description.trim() !== "" ? [node.description.trim()] : []),
      ...(key === "timeoutMs" && typeof node.maximum === "number" ? [TIMEOUT_CAP] : constraintsOf(node).map((c) => `(${c})`)),
      ...(node.default !== undefined ? [`Default: ${code(json(node.default))}.`] : [])
    ]
    const row: ParameterRow = { name, type: typeOf(node), required: required.has(key), description: notes.join(" ") }
    const nested = nestedObject(node)
    return [row, ...(nested ? parameterRows(nested.schema, `${name}${nested.suffix}`) : [])]
  })
}

// ---------------------------------------------------------------------------------------------
// The plugin contract, from the PluginValue Schema the loader checks plugins with

/** One AST node as a compact type and its constraints (refinements' JSON Schema fragments, declarations' descriptions). */
const describeAst = (ast: SchemaAST.AST): { readonly type: string; readonly notes: ReadonlyArray<string> } => {
  switch (ast._tag) {
    case "Refinement": {
      const inner = describeAst(ast.from)
      const fragment = SchemaAST.getJSONSchemaAnnotation(ast)
      const notes = fragment._tag === "Some" ? constraintsOf(fragment.value as JsonSchema) : []
      // A description written for the field (not a refinement's generated "a string at most …").
      const description = SchemaAST.getDescriptionAnnotation(ast)
      const own = description._tag === "Some" && !/^an? (string|array|number)\b/.test(description.value) ? [description.value] : []
      return { type: inner.type, notes: [...own, ...inner.notes, ...notes.map((n) => `(${n})`)] }
    }
    case "Declaration": {
      const identifier = SchemaAST.getIdentifierAnnotation(ast)
      const description = SchemaAST.getDescriptionAnnotation(ast)
      return { type: identifier._tag === "Some" ? identifier.value : "unknown", notes: description._tag === "Some" ? [description.value] : [] }
    }
    case "Union": {
      const members = ast.types.filter((t) => t._tag !== "UndefinedKeyword").map(describeAst)
      return { type: members.map((m) => m.type).join(" | "), notes: members.flatMap((m) => m.notes) }
    }
    case "Literal":
      return { type: json(ast.literal), notes: [] }
    case "TupleType": {
      const items = ast.rest[0] ? describeAst(ast.rest[0].type) : { type: "unknown", notes: [] }
      return { type: items.type.includes(" | ") ? `(${items.type})[]` : `${items.type}[]`, notes: items.notes }
    }
    case "TypeLiteral":
      return { type: "object", notes: [] }
    case "StringKeyword":
      return { type: "string", notes: [] }
    case "BooleanKeyword":
      return { type: "boolean", notes: [] }
    case "NumberKeyword":
      return { type: "number", notes: [] }
    default:
      return { type: "unknown", notes: [] }
  }
}

/** The struct a property holds, directly or as array items, after refinements. */
const structOf = (ast: SchemaAST.AST): { readonly ast: SchemaAST.TypeLiteral; readonly suffix: string } | undefined => {
  if (ast._tag === "Refinement") return structOf(ast.from)
  if (ast._tag === "Union") {
    const members = ast.types.filter((t) => t._tag !== "UndefinedKeyword")
    return members.length === 1 ? structOf(members[0]!) : undefined
  }
  if (ast._tag === "TypeLiteral") return { ast, suffix: "." }
  if (ast._tag === "TupleType" && ast.rest[0]) {
    const inner = structOf(ast.rest[0].type)
    return inner ? { ast: inner.ast, suffix: `[]${inner.suffix}` } : undefined
  }
  return undefined
}

/** The fields of a plugin value (what `definePlugin` takes and the loader checks), nested as `tools[].name`. */
export const pluginApiRows = (ast: SchemaAST.AST = PluginValue.ast, prefix = ""): ReadonlyArray<ParameterRow> => {
  const literal = ast._tag === "TypeLiteral" ? ast : undefined
  if (literal === undefined) return []
  return literal.propertySignatures.flatMap((property) => {
    const name = `${prefix}${String(property.name)}`
    const described = describeAst(property.type)
    const row: ParameterRow = { name, type: described.type, required: !property.isOptional, description: described.notes.join(" ") }
    const nested = structOf(property.type)
    return [row, ...(nested ? pluginApiRows(nested.ast, `${name}${nested.suffix}`) : [])]
  })
}

const renderPluginApi = (): ReadonlyArray<string> => [
  "## Plugin API",
  "",
  "A plugin is a value checked with the `PluginValue` Schema when it is loaded (`--plugin NAME` for a first-party plugin, `--plugin ./path.js` or `--plugin package` for a third-party one); these are its fields. Write it with `definePlugin` and its tools with `defineTool`; a handler may use the driver's services (`AppLifecycle`, `Windows`, `Snapshots`, `MainProcess`, `Dialogs`, `PageOps`), `ServerConfig` and `EvalPolicy`, and reads its configuration with `pluginSettings(NAME, Schema)`. How to write, configure, load and test one: [PLUGINS.md](PLUGINS.md).",
  "",
  "| Field | Type | Required | Description |",
  "|---|---|---|---|",
  ...pluginApiRows().map((row) => `| ${cell(code(row.name))} | ${cell(code(row.type))} | ${row.required ? "yes" : "no"} | ${cell(row.description)} |`),
  ""
]

// ---------------------------------------------------------------------------------------------
// Groups

export interface ToolGroup {
  /** Heading, also its anchor: `app`, `eval`, `plugin-ipc`. */
  readonly id: string
  readonly title: string
  readonly intro: string | undefined
  /** Markdown shown as written after the intro (a plugin's docs/plugins/NAME.md). */
  readonly readme?: string | undefined
  readonly tools: ReadonlyArray<ManifestEntry>
}

const coreGroupOf = new Map<string, string>(Object.entries(CORE_GROUPS).flatMap(([group, names]) => names.map((name) => [name, group] as const)))

/** Core groups in catalog order, then eval tools, then plugins by name; tools sorted by name; empty groups left out. */
export const groupTools = (input: ReferenceInput): ReadonlyArray<ToolGroup> => {
  const sorted = [...input.tools].sort((a, b) => byName(a.name, b.name))
  const purposes = new Map(input.plugins.map((p) => [p.name, p.purpose]))
  const readmes = new Map(input.plugins.map((p) => [p.name, p.readme]))
  const groups: Array<ToolGroup> = Object.keys(CORE_GROUPS).map((group) => ({
    id: group,
    title: group,
    intro: undefined,
    tools: sorted.filter((t) => t.plugin === null && t.evalTarget === null && coreGroupOf.get(t.name) === group)
  }))
  groups.push({
    id: "other",
    title: "other",
    intro: "Core tools outside the catalog's groups.",
    tools: sorted.filter((t) => t.plugin === null && t.evalTarget === null && !coreGroupOf.has(t.name))
  })
  groups.push({
    id: "eval",
    title: "eval",
    intro:
      "Run caller-supplied code. Each is listed and callable only when its target is allowed (`--allow-eval renderer`, `--allow-eval main`, or `all`); they compose with every profile.",
    tools: sorted.filter((t) => t.plugin === null && t.evalTarget !== null)
  })
  const pluginNames = [...new Set(sorted.flatMap((t) => (t.plugin === null ? [] : [t.plugin])))].sort(byName)
  for (const plugin of pluginNames) {
    const purpose = purposes.get(plugin)
    groups.push({
      id: `plugin-${plugin}`,
      title: `plugin ${plugin}`,
      intro: `${purpose !== undefined ? `${purpose.trim().replace(/\.?$/, ".")} ` : ""}Loaded with \`--plugin ${plugin}\`; its tools compose with every profile.`,
      readme: readmes.get(plugin),
      tools: sorted.filter((t) => t.plugin === plugin)
    })
  }
  return groups.filter((g) => g.tools.length > 0)
}

// ---------------------------------------------------------------------------------------------
// Rendering

const renderTool = (tool: ManifestEntry): string => {
  const lines: Array<string> = [`### ${tool.name}`, "", escapeText(tool.description.trim()), ""]
  const evalTarget = tool.evalTarget === null ? "none" : `${code(tool.evalTarget)} (listed only with ${code(`--allow-eval ${tool.evalTarget}`)})`
  const plugin = tool.plugin === null ? "none (core)" : `${code(tool.plugin)} (listed only with ${code(`--plugin ${tool.plugin}`)})`
  lines.push(
    `- Title: ${escapeText(tool.title)}`,
    `- Type: ${code(tool.type)}`,
    `- Eval target: ${evalTarget}`,
    `- Profiles: ${tool.profiles.length > 0 ? tool.profiles.map(code).join(", ") : "none"}`,
    `- Plugin: ${plugin}`,
    `- Errors: ${tool.errors.length > 0 ? tool.errors.map(code).join(", ") : "none"}`,
    ""
  )
  const rows = parameterRows(tool.inputSchema)
  if (rows.length === 0) {
    lines.push("No parameters.", "")
  } else {
    lines.push("| Parameter | Type | Required | Description |", "|---|---|---|---|")
    for (const row of rows) {
      lines.push(`| ${cell(code(row.name))} | ${cell(code(row.type))} | ${row.required ? "yes" : "no"} | ${cell(row.description)} |`)
    }
    lines.push("")
  }
  return lines.join("\n")
}

/** The annotations table: every tool's MCP hints as tools/list carries them, and the reason. */
const renderAnnotations = (tools: ReadonlyArray<ManifestEntry>): Array<string> => {
  const yes = (b: boolean | undefined) => (b === true ? "yes" : "no")
  const count = (pred: (a: ManifestEntry["annotations"]) => boolean) => tools.filter((t) => pred(t.annotations)).length
  return [
    "## Annotations",
    "",
    "The MCP annotations each tool carries in `tools/list`, decided in one place (`src/tools/contract/annotations.ts`): a tool that runs caller code or changes the app's state is not read-only and is destructive (only a tool that adds a record and leaves the app alone is not); a tool that reaches URLs, processes or the file system is open-world. Hosts that approve calls by these hints ask before every destructive one.",
    "",
    `${count((a) => a.readOnlyHint)} read-only, ${count((a) => a.destructiveHint === true)} destructive, ${count((a) => a.openWorldHint)} open-world of ${tools.length}.`,
    "",
    "| Tool | Read-only | Destructive | Idempotent | Open-world | Why |",
    "|---|---|---|---|---|---|",
    ...[...tools]
      .sort((a, b) => byName(a.name, b.name))
      .map((t) => {
        const a = t.annotations
        return `| ${cell(code(t.name))} | ${yes(a.readOnlyHint)} | ${a.readOnlyHint ? "no" : yes(a.destructiveHint)} | ${a.readOnlyHint ? "yes" : yes(a.idempotentHint)} | ${yes(a.openWorldHint)} | ${cell(a.reason)} |`
      }),
    ""
  ]
}

export const renderToolsReference = (input: ReferenceInput): string => {
  const groups = groupTools(input)
  const count = (pred: (t: ManifestEntry) => boolean) => input.tools.filter(pred).length
  const core = count((t) => t.plugin === null && t.evalTarget === null)
  const evalCount = count((t) => t.plugin === null && t.evalTarget !== null)
  const pluginCount = count((t) => t.plugin !== null)
  const present = new Set(input.tools.map((t) => t.name))
  const missing = CORE_TOOL_NAMES.filter((name) => !present.has(name))
  const profiles = PROFILE_NAMES.map((p) => `${code(p)} (${PROFILES[p].size})`).join(", ")

  const out: Array<string> = [
    "# Stagewright tool reference",
    "",
    "<!-- Generated by `npm run docs:tools` from the documentation manifest (`stagewright tools --json`). Do not edit: test/bench/docs.test.ts fails when this file is stale. -->",
    "",
    `${input.tools.length} tools: ${core} core, ${evalCount} eval, ${pluginCount} from ${input.plugins.length} first-party plugin${input.plugins.length === 1 ? "" : "s"}.`,
    "Hosts receive each tool's name, description, input schema and annotations in `tools/list`; the operation type, eval target, profiles, plugin and error codes below come from the documentation manifest and cost a host nothing.",
    "",
    `Core tools belong to the profiles that list them (\`--tool-profile\`; core tools per profile: ${profiles}; the default is ${code(DEFAULT_PROFILE)}). Eval tools and plugin tools compose with every profile.`,
    "Every tool can return `INVALID_ARGUMENT`, `TIMEOUT` and `INTERNAL_ERROR`; failures are tool results with a code, a message and a recovery hint.",
    ""
  ]
  if (missing.length > 0) out.push(`Catalog names without an implementation yet: ${missing.map(code).join(", ")}.`, "")
  out.push("## Contents", "")
  for (const group of groups) {
    out.push(`- [${group.title}](#${group.id}) (${group.tools.length}): ${group.tools.map((t) => `[${code(t.name)}](#${t.name})`).join(", ")}`)
  }
  out.push("- [Annotations](#annotations): what each tool tells hosts it does (read-only, destructive, idempotent, open-world)")
  out.push("- [Plugin API](#plugin-api): the fields of a plugin value", "")
  for (const group of groups) {
    out.push(`## ${group.title}`, "")
    if (group.intro !== undefined) out.push(escapeText(group.intro), "")
    if (group.readme !== undefined) out.push(group.readme, "")
    for (const tool of group.tools) out.push(renderTool(tool))
  }
  out.push(...renderAnnotations(input.tools))
  out.push(...renderPluginApi())
  return `${out.join("\n").trimEnd()}\n`
}
