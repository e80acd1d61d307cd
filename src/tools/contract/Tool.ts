/**
 * A tool is a value: its stable name, the description an agent chooses by, an input Schema, an
 * operation type, an eval target when it runs caller-supplied code, the error codes it can return
 * and an Effect handler, and what the call pipeline needs to know of it (whether it drives a page, which
 * arguments are element targets and which name files; none of these is listed to hosts). Core groups and
 * plugins are lists of these; the Dispatcher serves them, every one through the same stages.
 */
import type { Effect, Schema } from "effect"
import type { EvalPolicy, EvalTarget } from "../../eval-policy/EvalPolicy.js"
import type { ServerConfig } from "../../layers/config/ServerConfig.js"
import type { DriverServices } from "../../layers/driver/ElectronDriver.js"
import type { CodeAt, CodeOf, ErrorCode } from "../../errors/registry.js"
import type { ProfileSelector } from "../../profile/ProfileSelector.js"
import type { ToolError } from "./errors.js"

export const OPERATION_TYPES = ["lifecycle", "read", "interact", "navigate", "assert", "author", "native", "debug", "eval"] as const
export type OperationType = (typeof OPERATION_TYPES)[number]

export interface ToolImage {
  readonly data: string
  readonly mimeType: string
}

/** What a handler returns: compact text for the agent, structured fields for machines, images. */
export interface ToolResult {
  readonly text: string
  readonly structured?: Record<string, unknown>
  readonly images?: ReadonlyArray<ToolImage>
}

/**
 * The services a tool handler (core or plugin) runs with; the Dispatcher provides them. A handler reaches
 * the app through the call's handle (`callHandle`, ./handle.ts), made over these.
 */
export type ToolServices = DriverServices | ServerConfig | EvalPolicy | ProfileSelector

// `any` in the defaults: a list of tools holds handlers of many input types (the Schema checks each).
export interface Tool<A = any, R = ToolServices> {
  readonly name: string
  readonly description: string
  readonly input: Schema.Schema<A, any, never>
  readonly type: OperationType
  /** Set when the tool runs caller-supplied code: it is listed and callable only when the target is allowed. */
  readonly evalTarget?: EvalTarget
  /** Error codes beyond the common ones (INVALID_ARGUMENT, TIMEOUT, INTERNAL_ERROR). */
  readonly errors: ReadonlyArray<ErrorCode>
  /** Closes or resets something the agent cannot get back (MCP destructiveHint). */
  readonly destructive?: boolean
  /** Reaches outside the app (files, processes, network) (MCP openWorldHint). */
  readonly openWorld?: boolean
  /** Overrides the default read-only flag of the type (read, assert and debug tools are read-only). */
  readonly readOnly?: boolean
  /** A short human title for hosts' tool pickers; default: derived from the name (`toolTitle`). */
  readonly title?: string
  /** Calling it again with the same arguments has no further effect (MCP idempotentHint; read-only tools are). */
  readonly idempotent?: boolean
  /** Set on plugin tools: the plugin's name. */
  readonly plugin?: string
  /**
   * Whether the tool drives a window's page (default true). A page-touching call is held to open web
   * dialogs: one that opens during the call and that the call's own action did not report ends it with
   * DIALOG_OPEN, which is among its declared errors. False for tools that never wait on a page (the app's
   * lifecycle, the server's state, answering the dialog itself).
   */
  readonly touchesPage?: boolean
  /**
   * The arguments that are element targets, as paths (`source`, `fields[].target`; default `["target"]`):
   * a call that matched nothing is told what is near each target that matches nothing.
   */
  readonly targets?: ReadonlyArray<string>
  /**
   * The arguments that name files on this machine, as paths (`file`, `paths[]`, `rules[].answer.filePath`):
   * each is confined to --app-root (symlinks resolved) before the handler runs (PATH_NOT_ALLOWED).
   */
  readonly files?: ReadonlyArray<string>
  readonly handler: (input: A) => Effect.Effect<ToolResult, ToolError, R>
}

/**
 * The codes a tool whose handler fails with `E` may declare: the codes of those errors, and those any call
 * can end in (src/errors/registry.ts, stage `call`). The pipeline's own (a page-touching tool's, a tool with
 * file arguments') the manifest adds by itself (./manifest.ts).
 */
export type DeclarableCode<E> = CodeOf<E> | CodeAt<"call">

/** What `defineTool` gives for a tool that declares codes its handler cannot raise: no Tool, so no list takes it. */
export interface HandlerCannotRaise<C> {
  readonly "declares error codes its handler cannot raise": C
}

/**
 * Declares a tool, inferring the handler's input from the Schema and its errors from the handler. A tool
 * that declares a code its handler cannot raise (and that no stage of every call raises) is not a `Tool`:
 * putting it in a tool list (a group's, a plugin's) does not compile, naming the code. (The check is made on
 * the result: a check on the argument would fix the handler's error type before the handler is read.)
 */
export const defineTool = <A, I, R = ToolServices, E extends ToolError = never, C extends ErrorCode = never>(
  tool: Omit<Tool<A, R>, "input" | "errors" | "handler"> & {
    readonly input: Schema.Schema<A, I, never>
    readonly errors: ReadonlyArray<C>
    readonly handler: (input: A) => Effect.Effect<ToolResult, E, R>
  }
): [Exclude<C, DeclarableCode<E>>] extends [never] ? Tool<A, R> : HandlerCannotRaise<Exclude<C, DeclarableCode<E>>> => tool as never

/** Whether a tool drives a page (Tool.touchesPage, default true). */
export const touchesPage = (tool: Pick<Tool, "touchesPage">): boolean => tool.touchesPage !== false

/** The argument paths of a tool's element targets (Tool.targets, default `["target"]`). */
export const targetPaths = (tool: Pick<Tool, "targets">): ReadonlyArray<string> => tool.targets ?? ["target"]

/** MCP readOnlyHint: by the operation type unless the tool says otherwise. */
export const isReadOnly = (tool: Pick<Tool, "readOnly" | "type">): boolean =>
  tool.readOnly ?? (tool.type === "read" || tool.type === "assert" || tool.type === "debug")

/** Words of tool names written as people write them. */
const WORDS: Readonly<Record<string, string>> = {
  har: "HAR",
  ipc: "IPC",
  cpu: "CPU",
  url: "URL",
  a11y: "Accessibility",
  indexeddb: "IndexedDB",
  userdata: "userData",
  asar: "asar"
}

/** `electron_network_har_record` -> "Network HAR record": the title a tool has unless it declares one. */
export const toolTitle = (tool: Pick<Tool, "name" | "title">): string => {
  if (tool.title !== undefined) return tool.title
  const words = tool.name
    .replace(/^electron_/, "")
    .split("_")
    .map((w) => WORDS[w] ?? w)
  const [first = "", ...rest] = words
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ")
}
