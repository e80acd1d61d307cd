/**
 * Flows on the tasks app beyond one form: web dialogs answered both ways, drag and drop, files through native
 * dialogs and a file input, the context menu and the clipboard, a setting that survives a relaunch, keyboard
 * shortcuts, a computed style, late data, evidence screenshots and a window whose load fails. Each task
 * starts from the user's goal; its checks read tasks.json / settings.json, a fresh launch, or files.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { type Agent, type AgentEffect, giveUp, parseNodes } from "./agent.js"
import { activityOf, all, fail, filesIn, pass, readJson, relaunchAndRead, routeTaken, savedBoard, seedTasks } from "./checks.js"
import { launchTasks, relaunchTasks, setChecked, statusText, type TaskDef } from "./task-kit.js"
import { answerDialog, answerNativeRows, dialogIn, overrideSeenDialog } from "./task-steps.js"

const KEEP = "Renew passport"
const GONE = "Water the plants"

export const cancelThenDelete: TaskDef = {
  id: "cancel-then-delete",
  app: "tasks",
  goal: "A user starts deleting a task, changes their mind and keeps it; then deletes another one for real.",
  covers: "a confirm() dismissed, then one accepted",
  statement: `Start deleting "${KEEP}" but answer No when asked; then delete "${GONE}" and answer Yes.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const pressKeep = () =>
        Effect.gen(function* () {
          agent.step(`press the Delete button of ${KEEP}`)
          return yield* agent.click("button", `Delete ${KEEP}`)
        })
      const first = yield* pressKeep()
      agent.step("say no to the are-you-sure question")
      const seen = dialogIn(first)
      let overridden = false
      if (seen !== undefined && !(yield* answerDialog(agent, first, false))) {
        yield* overrideSeenDialog(agent, seen, [false, true], (prepare) =>
          Effect.gen(function* () {
            yield* relaunchTasks(agent, env)
            yield* prepare
            return yield* pressKeep()
          })
        )
        overridden = true
      }
      agent.step(`press the Delete button of ${GONE}`)
      const second = yield* agent.click("button", `Delete ${GONE}`)
      agent.step("say yes to the are-you-sure question")
      if (!overridden && !(yield* answerDialog(agent, second, true))) return yield* giveUp("cannot answer the second question", "electron_web_dialog")
      return undefined
    }),
  check: async (env) => {
    const titles = savedBoard(env.userData)?.tasks.map((t) => t.title)
    if (titles === undefined) return fail("nothing saved")
    return titles.includes(KEEP) && !titles.includes(GONE) && titles.length === seedTasks().length - 1
      ? pass("kept one, deleted the other")
      : fail(`saved titles: ${titles.length}, keep ${titles.includes(KEEP)}, gone ${!titles.includes(GONE)}`)
  }
}

export const aboutBoardAlert: TaskDef = {
  id: "about-board-alert",
  app: "tasks",
  goal: "A user opens About board to see how many tasks are still open, then closes the message.",
  covers: "an alert() web dialog read and closed",
  statement: "Open About board, report its message and close it.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      const press = () =>
        Effect.gen(function* () {
          agent.step("press About board")
          return yield* agent.click("button", "About board")
        })
      const out = yield* press()
      // The click's answer names the message box it opened and quotes its text: that is the report.
      const seen = dialogIn(out)
      if (seen === undefined) return yield* giveUp("no message box opened")
      agent.step("close the message with OK")
      if (!(yield* answerDialog(agent, out, true))) {
        yield* overrideSeenDialog(agent, seen, [], (prepare) =>
          Effect.gen(function* () {
            yield* relaunchTasks(agent, env)
            yield* prepare
            return yield* press()
          })
        )
      }
      return seen.message
    }),
  check: async (env, answer) => {
    const seed = seedTasks()
    const done = seed.filter((t) => t.done).length
    const want = `${seed.length} tasks, ${done} done, ${seed.length - done} open`
    return all(
      answer?.includes(want) === true ? pass("message read") : fail(`answer ${JSON.stringify(answer)}, want …${want}…`),
      activityOf(env.userData).some((a) => a.kind === "page:alert-closed")
        ? pass("the app says the message was closed")
        : fail("the app's activity log has no closed message")
    )
  }
}

export const dragReorder: TaskDef = {
  id: "drag-reorder",
  app: "tasks",
  goal: "A user drags the first task down onto the third one to put it lower in the list.",
  covers: "drag and drop that reorders and saves",
  statement: "Drag the first task of the list onto the third task.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("look at the rows of the task list")
      let text = yield* agent.act("electron_snapshot", [["list", "Task list"]], ([target]) => ({ target }))
      // Rows folded into one line are shown again on request: the answer names the expand value to send.
      const expand = /folded \(expand: "([^"]+)" shows them\)/.exec(text)?.[1]
      const list = parseNodes(text).find((n) => n.role === "list" && n.ref !== undefined)?.ref
      if (expand !== undefined && list !== undefined) text = yield* agent.must("electron_snapshot", { target: list, expand })
      const rows = parseNodes(text).filter((n) => n.role === "listitem" && n.ref !== undefined && n.inline !== true)
      const [source, , target] = rows
      if (source?.ref === undefined || target?.ref === undefined) return yield* giveUp("fewer than three rows")
      agent.step("drag the first row and drop it on the third row")
      if (agent.has("electron_drag")) {
        yield* agent.must("electron_drag", { source: source.ref, target: target.ref })
      } else {
        yield* agent.evalFallback(
          "electron_drag",
          "renderer",
          "() => { const list = [...document.querySelectorAll('ul, ol')].find((l) => l.getAttribute('aria-label') === 'Task list'); const rows = [...list.children]; const dt = new DataTransfer(); const fire = (el, type) => el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt })); fire(rows[0], 'dragstart'); fire(rows[2], 'dragenter'); fire(rows[2], 'dragover'); fire(rows[2], 'drop'); fire(rows[0], 'dragend'); return 'dropped' }"
        )
      }
      agent.step("wait until the app says the task moved")
      yield* agent.waitText("to position 3")
      return yield* statusText(agent)
    }),
  check: async (env) => {
    const seed = seedTasks().map((t) => t.title)
    const saved = savedBoard(env.userData)
      ?.tasks.map((t) => t.title)
      .slice(0, 4)
    const want = [seed[1], seed[2], seed[0], seed[3]]
    return JSON.stringify(saved) === JSON.stringify(want) ? pass("order 2, 3, 1, 4 saved") : fail(`saved order ${JSON.stringify(saved)}`)
  }
}

const IMPORTED = ["Pack the camping gear", "Check the tyre pressure"]

/**
 * Presses the button that opens a native open/save dialog and answers it with `file`: dialog_stub before the
 * press; else the dialog's rows a snapshot shows after it (its path field filled, Enter); else eval in main
 * and a second press; else gives up.
 */
