/**
 * The first-party plugins `--plugin NAME` can load, by name. Each entry loads its module lazily so
 * a server that loads none pays nothing for them.
 */
import type { Plugin } from "./Plugin.js"

// `any`: a plugin's configuration type is its own (network's { redactHeaders }, trace's budget); the loader checks the value.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const firstPartyPlugins: Readonly<Record<string, () => Promise<Plugin<any>>>> = {
  ipc: () => import("./ipc/index.js").then((m) => m.default),
  storage: () => import("./storage/index.js").then((m) => m.default),
  production: () => import("./production/index.js").then((m) => m.default),
  a11y: () => import("./a11y/index.js").then((m) => m.default),
  visual: () => import("./visual/index.js").then((m) => m.default),
  perf: () => import("./perf/index.js").then((m) => m.default),
  network: () => import("./network/index.js").then((m) => m.default),
  emulation: () => import("./emulation/index.js").then((m) => m.default),
  native: () => import("./native/index.js").then((m) => m.default),
  trace: () => import("./trace/index.js").then((m) => m.default),
  clock: () => import("./clock/index.js").then((m) => m.default),
  video: () => import("./video/index.js").then((m) => m.default)
}
