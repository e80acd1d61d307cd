/**
 * The tool lists the selection proxy ranks over: for each (variant, plugins, profile at the step) the
 * tools/list and instructions a fresh server gives (no app is launched), built once and cached, and the
 * proxy over a report's recorded steps.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { createServer, type ProfileName } from "../../index.js"
import type { ProfileReport } from "./merge.js"
import { ALL_VARIANTS, EXTRA_VARIANTS, type Variant } from "./run.js"
import { rankItem, summarizeSelection, withDescriptions, type SelectionItem, type SelectionReport, type ToolList } from "./selection.js"

export const listOf = async (variant: Variant, profile: ProfileName, plugins: ReadonlyArray<string>): Promise<ToolList> => {
  const server = await createServer({
    ...(variant.tools !== undefined && profile === variant.profile ? { tools: variant.tools } : { toolProfile: profile }),
    ...(variant.allowEval ? { allowEval: ["renderer", "main"] as const } : {}),
    ...(variant.profileSwitch === true ? { allowProfileSwitch: true } : {}),
    ...(plugins.length > 0 ? { plugins } : {})
  })
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair()
  await server.connect(serverTransport)
  const client = new Client({ name: "stagewright-selection-proxy", version: "1.0.0" })
  try {
    await client.connect(clientTransport)
    const tools: Array<{ name: string; description?: string }> = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor !== undefined)
    return { tools, instructions: client.getInstructions() ?? "" }
  } finally {
    await client.close().catch(() => undefined)
    await server.close().catch(() => undefined)
  }
}

/** Ranks every recorded step of a report's results; descriptions (from a git ref) replace the current ones. */
export const selectionOf = async (
  report: Pick<ProfileReport, "results" | "tasks" | "variants">,
  descriptions?: { readonly label: string; readonly byTool: ReadonlyMap<string, string> }
): Promise<SelectionReport> => {
  const variants = new Map([...ALL_VARIANTS, ...EXTRA_VARIANTS].map((v) => [v.name, v]))
  const cache = new Map<string, Promise<ToolList>>()
  const items: Array<SelectionItem> = []
  for (const r of report.results) {
    const variant = variants.get(r.variant)
    if (variant === undefined) continue
    const plugins = report.tasks.find((t) => t.id === r.task)?.plugins ?? []
    for (const step of r.steps ?? []) {
      const profile = (step.profile ?? variant.profile) as ProfileName
      const key = `${variant.name}|${profile}|${plugins.join(",")}`
      if (!cache.has(key)) cache.set(key, listOf(variant, profile, plugins))
      const list = withDescriptions(await cache.get(key)!, descriptions?.byTool)
      items.push(rankItem(r.variant, r.task, step.intent, step.tool, list))
    }
  }
  return summarizeSelection(items, report.variants, descriptions?.label ?? "current (this checkout's tools/list)")
}
