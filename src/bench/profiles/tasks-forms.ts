/** Tasks on the tasks app's main window: forms, search, edit and relaunch, web dialogs, keyboard, late UI. */

import { Effect } from "effect"
import { type Agent, giveUp } from "./agent.js"
import { activityOf, all, fail, pass, savedBoard, seedTasks, titlesAfterRelaunch } from "./checks.js"
import { chooseOption, launchTasks, relaunchTasks, setChecked, statusText, type TaskDef } from "./task-kit.js"
import { answerDialog, dialogIn, overrideSeenDialog } from "./task-steps.js"

const NEW_TASK = { title: "Order printer toner", notes: "Two black cartridges", priority: "High" }

export const formSubmit: TaskDef = {
  id: "form-submit",
  app: "tasks",
  goal: "A user adds a fully described task (notes, priority, urgency, category) and sees the app confirm it.",
  covers: "fill and submit a form and check the app's acknowledgement",
  statement: `Add the task "${NEW_TASK.title}" (notes "${NEW_TASK.notes}", priority High, urgent, category Home) and report the acknowledgement.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const title = ["textbox", "Title"] as const
      const notes = ["textbox", "Notes"] as const
      agent.step("enter the title, notes, priority, urgency and category of the new task")
      if (agent.has("electron_fill_form")) {
        yield* agent.act("electron_fill_form", [title, notes, ["combobox", "Priority"], ["checkbox", "Urgent"], ["radio", "Home"]], (refs) => ({
          fields: [
            { target: refs[0], value: NEW_TASK.title },
            { target: refs[1], value: NEW_TASK.notes },
            { target: refs[2], value: NEW_TASK.priority },
            { target: refs[3], value: true },
            { target: refs[4], value: true }
          ]
        }))
      } else {
        yield* agent.fill(...title, NEW_TASK.title)
        agent.step("type the notes of the task")
        yield* agent.fill(...notes, NEW_TASK.notes)
        agent.step("pick High in the priority list")
        yield* chooseOption(agent, ["combobox", "Priority"], NEW_TASK.priority, "Priority")
        agent.step("tick the Urgent box")
        yield* setChecked(agent, ["checkbox", "Urgent"], true, false)
        agent.step("choose the Home category")
        yield* setChecked(agent, ["radio", "Home"], true, false)
      }
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says the task was added")
      yield* agent.waitText(`Added "${NEW_TASK.title}"`)
      agent.step("read the status message")
      return yield* statusText(agent)
    }),
  check: async (env, answer) => {
    const t = savedBoard(env.userData)?.tasks.find((x) => x.title === NEW_TASK.title)
    if (t === undefined) return fail("tasks.json has no such task")
    return all(
      t.priority === "high" && t.urgent && t.category === "home" && t.notes === NEW_TASK.notes
        ? pass("saved with every field")
        : fail(`saved as ${JSON.stringify(t)}`),
      answer?.includes(NEW_TASK.title) === true ? pass("acknowledged") : fail(`answer ${JSON.stringify(answer)}`)
    )
  }
}

export const validationMessage: TaskDef = {
  id: "validation-message",
  app: "tasks",
  goal: "A user forgets the title and wants to know what the form says is wrong.",
  covers: "a validation message",
  statement: "Submit the add-task form with an empty title and report the validation message under Title.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Add task without typing a title")
      yield* agent.click("button", "Add task")
      agent.step("look at the add-task form to read the message under Title")
      const nodes = yield* agent.snapshotOf("form", "Add a task")
      const i = nodes.findIndex((n) => n.role === "textbox" && n.name === "Title")
      const message = nodes.slice(i + 1).find((n) => n.role === "paragraph" && n.text !== "")?.text
      if (i < 0 || message === undefined) return yield* giveUp("no message under Title")
      return message
    }),
  check: async (env, answer) =>
    all(
      answer === "Title is required" ? pass("message read") : fail(`answer ${JSON.stringify(answer)}`),
      savedBoard(env.userData) === undefined ? pass("nothing saved") : fail("the empty task was saved")
    )
}

const QUERY = "insurance"

export const searchRead: TaskDef = {
  id: "search-read",
  app: "tasks",
  goal: "A user searches for the insurance task and reads its notes.",
  covers: "search and read a result",
  statement: `Search the tasks for "${QUERY}" and report the notes of the task found.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step(`type ${QUERY} into the search box`)
      yield* agent.fill("searchbox", "Search tasks", QUERY)
      agent.step("wait until the list shows one result")
      yield* agent.waitText("Showing 1 of")
      agent.step("look at the task list to read the result's notes")
      const nodes = yield* agent.snapshotOf("list", "Task list")
      const items = nodes.filter((n) => n.role === "listitem")
      if (items.length !== 1) return yield* giveUp(`${items.length} results`)
      // title, meta, notes: the notes are the last plain text of the row.
      const texts = nodes.filter((n) => n.role === "generic" && n.text !== "" && !n.attrs.includes("aria-hidden"))
      return texts[texts.length - 1]?.text
    }),
  check: async (_env, answer) => {
    const hits = seedTasks().filter((t) => `${t.title} ${t.notes}`.toLowerCase().includes(QUERY))
    return hits.length === 1 && answer === hits[0]?.notes
      ? pass("notes read")
      : fail(`answer ${JSON.stringify(answer)}, truth ${JSON.stringify(hits.map((h) => h.notes))}`)
  }
}