const pressForFileDialog = (agent: Agent, kind: "open" | "save", file: string, button: string): AgentEffect<void> =>
  Effect.gen(function* () {
    if (agent.has("electron_dialog_stub")) {
      agent.step(`get ready to pick ${file} in the ${kind} file window`)
      yield* stubFileDialog(agent, kind, file)
      agent.step(`press ${button}`)
      yield* agent.click("button", button)
      return
    }
    agent.step(`press ${button}`)
    yield* agent.click("button", button)
    agent.step(`answer the ${kind} dialog's rows with ${file}`)
    if (yield* answerNativeRows(agent, new RegExp(`^${kind} dialog: `), { value: file, enter: true })) return
    agent.step(`make the ${kind} file window answer ${file}, then press ${button} again`)
    yield* stubFileDialog(agent, kind, file)
    yield* agent.click("button", button)
  })

/** Stubs the next native open/save dialog: dialog_stub, else eval in main, else gives up. */
const stubFileDialog = (agent: Agent, kind: "open" | "save", file: string): AgentEffect<void> =>
  Effect.gen(function* () {
    if (agent.has("electron_dialog_stub")) {
      yield* agent.must("electron_dialog_stub", { action: "set", rules: [{ kind, answer: kind === "open" ? { filePaths: [file] } : { filePath: file } }] })
      return
    }
    const fn =
      kind === "open"
        ? "({ dialog }, file) => { dialog.showOpenDialog = async () => ({ canceled: false, filePaths: [file] }); return 'open answers ' + file }"
        : "({ dialog }, file) => { dialog.showSaveDialog = async () => ({ canceled: false, filePath: file }); return 'save answers ' + file }"
    yield* agent.evalFallback("electron_dialog_stub", "main", fn, file)
  })

