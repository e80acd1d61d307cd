/**
 * The composition root: one composition of every Stagewright service for a given configuration. Provide
 * it once (each `Effect.provide` builds its own copy, and a copy owns its own Electron app).
 */
import { Layer } from "effect"
import { EvalPolicy } from "../eval-policy/EvalPolicy.js"
import { ServerConfig, defaultServerConfig, type ServerConfigShape } from "../layers/config/ServerConfig.js"
import { ElectronDriver } from "../layers/driver/ElectronDriver.js"
import { PluginLoader } from "../plugins/PluginLoader.js"
import { ProfileSelector } from "../profile/ProfileSelector.js"
import { Dispatcher } from "./Dispatcher.js"
import { McpServer } from "./McpServer.js"
import { ServerState } from "./ServerState.js"

/** Everything but the MCP binding: the services tools run on, plus the Dispatcher. */
export const coreLayer = (config: Partial<ServerConfigShape> = {}) => {
  const full = { ...defaultServerConfig, ...config }
  const services = Layer.mergeAll(
    ProfileSelector.layer(full),
    EvalPolicy.layer(full.allowEval),
    PluginLoader.layerLoaded.pipe(Layer.provide(PluginLoader.layer)),
    ServerState.layer,
    ElectronDriver.layer
  ).pipe(Layer.provideMerge(ServerConfig.layer(full)))
  return Dispatcher.layer.pipe(Layer.provideMerge(services))
}

/** The core plus the MCP server binding. */
export const serverLayer = (config: Partial<ServerConfigShape> = {}) => McpServer.layer.pipe(Layer.provideMerge(coreLayer(config)))