const OLD = "Clean out the garage"
const NEW = "Clean out the attic"

export const editPersist: TaskDef = {
  id: "edit-persist",
  app: "tasks",
  goal: "A user renames a task and expects the new name to be there the next time they open the app.",
  covers: "edit and persist, then relaunch and check",
  statement: `Rename the task "${OLD}" to "${NEW}", restart the app and confirm the new title is still there.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("open the task's editor with its Edit button")
      yield* agent.click("button", `Edit ${OLD}`)
      agent.step("replace the task's title")
      yield* agent.fill("textbox", "Task title", NEW)
      agent.step("press Save")
      yield* agent.click("button", "Save")
      agent.step("wait until the app says the change was saved")
      yield* agent.waitText(`Saved changes to "${NEW}"`)
      agent.step("quit the app")
      yield* agent.must("electron_close")
      yield* launchTasks(agent, env)
      agent.step("look for the renamed task in the list")
      const found = yield* agent.findAll("checkbox", `Done: ${NEW}`)
      if (found.length !== 1) return yield* giveUp("the new title is not there after the restart")
      return found[0]?.name
    }),
  check: async (env) => {
    const titles = savedBoard(env.userData)?.tasks.map((t) => t.title) ?? []
    const saved = titles.includes(NEW) && !titles.includes(OLD)
    if (!saved) return fail("tasks.json does not have the new title")
    const shown = await titlesAfterRelaunch(env.userData)
    return shown.some((t) => t.startsWith(NEW)) && !shown.some((t) => t.startsWith(OLD))
      ? pass("saved, and shown after a fresh launch")
      : fail("not shown after a fresh launch")
  }
}

const DOOMED = "Research standing desks"

export const confirmDelete: TaskDef = {
  id: "confirm-delete",
  app: "tasks",
  goal: "A user deletes a task and confirms when the app asks whether they are sure.",
  covers: "a confirm() web dialog",
  statement: `Delete the task "${DOOMED}" (the app asks for confirmation: confirm it).`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const press = () =>
        Effect.gen(function* () {
          agent.step("press the task's Delete button")
          return yield* agent.click("button", `Delete ${DOOMED}`)
        })
      let out = yield* press()
      agent.step("say yes to the are-you-sure question")
      const seen = dialogIn(out)
      if (seen !== undefined && !(yield* answerDialog(agent, out, true))) {
        out = yield* overrideSeenDialog(agent, seen, [true], (prepare) =>
          Effect.gen(function* () {
            yield* relaunchTasks(agent, env)
            yield* prepare
            return yield* press()
          })
        )
      }
      agent.step("read the status message")
      return yield* statusText(agent)
    }),
  check: async (env) => {
    const board = savedBoard(env.userData)
    if (board === undefined) return fail("nothing saved")
    return !board.tasks.some((t) => t.title === DOOMED) && board.tasks.length === seedTasks().length - 1
      ? pass("deleted and saved")
      : fail("the task is still saved")
  }
}

const BOARD = "Sprint 42"

export const promptRename: TaskDef = {
  id: "prompt-rename",
  app: "tasks",
  goal: "A user gives the board a new name with Rename board.",
  // Electron has no prompt() (it throws "prompt() is and will not be supported."; the stand-in does the same):
  // the app shows its own inline rename form, the path real users take. A dialog is answered only if one opens.
  covers: "an app's inline rename form (Electron has no prompt())",
  statement: `Rename the board to "${BOARD}" with Rename board.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const press = () =>
        Effect.gen(function* () {
          agent.step("press Rename board")
          return yield* agent.click("button", "Rename board")
        })
      const out = yield* press()
      const seen = dialogIn(out)
      if (seen !== undefined) {
        agent.step("type the new name into the box that pops up and press OK")
        if (!(yield* answerDialog(agent, out, true, BOARD))) {
          yield* overrideSeenDialog(agent, seen, [BOARD], (prepare) =>
            Effect.gen(function* () {
              yield* relaunchTasks(agent, env)
              yield* prepare
              return yield* press()
            })
          )
        }
      } else {
        // Electron has no prompt(): the app shows its own rename form instead (a textbox and a button).
        agent.step("type the new name into the board's rename form")
        yield* agent.fill("textbox", /board name/i, BOARD)
        agent.step("confirm the new name")
        yield* agent.click("button", /^(?:Save name|Save|Rename|OK)$/)
      }
      agent.step("read the status message")
      return yield* statusText(agent)
    }),
  check: async (env) => {
    const name = savedBoard(env.userData)?.board.name
    return name === BOARD ? pass("board renamed and saved") : fail(`board name ${JSON.stringify(name)}`)
  }
}

