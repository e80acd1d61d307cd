/**
 * The documentation manifest (`stagewright tools --json`): what hosts never receive in tools/list —
 * operation type, eval target, profiles, plugin and error codes — beside each tool's description
 * and input schema. Sorted by name, like tools/list.
 */
import { annotationsOf, decide, type Annotations } from "../contract/annotations.js"
import { inputJsonSchema } from "./json-schema.js"
import { PROFILE_NAMES, PROFILES, type CoreToolName } from "../../profile/profiles.js"
import { codesAt } from "../../errors/registry.js"
import { toolTitle, touchesPage, type Tool } from "../contract/Tool.js"

/**
 * What the pipeline adds to a tool's own list, from the error registry's stages: what any call can fail with,
 * what any page-touching call can, what a tool with file arguments or an eval target can (the fuzz with an app checks answered
 * codes against the listed ones).
 */
const CALL_CODES = codesAt("call")
const PAGE_CODES = codesAt("page")
const FILE_CODES = codesAt("files")
const EVAL_CODES = codesAt("eval")

export interface ManifestEntry {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly type: string
  readonly evalTarget: string | null
  readonly profiles: ReadonlyArray<string>
  readonly plugin: string | null
  readonly errors: ReadonlyArray<string>
  readonly inputSchema: unknown
  /** The MCP annotations tools/list carries, and why (src/tools/contract/annotations.ts). */
  readonly annotations: Annotations & { readonly reason: string }
}

export const manifestEntry = (tool: Tool): ManifestEntry => ({
  name: tool.name,
  title: toolTitle(tool),
  description: tool.description,
  type: tool.type,
  evalTarget: tool.evalTarget ?? null,
  // Eval and plugin tools compose with every profile; core tools belong to the profiles that list them.
  profiles:
    tool.plugin !== undefined || tool.evalTarget !== undefined ? [...PROFILE_NAMES] : PROFILE_NAMES.filter((p) => PROFILES[p].has(tool.name as CoreToolName)),
  plugin: tool.plugin ?? null,
  // Every tool runs through the same stages (tools/pipeline/guard.ts): any that touches a page, core or plugin, can
  // meet an open web dialog, and every Playwright call it makes can end in what the driver maps any
  // playwright-core failure to (playwright-errors.ts): the app gone, its window gone, or an unclassified failure;
  // a tool that declares file arguments has them confined before its handler runs, one with an eval target is
  // authorized before it runs (src/errors/registry.ts, the stages).
  errors: [
    ...new Set([
      ...tool.errors,
      ...CALL_CODES,
      ...(touchesPage(tool) ? PAGE_CODES : []),
      ...((tool.files?.length ?? 0) > 0 ? FILE_CODES : []),
      ...(tool.evalTarget !== undefined ? EVAL_CODES : [])
    ])
  ].sort(),
  inputSchema: inputJsonSchema(tool),
  annotations: { ...annotationsOf(tool), reason: decide(tool).why }
})

export const documentationManifest = (tools: ReadonlyArray<Tool>): ReadonlyArray<ManifestEntry> =>
  [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(manifestEntry)
