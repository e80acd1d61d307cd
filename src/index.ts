/**
 * Stagewright's public API.
 *
 * For Effect integrators: the service tags and their layers, the tagged errors, and `coreLayer` /
 * `serverLayer`, the composed graph. For everyone else: `createServer()`, a Promise facade. For plugin
 * authors: `defineTool`, the `Tool` and `Plugin` contracts and the services a tool may use. The session
 * model is exported as types only: it changes only through the driver.
 */
export { createServer, type CreateServerOptions, type StagewrightServer, type StartError } from "./server/facade.js"
export { coreLayer, serverLayer } from "./server/Stagewright.js"
export { Dispatcher, type CallResult, type Content, type ListedTool } from "./server/Dispatcher.js"
export { McpServer } from "./server/McpServer.js"
export { ServerState } from "./server/ServerState.js"
export { coreTools, serverTools } from "./server/tools.js"
export { InternalError, PluginNotLoaded, UnknownTool, type ServerError } from "./server/errors.js"
export {
  ElectronDriver,
  AppLifecycle,
  Windows,
  Snapshots,
  MainProcess,
  Dialogs,
  PageOps,
  type DriverServices,
  type AppLifecycleShape,
  type WindowsShape,
  type SnapshotsShape,
  type MainProcessShape,
  type DialogsShape,
  type PageOpsShape,
  type AppSession,
  type AttachOptions,
  type Check,
  type LaunchOptions,
  type ModalControl,
  type ModalState,
  type PendingDialog,
  type RecordedStep,
  type Surface,
  type WindowEntry,
  type WindowInfo,
  type WindowSelector
} from "./layers/driver/ElectronDriver.js"
export { ServerConfig, defaultServerConfig, type ServerConfigShape } from "./layers/config/ServerConfig.js"
export {
  LoadedPlugins,
  PluginConfigInvalid,
  PluginInvalid,
  PluginLoader,
  PluginNotFound,
  PluginVersionMismatch,
  ToolNameConflict,
  type LoadedPluginsShape,
  type PluginLoadError
} from "./plugins/PluginLoader.js"
export { definePlugin, pluginSettings, PluginValue, type MainHook, type Plugin } from "./plugins/Plugin.js"
export {
  CallRefused,
  OBSERVER_BOUNDS,
  REDACTED_MARK,
  type CallObserver,
  type CallRecord,
  type CallSettled,
  type CallStart,
  type ObserverHooks
} from "./plugins/observer.js"
export { markSecret } from "./tools/policy/call-secrets.js"
// For tools that type into fields: a plain input or textarea told from a code editor by one selector count.
export { isPlainField, PLAIN_FIELD_SELECTOR } from "./tools/interact/editor.js"
export { Call, callHandle, type ActOptions, type CallHandle, type HandleServices, type ModalView } from "./tools/contract/handle.js"
export { EvalPolicy, type EvalTarget } from "./eval-policy/EvalPolicy.js"
export { ProfileSelector, ConflictingToolSelection, UnknownToolInSelection, ToolExcludedByProfile } from "./profile/ProfileSelector.js"
// The named lists (the TOOLS.md contract) and the profile a server without `toolProfile` or `tools` selects.
export { PROFILES, PROFILE_NAMES, CORE_TOOL_NAMES, CORE_GROUPS, DEFAULT_PROFILE, type ProfileName } from "./profile/profiles.js"
export * from "./tools/contract/errors.js"
export { defineTool, type Tool, type ToolResult, type ToolServices, type OperationType } from "./tools/contract/Tool.js"
export { documentationManifest, type ManifestEntry } from "./tools/pipeline/manifest.js"
export { resolveElectronRuntime, type ElectronRuntime } from "./layers/driver/electron-runtime.js"
export { VERSION } from "./version.js"
