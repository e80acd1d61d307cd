/** Every task of the profile benchmark, in report order. */
import { FORM_TASKS } from "./tasks-forms.js"
import { NATIVE_TASKS } from "./tasks-native.js"
import type { TaskDef } from "./task-kit.js"

export const ALL_TASKS: ReadonlyArray<TaskDef> = [...FORM_TASKS, ...NATIVE_TASKS]
