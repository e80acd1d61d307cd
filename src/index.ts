/**
 * Stagewright's public API.
 *
 * For Effect integrators: the service tags and their layers, the tagged errors, and `coreLayer` /
 * `serverLayer`, the composed graph. For everyone else: `createServer()`, a Promise facade.
 */
export { createServer, type CreateServerOptions, type StagewrightServer } from "./server/facade.js"
export { coreLayer, serverLayer } from "./server/Stagewright.js"
export { Dispatcher, type CallResult, type ListedTool } from "./server/Dispatcher.js"
export { ElectronDriver, AppSession, WindowEntry, type LaunchOptions, type AttachOptions } from "./layers/driver/ElectronDriver.js"
export { McpServer } from "./server/McpServer.js"
export { ServerConfig, type ServerConfigShape } from "./layers/config/ServerConfig.js"
export { ServerState } from "./server/ServerState.js"
export { LoadedPlugins, PluginLoader, PluginInvalid, PluginNotFound, ToolNameConflict } from "./plugins/PluginLoader.js"
export { EvalPolicy, type EvalTarget } from "./eval-policy/EvalPolicy.js"
export { ProfileSelector, ConflictingToolSelection, UnknownToolInSelection } from "./profile/ProfileSelector.js"
export { PROFILES, PROFILE_NAMES, CORE_TOOL_NAMES, type ProfileName } from "./profile/profiles.js"
export * from "./tools/errors.js"
export { defineTool, type Tool, type ToolResult, type OperationType } from "./tools/Tool.js"
export type { Plugin } from "./plugins/Plugin.js"
export { resolveElectronRuntime, sampleAppPath, type ElectronRuntime } from "./layers/driver/electron-runtime.js"
