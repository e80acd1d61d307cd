/**
 * The Promise facade for non-Effect users: `createServer(options)` builds the whole service graph in
 * a ManagedRuntime and hands back plain async methods. This module and McpServer are the only
 * places that bridge Effect and Promises (they change in Effect 4).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { Effect, Layer, ManagedRuntime, Scope, Exit } from "effect"
import { Dispatcher, type CallResult, type ListedTool } from "./Dispatcher.js"
import { McpServer } from "./McpServer.js"
import { stderrLogger } from "./stderr-logger.js"
import type { ServerConfigShape, XvfbMode } from "../layers/config/ServerConfig.js"
import { serverLayer } from "./Stagewright.js"
import { ConflictingToolSelection, type UnknownToolInSelection } from "../profile/ProfileSelector.js"
import type { PluginLoadError } from "../plugins/PluginLoader.js"
import type { ProfileName } from "../profile/profiles.js"
import type { EvalTarget } from "../eval-policy/EvalPolicy.js"

export interface CreateServerOptions {
  /** A named profile. Exclusive with `tools`. */
  readonly toolProfile?: ProfileName
  /** An explicit list of core tool names. Exclusive with `toolProfile`. */
  readonly tools?: ReadonlyArray<string>
  readonly allowEval?: ReadonlyArray<EvalTarget>
  /** Lists electron_profile, which switches the active profile at run time (off by default). */
  readonly allowProfileSwitch?: boolean
  readonly plugins?: ReadonlyArray<string>
  readonly outputDir?: string
  readonly screenshotDir?: string
  /** Baseline folder of the visual plugin (default <outputDir>/visual-baselines). */
  readonly visualDir?: string
  /** Each loaded plugin's configuration, as `--plugin-config NAME=<json>` gives it. */
  readonly pluginConfig?: Readonly<Record<string, unknown>>
  readonly operationTimeoutMs?: number
  readonly appRoot?: string
  readonly maxResponseChars?: number
  /** Private Xvfb for headed launches on Linux (as --xvfb): auto (default), always, never. */
  readonly xvfb?: XvfbMode
  /** Most app sessions held at once (as --max-apps; default 4). */
  readonly maxApps?: number
  /** The operator's secrets by name (as --secrets FILE): the agent writes {{secret:NAME}}, never sees the value. */
  readonly secrets?: Readonly<Record<string, string>>
}

/** Why a server could not start. */
export type StartError = ConflictingToolSelection | UnknownToolInSelection | PluginLoadError

export interface StagewrightServer {
  /** The tools/list entries, sorted by name. */
  readonly listTools: () => Promise<ReadonlyArray<ListedTool>>
  /** Calls a tool; failures come back as results with isError, never as rejections. */
  readonly callTool: (name: string, args?: Record<string, unknown>) => Promise<CallResult>
  /** Serves MCP over a transport (for example one end of InMemoryTransport.createLinkedPair()). */
  readonly connect: (transport: Transport) => Promise<void>
  /** Closes transports, the app and every process it started. */
  readonly close: () => Promise<void>
}

/**
 * Builds a server. Rejects with the typed start-up error (`StartError`): ConflictingToolSelection when
 * both `tools` and `toolProfile` are given, UnknownToolInSelection, or a plugin that cannot be loaded.
 */
export const createServer = async (options: CreateServerOptions = {}): Promise<StagewrightServer> => {
  if (options.toolProfile !== undefined && options.tools !== undefined) {
    throw new ConflictingToolSelection({ toolProfile: options.toolProfile, tools: options.tools })
  }
  const config: Partial<ServerConfigShape> = {
    ...(options.toolProfile !== undefined ? { toolProfile: options.toolProfile } : {}),
    ...(options.tools !== undefined ? { tools: options.tools } : {}),
    ...(options.allowEval !== undefined ? { allowEval: options.allowEval } : {}),
    ...(options.allowProfileSwitch === true ? { allowProfileSwitch: true } : {}),
    ...(options.plugins !== undefined ? { plugins: options.plugins } : {}),
    ...(options.outputDir !== undefined ? { outputDir: options.outputDir } : {}),
    ...(options.screenshotDir !== undefined ? { screenshotDir: options.screenshotDir } : {}),
    ...(options.visualDir !== undefined ? { visualDir: options.visualDir } : {}),
    ...(options.pluginConfig !== undefined ? { pluginConfig: options.pluginConfig } : {}),
    ...(options.operationTimeoutMs !== undefined ? { operationTimeoutMs: options.operationTimeoutMs } : {}),
    ...(options.appRoot !== undefined ? { appRoot: options.appRoot } : {}),
    ...(options.maxResponseChars !== undefined ? { maxResponseChars: options.maxResponseChars } : {}),
    ...(options.xvfb !== undefined ? { xvfb: options.xvfb } : {}),
    ...(options.maxApps !== undefined ? { maxApps: options.maxApps } : {}),
    ...(options.secrets !== undefined ? { secrets: Object.entries(options.secrets) } : {})
  }
  // Logs go to stderr: a host may run this server over stdio, where stdout carries JSON-RPC only.
  const runtime = ManagedRuntime.make(Layer.merge(serverLayer(config), stderrLogger))
  await runtime.runPromise(Effect.void).catch(async (error) => {
    await runtime.dispose()
    throw error
  })
  const connections = await runtime.runPromise(Scope.make())
  return {
    listTools: () => runtime.runPromise(Effect.map(Dispatcher, (d) => d.list())),
    callTool: (name, args = {}) => runtime.runPromise(Effect.flatMap(Dispatcher, (d) => d.call(name, args))),
    connect: (transport) => runtime.runPromise(Effect.flatMap(McpServer, (m) => m.connect(transport)).pipe(Scope.extend(connections))),
    close: async () => {
      await runtime.runPromise(Scope.close(connections, Exit.void))
      await runtime.dispose()
    }
  }
}