export const importTasks: TaskDef = {
  id: "import-tasks",
  app: "tasks",
  goal: "A user imports two tasks from a file they pick in the Open dialog.",
  covers: "a file opened through a native open dialog",
  statement: "Import the tasks of import.json (in the task's files folder) with Import….",
  run: (agent, env) =>
    Effect.gen(function* () {
      const file = join(env.filesDir, "import.json")
      writeFileSync(file, JSON.stringify(IMPORTED.map((title) => ({ title, notes: "from the import" }))))
      yield* launchTasks(agent, env)
      yield* pressForFileDialog(agent, "open", file, "Import…")
      agent.step("wait until the app says how many tasks it imported")
      yield* agent.waitText("Imported 2 tasks")
      return undefined
    }),
  check: async (env) => {
    const titles = savedBoard(env.userData)?.tasks.map((t) => t.title) ?? []
    return JSON.stringify(titles.slice(-2)) === JSON.stringify(IMPORTED) && titles.length === seedTasks().length + 2
      ? pass("imported at the end and saved")
      : fail(`saved ${titles.length} titles, last ${JSON.stringify(titles.slice(-2))}`)
  }
}

export const exportSaveAs: TaskDef = {
  id: "export-save-as",
  app: "tasks",
  goal: "A user saves the whole board to a file of their choice with Export….",
  covers: "a file written through a native save dialog",
  statement: "Export the board to board-export.json in the task's files folder.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      yield* pressForFileDialog(agent, "save", join(env.filesDir, "board-export.json"), "Export…")
      agent.step("wait until the app says it saved the tasks")
      yield* agent.waitText("Saved 42 tasks")
      return undefined
    }),
  check: async (env) => {
    const board = readJson(join(env.filesDir, "board-export.json")) as { tasks?: ReadonlyArray<{ title: string }> } | undefined
    const want = seedTasks().map((t) => t.title)
    return JSON.stringify(board?.tasks?.map((t) => t.title)) === JSON.stringify(want)
      ? pass("the file holds the 42 tasks")
      : fail(`file: ${filesIn(env.filesDir).join(", ") || "none"}`)
  }
}

/**
 * Right-clicks a task and clicks an item of the menu that pops up: menu_click; else the menu's rows in a
 * snapshot (electron_click); else, having seen no rows, eval in main that keeps the next popped-up menu,
 * a second right-click and the item's click; else gives up.
 */
export const contextMenuItem = (agent: Agent, task: string, label: string): AgentEffect<void> =>
  Effect.gen(function* () {
    const rightClick = () =>
      Effect.gen(function* () {
        agent.step(`right-click the task ${task}`)
        yield* agent.act("electron_click", [["checkbox", new RegExp(task.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))]], ([target]) => ({ target, button: "right" }))
      })
    yield* rightClick()
    if (agent.has("electron_menu")) {
      agent.step("see what the menu that popped up offers")
      yield* agent.must("electron_menu")
    }
    agent.step(`choose ${label} in the menu that popped up`)
    if (agent.has("electron_menu_click")) {
      yield* agent.must("electron_menu_click", { path: [label] })
      return
    }
    const row = (yield* agent.snapshot()).find((n) => /^menuitem/.test(n.role) && n.name === label && n.ref !== undefined)
    if (row?.ref !== undefined) {
      agent.fallbacks.add("electron_click on menu rows for electron_menu_click")
      yield* agent.must("electron_click", { target: row.ref })
      return
    }
    if (!agent.has("electron_eval_main")) return yield* giveUp("cannot click a context menu item", "electron_menu_click")
    agent.step("keep hold of the next menu the app pops up")
    yield* agent.evalFallback(
      "electron_menu_click",
      "main",
      "({ Menu }) => { const popup = Menu.prototype.popup; Menu.prototype.popup = function (...a) { globalThis.__benchPopup = this; return popup.apply(this, a) }; return 'watching' }"
    )
    yield* rightClick()
    agent.step(`choose ${label} in the menu that popped up`)
    yield* agent.evalFallback(
      "electron_menu_click",
      "main",
      "({ BrowserWindow }, label) => { const item = globalThis.__benchPopup.items.find((i) => i.label === label); const w = BrowserWindow.getAllWindows()[0]; item.click({}, w, w.webContents); return label }",
      label
    )
  })

const CTX_TASK = "Prepare Q3 budget review"

