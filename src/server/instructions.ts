/**
 * The server's `instructions` (MCP initialize result): what a host shows a model before any tool schema
 * (hosts that defer schemas choose tools from these lines and the names). Short, and specific to this
 * server's flags: the active profile, plugins and eval targets. Counted by the manifest gate.
 */
import type { EvalTarget } from "../eval-policy/EvalPolicy.js"

export interface InstructionsInput {
  readonly profile: string
  readonly plugins: ReadonlyArray<string>
  readonly allowEval: ReadonlyArray<EvalTarget>
}

export const serverInstructions = ({ profile, plugins, allowEval }: InstructionsInput): string =>
  [
    "Stagewright drives an Electron desktop app for testing and debugging.",
    "Start with electron_launch (an app folder or main script) or electron_attach (a running app's debugging port).",
    'Then electron_snapshot or electron_find to see the page: they give refs (e12) that every element tool takes as target, as well as Playwright selectors (role=button[name="Save"], text=…, label=…, placeholder=…, testid=…, css=…).',
    "Actions answer what changed; assert with electron_expect_*; errors name the next step in their Hint.",
    "Deferred schemas? Search: launch, snapshot, click, fill, wait, window, dialog, menu, screenshot.",
    `Active: profile ${profile}; plugins ${plugins.length > 0 ? plugins.join(", ") : "none"}; eval ${allowEval.length > 0 ? allowEval.join(", ") : "off"}.`
  ].join("\n")
