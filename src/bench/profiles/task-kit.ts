/**
 * What a task is (a statement, the agent's script and an independent check) and the steps several
 * tasks share: launching the app, waiting until it is ready, choosing an option or ticking a box
 * with whatever the variant lists.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { resolveElectronRuntime } from "../../index.js"
import { type Agent, type AgentEffect, giveUp } from "./agent.js"
import type { Check } from "./checks.js"

/** The sample apps under test/fixtures/apps the tasks run on. */
export type SampleApp = "tasks" | "hardened" | "framework" | "views" | "a11y" | "scheme" | "surfaces" | "insecure"

export const appFolder = (repoRoot: string, app: SampleApp): string => join(repoRoot, "test", "fixtures", "apps", app)

export interface TaskEnv {
  /** The fresh user-data folder of this task (SAMPLE_APP_USER_DATA). */
  readonly userData: string
  /** The server's output folder (exports) and screenshot folder. */
  readonly outputDir: string
  readonly screenshotDir: string
  /** A folder the task may write input files to and the app may save into (SAMPLE_APP_DOWNLOADS). */
  readonly filesDir: string
  readonly repoRoot: string
}

/** A script the agent runs on a task: its answer, when the task asks for one. */
export type Script = (agent: Agent, env: TaskEnv) => AgentEffect<string | undefined>

export interface TaskDef {
  readonly id: string
  readonly app: SampleApp
  /** First-party plugins the task's server loads (their tools are listed in every variant, as --plugin does). */
  readonly plugins?: ReadonlyArray<string>
  /** The user's goal in plain words, before any tool: what a person wants to get done. */
  readonly goal?: string
  /** What a person would ask for, in one line. */
  readonly statement: string
  /** The item of the list this task covers. */
  readonly covers: string
  /** The agent's script (an Effect: giving up is its typed failure); returns its answer when the task asks for one. */
  readonly run: Script
  /** Checks the outcome without the server. */
  readonly check: (env: TaskEnv, answer: string | undefined) => Promise<Check>
  /**
   * For a goal that names a route (the menu, the keyboard, a context menu, a notification, the tray, a
   * shortcut): the wrong-route control's script, which reaches the same end another way (its check must fail).
   */
  readonly wrongRoute?: Script
  /** The capability the task exercises (the report's success per capability). */
  readonly capability?: Capability
  /** Written from goals and frozen: not used while tuning names, descriptions or membership (reported apart). */
  readonly heldOut?: boolean
}

export type Capability =
  | "forms"
  | "reading"
  | "web dialogs"
  | "native dialogs"
  | "menus"
  | "keyboard"
  | "windows"
  | "files"
  | "diagnostics"
  | "plugins"
  | "evidence"

export const launchApp = (agent: Agent, app: SampleApp, env: TaskEnv): AgentEffect<void> =>
  Effect.gen(function* () {
    agent.step("open the app")
    yield* agent.must("electron_launch", {
      app: appFolder(env.repoRoot, app),
      executablePath: resolveElectronRuntime().executablePath,
      env: { SAMPLE_APP_USER_DATA: env.userData, SAMPLE_APP_DOWNLOADS: env.filesDir },
      timeoutMs: 30_000
    })
  })

/** Launches an app and looks at it until it no longer shows a loading line (Agent.settle: no text known in advance). */
export const launchAndLook = (agent: Agent, app: SampleApp, env: TaskEnv): AgentEffect<void> =>
  Effect.gen(function* () {
    yield* launchApp(agent, app, env)
    agent.step("look at the app's window once it has finished loading")
    yield* agent.settle()
  })

export const launchTasks = (agent: Agent, env: TaskEnv): AgentEffect<void> => launchAndLook(agent, "tasks", env)

/** Quits the tasks app (whatever it shows, an open dialog included) and starts it again on the same data. */
export const relaunchTasks = (agent: Agent, env: TaskEnv): AgentEffect<void> =>
  Effect.gen(function* () {
    agent.step("quit the app")
    yield* agent.must("electron_close")
    yield* launchTasks(agent, env)
  })

/** Picks an option of a select: select_option, else eval (label-based), else typing its label. */
export type Target = readonly [string, string | RegExp]

export const chooseOption = (agent: Agent, target: Target, label: string, fieldLabel: string): AgentEffect<void> =>
  Effect.gen(function* () {
    if (agent.has("electron_select_option")) {
      yield* agent.act("electron_select_option", [target], ([ref]) => ({ target: ref, values: [label] }))
      return
    }
    if (agent.has("electron_eval_renderer")) {
      yield* agent.evalFallback(
        "electron_select_option",
        "renderer",
        `([field, label]) => { const l = [...document.querySelectorAll('label')].find((x) => x.textContent.trim() === field); const s = l && (l.control || document.getElementById(l.htmlFor)); if (!s) throw new Error('no select ' + field); const o = [...s.options].find((x) => x.label === label || x.text.trim() === label); s.value = o.value; s.dispatchEvent(new Event('input', { bubbles: true })); s.dispatchEvent(new Event('change', { bubbles: true })); return s.value }`,
        [fieldLabel, label]
      )
      return
    }
    if (agent.has("electron_type")) {
      // A closed select takes typeahead: typing the label's letters selects it and fires change.
      agent.fallbacks.add("electron_type for electron_select_option")
      yield* agent.act("electron_type", [target], ([ref]) => ({ target: ref, text: label }))
      return
    }
    return yield* giveUp("cannot choose an option", "electron_select_option")
  })

/** Sets a checkbox or radio: check, else a click when its state must flip. */
export const setChecked = (agent: Agent, target: Target, checked: boolean, isChecked: boolean): AgentEffect<void> =>
  Effect.gen(function* () {
    if (agent.has("electron_check")) {
      yield* agent.act("electron_check", [target], ([ref]) => ({ target: ref, checked }))
      return
    }
    if (checked === isChecked) return
    agent.fallbacks.add("electron_click for electron_check")
    yield* agent.act("electron_click", [target], ([ref]) => ({ target: ref }))
  })

/** The text of the status line (role=status) of the active window. */
export const statusText = (agent: Agent): AgentEffect<string> =>
  Effect.gen(function* () {
    return (yield* agent.findAll("status"))[0]?.text ?? ""
  })
