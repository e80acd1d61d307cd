/**
 * What a task is (a statement, the agent's script and an independent check) and the steps several
 * tasks share: launching the app, waiting until it is ready, choosing an option or ticking a box
 * with whatever the variant lists.
 */
import { resolveElectronRuntime } from "../../index.js"
import { sampleAppPath } from "../../samples.js"
import { Agent, GiveUp } from "./agent.js"
import type { Check } from "./checks.js"

export type SampleApp = "tasks" | "hardened"

export interface TaskEnv {
  /** The fresh user-data folder of this task (SAMPLE_APP_USER_DATA). */
  readonly userData: string
  /** The server's output folder (exports) and screenshot folder. */
  readonly outputDir: string
  readonly screenshotDir: string
  readonly repoRoot: string
}

export interface TaskDef {
  readonly id: string
  readonly app: SampleApp
  /** What a person would ask for, in one line. */
  readonly statement: string
  /** The item of the list this task covers. */
  readonly covers: string
  /** The agent's script; returns its answer when the task asks for one. */
  readonly run: (agent: Agent, env: TaskEnv) => Promise<string | undefined>
  /** Checks the outcome without the server. */
  readonly check: (env: TaskEnv, answer: string | undefined) => Promise<Check>
}

export const launchApp = async (agent: Agent, app: SampleApp, env: TaskEnv): Promise<void> => {
  await agent.must("electron_launch", {
    app: sampleAppPath(app),
    executablePath: resolveElectronRuntime().executablePath,
    env: { SAMPLE_APP_USER_DATA: env.userData },
    timeoutMs: 30_000
  })
}

/** The tasks app says "Loaded N tasks" when its board is in: wait for that before acting. */
export const launchTasks = async (agent: Agent, env: TaskEnv): Promise<void> => {
  await launchApp(agent, "tasks", env)
  await agent.waitText("Loaded")
}

/** Picks an option of a select: select_option, else eval (label-based), else typing its label. */
export type Target = readonly [string, string | RegExp]

export const chooseOption = async (agent: Agent, target: Target, label: string, fieldLabel: string): Promise<void> => {
  if (agent.has("electron_select_option")) {
    await agent.act("electron_select_option", [target], ([ref]) => ({ target: ref, values: [label] }))
    return
  }
  if (agent.has("electron_eval_renderer")) {
    await agent.evalFallback(
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
    await agent.act("electron_type", [target], ([ref]) => ({ target: ref, text: label }))
    return
  }
  throw new GiveUp("cannot choose an option", "electron_select_option")
}

/** Sets a checkbox or radio: check, else a click when its state must flip. */
export const setChecked = async (agent: Agent, target: Target, checked: boolean, isChecked: boolean): Promise<void> => {
  if (agent.has("electron_check")) {
    await agent.act("electron_check", [target], ([ref]) => ({ target: ref, checked }))
    return
  }
  if (checked === isChecked) return
  agent.fallbacks.add("electron_click for electron_check")
  await agent.act("electron_click", [target], ([ref]) => ({ target: ref }))
}

/** The text of the status line (role=status) of the active window. */
export const statusText = async (agent: Agent): Promise<string> => (await agent.findAll("status"))[0]?.text ?? ""
