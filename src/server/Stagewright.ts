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

/**
 * Everything but the MCP binding: the services tools run on, plus the Dispatcher. `loader` resolves
 * `--plugin` names (the first-party registry unless an integrator brings its own).
 */
export const coreLayer = (config: Partial<ServerConfigShape> = {}, loader: Layer.Layer<PluginLoader> = PluginLoader.layer) => {
  const full = { ...defaultServerConfig, ...config }
  const ground = Layer.mergeAll(ElectronDriver.layer, ServerState.layer, ProfileSelector.layer(full), EvalPolicy.layer(full.allowEval))
  const services = PluginLoader.layerLoaded.pipe(Layer.provide(loader), Layer.provideMerge(ground), Layer.provideMerge(ServerConfig.layer(full)))
  return Dispatcher.layer.pipe(Layer.provideMerge(services))
}

/** The core plus the MCP server binding. */
export const serverLayer = (config: Partial<ServerConfigShape> = {}) => McpServer.layer.pipe(Layer.provideMerge(coreLayer(config)))
