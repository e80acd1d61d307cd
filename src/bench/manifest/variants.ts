/**
 * The server configurations the manifest budget measures, computed from the profile names and the
 * first-party plugin registry so the list grows by itself: each core profile, each first-party
 * plugin and all plugins together, each without eval (`safe`) and with eval allowed for every
 * target (`eval`).
 *
 * Plugin variants select no core tools (`createServer({ tools: [] })`): they measure what the plugin
 * adds to any profile (tools/list is a list of independent entries, so costs add up), and a plugin
 * that grows 3% fails the gate instead of disappearing inside the full profile's figure.
 */
import type { EvalTarget, ProfileName, ServerConfigShape } from "../../index.js"

export const EVAL_MODES = ["safe", "eval"] as const
export type EvalMode = (typeof EVAL_MODES)[number]

/** What `eval` means in a variant: every eval target allowed. */
export const ALL_EVAL_TARGETS: ReadonlyArray<EvalTarget> = ["renderer", "main"]

export interface Variant {
  /** Stable name: `profile:full:safe`, `plugin:ipc:eval`, `plugins:all:safe`. */
  readonly name: string
  readonly mode: EvalMode
  /** The server options that produce this variant's tools/list. */
  readonly config: {
    readonly toolProfile?: ProfileName
    /** An explicit core tool list (empty for plugin variants); exclusive with toolProfile. */
    readonly tools?: ReadonlyArray<string>
    readonly allowEval: ReadonlyArray<EvalTarget>
    readonly plugins: ReadonlyArray<string>
  }
}

const allowEvalOf = (mode: EvalMode): ReadonlyArray<EvalTarget> => (mode === "eval" ? ALL_EVAL_TARGETS : [])

/**
 * Every variant: profiles in their declared order, then single plugins and all plugins (plugin names
 * sorted), each safe then eval. With 4 profiles and n plugins that is 8 + 2n + (n > 0 ? 2 : 0).
 */
export const variantsOf = (profiles: ReadonlyArray<ProfileName>, plugins: ReadonlyArray<string>): ReadonlyArray<Variant> => {
  const sortedPlugins = [...new Set(plugins)].sort()
  const out: Array<Variant> = []
  for (const profile of profiles) {
    for (const mode of EVAL_MODES) {
      out.push({ name: `profile:${profile}:${mode}`, mode, config: { toolProfile: profile, allowEval: allowEvalOf(mode), plugins: [] } })
    }
  }
  for (const plugin of sortedPlugins) {
    for (const mode of EVAL_MODES) {
      out.push({ name: `plugin:${plugin}:${mode}`, mode, config: { tools: [], allowEval: allowEvalOf(mode), plugins: [plugin] } })
    }
  }
  if (sortedPlugins.length > 0) {
    for (const mode of EVAL_MODES) {
      out.push({ name: `plugins:all:${mode}`, mode, config: { tools: [], allowEval: allowEvalOf(mode), plugins: sortedPlugins } })
    }
    // What a host sees with everything loaded: the full profile and every plugin.
    for (const mode of EVAL_MODES) {
      out.push({ name: `everything:${mode}`, mode, config: { toolProfile: "full", allowEval: allowEvalOf(mode), plugins: sortedPlugins } })
    }
  }
  return out
}

/** The variant's server configuration, for serverLayer. */
export const serverConfigOf = (variant: Variant): Partial<ServerConfigShape> => ({
  ...(variant.config.toolProfile !== undefined ? { toolProfile: variant.config.toolProfile } : {}),
  ...(variant.config.tools !== undefined ? { tools: variant.config.tools } : {}),
  allowEval: variant.config.allowEval,
  plugins: variant.config.plugins
})