const TYPED = "Call the plumber"

export const keyboardOnly: TaskDef = {
  id: "keyboard-only",
  app: "tasks",
  goal: "A user who does not use the mouse adds a task by typing its title and pressing Enter.",
  covers: "keyboard-only operation",
  statement: `Using only the keyboard, add the task "${TYPED}": type it into Title and press Enter.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const title = ["textbox", "Title"] as const
      agent.step("type the title letter by letter")
      yield* agent.act(yield* agent.pick("electron_type"), [title], ([target]) => ({ target, text: TYPED }))
      agent.step("hit Enter to submit")
      yield* agent.act(yield* agent.pick("electron_press_key"), [title], ([target]) => ({ key: "Enter", target }))
      agent.step("wait until the app says the task was added")
      yield* agent.waitText(`Added "${TYPED}"`)
      return yield* statusText(agent)
    }),
  check: async (env) => {
    const submits = activityOf(env.userData).filter((a) => a.kind === "page:submit-task")
    return all(
      savedBoard(env.userData)?.tasks[0]?.title === TYPED ? pass("added at the top and saved") : fail("not saved"),
      submits.length > 0 && submits.every((a) => a.detail === "keyboard")
        ? pass("the app's log says the form was submitted from the keyboard")
        : fail(`the app's log says the form was submitted by ${submits.map((a) => a.detail).join(", ") || "nothing"}`)
    )
  },
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.fill("textbox", "Title", TYPED)
      yield* agent.click("button", "Add task")
      return yield* statusText(agent)
    })
}

export const lateSection: TaskDef = {
  id: "late-section",
  app: "tasks",
  goal: "A user waits for the recommendations that load a moment after the board and reads the first one.",
  covers: "a late-loading section",
  statement: "Wait for the Recommendations section and report its first recommendation.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("wait for the Recommendations section to show up")
      yield* agent.waitText("Recommendations")
      agent.step("read the items of the Recommendations section")
      const first = (yield* agent.snapshotOf("region", "Recommendations")).find((n) => n.role === "listitem")
      return first?.text
    }),
  check: async (_env, answer) => (answer === "Review overdue tasks first" ? pass("read") : fail(`answer ${JSON.stringify(answer)}`))
}

export const FORM_TASKS: ReadonlyArray<TaskDef> = [
  formSubmit,
  validationMessage,
  searchRead,
  editPersist,
  confirmDelete,
  promptRename,
  keyboardOnly,
  lateSection
]

export type { Agent }
