/**
 * The MCP annotations of every tool, decided in one place: a default per operation type, a few
 * per-tool decisions below (each with its reason), and what a tool says of itself (Tool.readOnly,
 * destructive, openWorld, idempotent) on top. The rules hosts may auto-approve by:
 * - a tool that runs caller code or changes the app's state is not read-only and is destructive
 *   (destructiveHint true); only a tool that adds a record and leaves the app alone is not;
 * - a tool that reaches URLs, processes or the file system (file arguments, files it writes or reads)
 *   is open-world.
 * docs/TOOLS.md tabulates the result (`npm run docs:tools`).
 */
import { isReadOnly, type OperationType, type Tool } from "./Tool.js"

export interface Annotations {
  readonly readOnlyHint: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
  readonly openWorldHint: boolean
}

interface Decision {
  readonly readOnly: boolean
  readonly destructive: boolean
  readonly openWorld: boolean
  readonly why: string
}

/** What a tool of each operation type does unless it is decided otherwise below. */
export const BY_TYPE: Readonly<Record<OperationType, Decision>> = {
  read: { readOnly: true, destructive: false, openWorld: false, why: "reads the app" },
  assert: { readOnly: true, destructive: false, openWorld: false, why: "reads the app" },
  debug: { readOnly: true, destructive: false, openWorld: false, why: "reads what the app recorded" },
  interact: { readOnly: false, destructive: true, openWorld: false, why: "changes the app's state" },
  native: { readOnly: false, destructive: true, openWorld: false, why: "changes the app's state (native side)" },
  navigate: { readOnly: false, destructive: true, openWorld: true, why: "loads URLs" },
  eval: { readOnly: false, destructive: true, openWorld: true, why: "runs caller code, which can do anything the app can" },
  lifecycle: { readOnly: false, destructive: true, openWorld: true, why: "starts or ends processes" },
  author: { readOnly: false, destructive: false, openWorld: true, why: "writes a new file" }
}

type Override = Partial<Omit<Decision, "why" | "readOnly">> & { readonly why: string }

const WRITES_OUTPUT = "writes files under the output folder"

/** Per-tool decisions where the type's default is not the truth. */
export const OVERRIDES: Readonly<Record<string, Override>> = {
  electron_attach: { destructive: false, why: "connects to a running app's debugging port; changes nothing by itself" },
  electron_profile: { destructive: false, openWorld: false, why: "changes the server's tool list, not the app" },
  electron_select_window: { destructive: false, why: "chooses the surface later calls act on; the app is untouched" },
  electron_generate_locator: { openWorld: false, why: "reads the page to build a locator" },
  electron_screenshot: { openWorld: true, why: "reads the page; also saves the image with --screenshot-dir" },
  electron_a11y_tab_order: { destructive: true, why: "presses Tab through the page: focus moves" },
  electron_a11y_audit: { openWorld: true, why: `reads the page; ${WRITES_OUTPUT}` },
  electron_perf_cpu_profile: { openWorld: true, why: `profiles the app; ${WRITES_OUTPUT}` },
  electron_perf_heap: { openWorld: true, why: `takes a heap snapshot; ${WRITES_OUTPUT}` },
  electron_trace_start: { destructive: false, openWorld: true, why: `records the session; ${WRITES_OUTPUT}` },
  electron_trace_stop: { destructive: false, openWorld: true, why: `ends the record; ${WRITES_OUTPUT}` },
  electron_trace_budget: { destructive: false, why: "sets the record's token budget" },
  electron_trace_report: { openWorld: true, why: "reads a trace file" },
  electron_network_capture: { destructive: false, openWorld: true, why: `records the app's requests; ${WRITES_OUTPUT}` },
  electron_network_har_record: { destructive: false, openWorld: true, why: `records a HAR; ${WRITES_OUTPUT}` },
  electron_network_har_replay: { openWorld: true, why: "answers the app's requests from a HAR file" },
  electron_network_route: { openWorld: true, why: "answers the app's requests, from files too" },
  electron_storage_userdata: { openWorld: true, why: "reads the app's userData folder on disk" },
  electron_visual_baselines: { openWorld: true, why: "reads the baseline folder" },
  electron_visual_compare: { openWorld: true, why: "reads baselines and writes diff images" },
  electron_visual_update_baseline: { destructive: true, openWorld: true, why: "overwrites a baseline image" },
  electron_production_audit: { openWorld: true, why: "reads the app's files and build on disk" }
}

/** The decision for one tool, with its reason (for docs/TOOLS.md). */
export const decide = (tool: Pick<Tool, "name" | "type" | "readOnly" | "destructive" | "openWorld" | "files">): Decision => {
  const base = BY_TYPE[tool.type]
  const override = OVERRIDES[tool.name]
  // Read-only by the type unless the tool says otherwise (Tool.readOnly): one rule with the Dispatcher's.
  const readOnly = isReadOnly(tool)
  // A tool that is not read-only changes something: destructive unless decided to only add a record.
  const destructive = readOnly ? false : (tool.destructive ?? override?.destructive ?? (base.readOnly ? true : base.destructive))
  const files = (tool.files?.length ?? 0) > 0
  const openWorld = tool.openWorld ?? override?.openWorld ?? (base.openWorld || files)
  const why = override?.why ?? (files ? `${base.why}; takes file paths` : base.why)
  return { readOnly, destructive, openWorld: openWorld || files, why }
}

/** MCP annotations of a tool (ToolAnnotations in tools/list). */
export const annotationsOf = (tool: Tool<any, any>): Annotations => {
  const d = decide(tool)
  return d.readOnly
    ? { readOnlyHint: true, openWorldHint: d.openWorld }
    : { readOnlyHint: false, destructiveHint: d.destructive, ...(tool.idempotent === true ? { idempotentHint: true } : {}), openWorldHint: d.openWorld }
}
