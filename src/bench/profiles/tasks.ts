/**
 * Every task of the profile benchmark, in report order. To add a task: write a TaskDef (goal first, then
 * the script, an Effect program with agent.step(intent) before each action — `(agent, env) => Effect.gen(function* () {
 * … yield* agent.click(…) … })`, giving up with `return yield* giveUp(…)` — then a check that reads files or a fresh launch)
 * in the file of its kind, and list it here; `npm run bench:profiles -- --tasks <id> --variants full` runs it alone.
 * Each task's capability (the report's success per capability) is listed below.
 */
import { FORMER_HELD_OUT_TASKS } from "./tasks-held-out.js"
import { HELD_OUT_TASKS_2 } from "./tasks-held-out-2.js"
import { APP_TASKS, PLUGIN_TASKS } from "./tasks-apps.js"
import { FLOW_TASKS } from "./tasks-flows.js"
import { FORM_TASKS } from "./tasks-forms.js"
import { KEY_TASKS } from "./tasks-keys.js"
import { MORE_TASKS } from "./tasks-more.js"
import { NATIVE_TASKS } from "./tasks-native.js"
import type { Capability, TaskDef } from "./task-kit.js"

const CAPABILITY: Readonly<Record<string, Capability>> = {
  "form-submit": "forms",
  "validation-message": "reading",
  "search-read": "reading",
  "edit-persist": "forms",
  "confirm-delete": "web dialogs",
  "prompt-rename": "forms",
  "keyboard-only": "keyboard",
  "late-section": "reading",
  "native-message-box": "native dialogs",
  "menu-toggle-theme": "menus",
  "second-window": "windows",
  broadcast: "windows",
  "screenshot-file": "evidence",
  "console-after-action": "diagnostics",
  "ipc-roundtrip": "forms",
  "crash-recovery": "diagnostics",
  "export-test": "evidence",
  "cancel-then-delete": "web dialogs",
  "about-board-alert": "web dialogs",
  "drag-reorder": "forms",
  "import-tasks": "native dialogs",
  "export-save-as": "native dialogs",
  "context-menu-done": "menus",
  "clipboard-follow-up": "menus",
  "settings-persist": "windows",
  "shortcut-search": "keyboard",
  "keyboard-edit": "keyboard",
  "attach-file": "files",
  "dark-background": "diagnostics",
  "slow-quote": "reading",
  "error-screenshot": "evidence",
  "offline-page-error": "diagnostics",
  "framework-profile": "forms",
  "views-section": "windows",
  "scheme-download": "files",
  "offline-quote": "plugins",
  "save-error-ipc": "plugins",
  "a11y-audit": "plugins",
  "notification-click": "plugins",
  "tray-new-task": "plugins"
}

const TUNED: ReadonlyArray<TaskDef> = [...FORM_TASKS, ...NATIVE_TASKS, ...FLOW_TASKS, ...KEY_TASKS, ...APP_TASKS, ...MORE_TASKS, ...PLUGIN_TASKS].map((t) =>
  t.capability !== undefined || CAPABILITY[t.id] === undefined ? t : { ...t, capability: CAPABILITY[t.id] }
)

/**
 * The first held-out set (tasks-held-out.ts) was seen while tool descriptions were tuned on 2026-12-02: it is
 * tuned now (no heldOut flag) and reported with the others. The held-out set is tasks-held-out-2.ts (frozen).
 */
export const ALL_TASKS: ReadonlyArray<TaskDef> = [...TUNED, ...FORMER_HELD_OUT_TASKS, ...HELD_OUT_TASKS_2]
