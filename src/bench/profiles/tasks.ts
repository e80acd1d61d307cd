/**
 * Every task of the profile benchmark, in report order. To add a task: write a TaskDef (goal first, then
 * the script with agent.step(intent) before each action, then a check that reads files or a fresh launch)
 * in the file of its kind, and list it here; `npm run bench:profiles -- --tasks <id> --variants full` runs it alone.
 */
import { APP_TASKS, PLUGIN_TASKS } from "./tasks-apps.js"
import { FLOW_TASKS } from "./tasks-flows.js"
import { FORM_TASKS } from "./tasks-forms.js"
import { KEY_TASKS } from "./tasks-keys.js"
import { NATIVE_TASKS } from "./tasks-native.js"
import type { TaskDef } from "./task-kit.js"

export const ALL_TASKS: ReadonlyArray<TaskDef> = [...FORM_TASKS, ...NATIVE_TASKS, ...FLOW_TASKS, ...KEY_TASKS, ...APP_TASKS, ...PLUGIN_TASKS]