export const contextMenuDone: TaskDef = {
  id: "context-menu-done",
  app: "tasks",
  goal: "A user right-clicks a task and marks it done from the menu that pops up.",
  covers: "a context menu",
  statement: `Right-click "${CTX_TASK}" and choose Mark as done.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      yield* contextMenuItem(agent, CTX_TASK, "Mark as done")
      agent.step("wait until the app says the task is completed")
      yield* agent.waitText(`Completed "${CTX_TASK}"`)
      return undefined
    }),
  check: async (env) =>
    all(
      savedBoard(env.userData)?.tasks.find((t) => t.title === CTX_TASK)?.done === true ? pass("done and saved") : fail("not saved as done"),
      routeTaken(env.userData, "context-menu", "ctx-toggle-done", "Mark as done was chosen in the context menu")
    ),
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.click("checkbox", new RegExp(CTX_TASK))
      return undefined
    })
}

export const clipboardFollowUp: TaskDef = {
  id: "clipboard-follow-up",
  app: "tasks",
  goal: "A user copies a task's title from its right-click menu and pastes it into a new follow-up task.",
  covers: "the clipboard (copied by the app, read back)",
  statement: `Copy the title of "${CTX_TASK}" with its context menu, then add the task "Follow up: <the copied text>".`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      yield* contextMenuItem(agent, CTX_TASK, "Copy title")
      agent.step("wait until the app says the title was copied")
      yield* agent.waitText("Copied")
      agent.step("read the text that was copied")
      // What the menu click's answer said the app copied, else the clipboard tool, else eval.
      const told = agent.noted(/^\(clipboard: the app copied ("(?:[^"\\]|\\.)*")\)$/)?.[1]
      const copied =
        told !== undefined
          ? (JSON.parse(told) as string)
          : agent.has("electron_clipboard")
            ? (yield* agent.must("electron_clipboard", { action: "read" })).trim()
            : (JSON.parse(yield* agent.evalFallback("electron_clipboard", "main", "({ clipboard }) => clipboard.readText()")) as string)
      agent.step("type the follow-up title into the new task's Title")
      yield* agent.fill("textbox", "Title", `Follow up: ${copied}`)
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says the task was added")
      yield* agent.waitText("Added")
      return copied
    }),
  check: async (env) => {
    const first = savedBoard(env.userData)?.tasks[0]?.title
    return all(
      first === `Follow up: ${CTX_TASK}` ? pass("pasted title saved") : fail(`first saved title ${JSON.stringify(first)}`),
      routeTaken(env.userData, "context-menu", "ctx-copy-title", "Copy title was chosen in the context menu")
    )
  },
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.fill("textbox", "Title", `Follow up: ${CTX_TASK}`)
      yield* agent.click("button", "Add task")
      return CTX_TASK
    })
}

export const settingsPersist: TaskDef = {
  id: "settings-persist",
  app: "tasks",
  goal: "A user hides finished tasks in Settings, quits, and expects the list to still hide them next time.",
  covers: "a setting that persists across a relaunch",
  statement: "In Settings, turn off Show completed tasks; restart the app and report the main window's count line.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press the Settings button")
      yield* agent.click("button", "Settings")
      agent.step("go to the Settings window once it opens")
      yield* agent.switchTo("Settings")
      agent.step("look at the Settings window once it has loaded")
      yield* agent.settle()
      agent.step("untick Show completed tasks")
      yield* setChecked(agent, ["checkbox", "Show completed tasks"], false, true)
      agent.step("wait until Settings says completed tasks are hidden")
      yield* agent.waitText("completed tasks hidden")
      agent.step("quit the app")
      yield* agent.must("electron_close")
      yield* launchTasks(agent, env)
      agent.step("read the line that counts the tasks shown")
      return (yield* agent.snapshotOf("region", "Tasks")).find((n) => n.role === "paragraph" && n.text.startsWith("Showing"))?.text
    }),
  check: async (env, answer) => {
    const seed = seedTasks()
    const want = `Showing ${seed.filter((t) => !t.done).length} of ${seed.length} tasks`
    const shown = await relaunchAndRead("tasks", env.userData, (page) => page.locator("[data-testid=task-count]").textContent())
    return all(
      shown?.startsWith(want) === true ? pass("a fresh launch still hides completed tasks") : fail(`fresh launch: ${JSON.stringify(shown)}`),
      answer?.startsWith(want) === true ? pass("reported") : fail(`answer ${JSON.stringify(answer)}`)
    )
  }
}

export const FLOW_TASKS: ReadonlyArray<TaskDef> = [
  cancelThenDelete,
  aboutBoardAlert,
  dragReorder,
  importTasks,
  exportSaveAs,
  contextMenuDone,
  clipboardFollowUp,
  settingsPersist
]
