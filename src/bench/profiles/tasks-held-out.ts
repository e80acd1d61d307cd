/**
 * The first held-out set (issue 41 item 4), written from a user's goal on 2026-12-01 after the tuned tasks.
 * No longer held out: these tasks were seen while tool descriptions were tuned on 2026-12-02 (their step
 * intents went into the retrievability baseline), so they count as tuned tasks now. The held-out set is
 * tasks-held-out-2.ts. The tasks are kept as they were: each uses only the agent's generic steps (it looks,
 * then acts on what it saw) and a check that reads the app's files or its activity log.
 */
import { Effect } from "effect"
import { type Agent, type AgentEffect, giveUp } from "./agent.js"
import { activityOf, all, fail, pass, routeTaken, savedBoard, savedSettings, seedTasks } from "./checks.js"
import { chooseOption, launchAndLook, launchTasks, setChecked, statusText, type TaskDef } from "./task-kit.js"
import { answerDialog, clickMenu, dialogIn } from "./task-steps.js"

const countLine = (agent: Agent): AgentEffect<string | undefined> =>
  Effect.gen(function* () {
    return (yield* agent.snapshotOf("region", "Tasks")).find((n) => n.role === "paragraph" && n.text.startsWith("Showing"))?.text
  })

/** Formerly marked held out; seen while descriptions were tuned on 2026-12-02, so tuned now (no heldOut flag). */
const formerlyHeldOut = (t: Omit<TaskDef, "heldOut">): TaskDef => t

const LOW = "Sort the recycling"

export const FORMER_HELD_OUT_TASKS: ReadonlyArray<TaskDef> = [
  formerlyHeldOut({
    id: "ho-open-only",
    app: "tasks",
    capability: "reading",
    goal: "A user wants to see only what is still open and how many that is.",
    covers: "a filter select, then a count read",
    statement: "Show only open tasks and report the count line.",
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("choose Open in the Show list")
        yield* chooseOption(agent, ["combobox", "Show"], "Open", "Show")
        agent.step("read the line that counts the tasks shown")
        return yield* countLine(agent)
      }),
    check: async (_env, answer) => {
      const seed = seedTasks()
      const open = seed.filter((t) => !t.done).length
      return answer?.startsWith(`Showing ${open} of ${seed.length}`) === true ? pass("open tasks counted") : fail(`answer ${JSON.stringify(answer)}`)
    }
  }),
  formerlyHeldOut({
    id: "ho-low-work-task",
    app: "tasks",
    capability: "forms",
    goal: "A user files a low-priority work chore.",
    covers: "a form with a select and a radio",
    statement: `Add the task "${LOW}" with priority Low in the Work category.`,
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("type the title of the new task")
        yield* agent.fill("textbox", "Title", LOW)
        agent.step("pick Low in the priority list")
        yield* chooseOption(agent, ["combobox", "Priority"], "Low", "Priority")
        agent.step("choose the Work category")
        yield* setChecked(agent, ["radio", "Work"], true, false)
        agent.step("press the Add task button")
        yield* agent.click("button", "Add task")
        return yield* statusText(agent)
      }),
    check: async (env) => {
      const t = savedBoard(env.userData)?.tasks.find((x) => x.title === LOW)
      return t?.priority === "low" && t.category === "work" ? pass("saved as low, work") : fail(`saved as ${JSON.stringify(t)}`)
    }
  }),
  formerlyHeldOut({
    id: "ho-reopen-task",
    app: "tasks",
    capability: "forms",
    goal: "A user ticked a task done by mistake and wants it open again.",
    covers: "unticking a done task",
    statement: 'Mark "Water the plants" as not done.',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("see whether the task is ticked")
        const box = (yield* agent.findAll("checkbox", /Water the plants/))[0]
        if (box === undefined) return yield* giveUp("no such task")
        agent.step("untick the task")
        yield* setChecked(agent, ["checkbox", /Water the plants/], false, box.attrs.includes("checked"))
        return undefined
      }),
    check: async (env) =>
      savedBoard(env.userData)?.tasks.find((t) => t.title === "Water the plants")?.done === false ? pass("open again, saved") : fail("not saved as open")
  }),
  formerlyHeldOut({
    id: "ho-move-to-top",
    app: "tasks",
    capability: "menus",
    goal: "A user pulls a task to the top of the list from its right-click menu.",
    covers: "a context-menu item that reorders",
    statement: 'Right-click "Schedule car service" and choose Move to top.',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("right-click the task")
        yield* agent.act("electron_click", [["checkbox", /Schedule car service/]], ([target]) => ({ target, button: "right" }))
        agent.step("choose Move to top in the menu that popped up")
        if (agent.has("electron_menu_click")) {
          yield* agent.must("electron_menu_click", { path: ["Move to top"] })
          return undefined
        }
        const row = (yield* agent.snapshot()).find((n) => /^menuitem/.test(n.role) && n.name === "Move to top" && n.ref !== undefined)
        if (row?.ref === undefined) return yield* giveUp("cannot click a context menu item", "electron_menu_click")
        yield* agent.must("electron_click", { target: row.ref })
        return undefined
      }),
    check: async (env) =>
      all(
        savedBoard(env.userData)?.tasks[0]?.title === "Schedule car service"
          ? pass("first, saved")
          : fail(`first saved ${JSON.stringify(savedBoard(env.userData)?.tasks[0]?.title)}`),
        routeTaken(env.userData, "context-menu", "ctx-move-top", "Move to top was chosen in the context menu")
      )
  }),
  formerlyHeldOut({
    id: "ho-menu-new-task",
    app: "tasks",
    capability: "menus",
    goal: "A user starts a task from File > New Task in the menu bar and adds it.",
    covers: "an application-menu command, then a form",
    statement: 'Choose File > New Task in the menu, then add the task "Renew gym membership".',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("choose File > New Task in the menu bar")
        yield* clickMenu(agent, ["File", "New Task"])
        agent.step("type the title into the new task's Title")
        yield* agent.fill("textbox", "Title", "Renew gym membership")
        agent.step("press the Add task button")
        yield* agent.click("button", "Add task")
        return undefined
      }),
    check: async (env) =>
      all(
        savedBoard(env.userData)?.tasks[0]?.title === "Renew gym membership" ? pass("added, saved") : fail("not saved"),
        routeTaken(env.userData, "menu", "new-task", "File > New Task was chosen in the menu")
      )
  }),
  formerlyHeldOut({
    id: "ho-light-theme",
    app: "tasks",
    capability: "windows",
    goal: "A user prefers the light theme and sets it in the Settings window.",
    covers: "a setting chosen in a second window",
    statement: "Open Settings and choose the Light theme.",
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("press the Settings button")
        yield* agent.click("button", "Settings")
        agent.step("go to the Settings window once it opens")
        yield* agent.switchTo("Settings")
        agent.step("look at the Settings window")
        yield* agent.settle()
        agent.step("pick Light in the Theme list")
        yield* chooseOption(agent, ["combobox", "Theme"], "Light", "Theme")
        return undefined
      }),
    check: async (env) =>
      savedSettings(env.userData)?.theme === "light" ? pass("light saved") : fail(`settings ${JSON.stringify(savedSettings(env.userData))}`)
  }),
  formerlyHeldOut({
    id: "ho-delete-two",
    app: "tasks",
    capability: "web dialogs",
    goal: "A user clears two tasks they no longer need, confirming each time.",
    covers: "two confirm() dialogs accepted",
    statement: 'Delete "Return library books" and "Back up photo library", confirming both.',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        for (const title of ["Return library books", "Back up photo library"]) {
          agent.step(`press the Delete button of ${title}`)
          const out = yield* agent.click("button", new RegExp(`^Delete ${title}$`))
          agent.step("say yes to the are-you-sure question")
          if (dialogIn(out) !== undefined && !(yield* answerDialog(agent, out, true))) return yield* giveUp("cannot answer the question", "electron_web_dialog")
        }
        return undefined
      }),
    check: async (env) => {
      const titles = savedBoard(env.userData)?.tasks.map((t) => t.title) ?? []
      return titles.length === seedTasks().length - 2 && !titles.includes("Return library books") && !titles.includes("Back up photo library")
        ? pass("both gone, saved")
        : fail(`saved ${titles.length} titles`)
    }
  }),
  formerlyHeldOut({
    id: "ho-search-count",
    app: "tasks",
    capability: "reading",
    goal: "A user wants to know how many tasks mention a review.",
    covers: "search then a count",
    statement: 'Search the tasks for "review" and report the count line.',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("type review into the search box")
        yield* agent.fill("searchbox", "Search tasks", "review")
        agent.step("read the line that counts the tasks shown")
        return yield* countLine(agent)
      }),
    check: async (_env, answer) => {
      const seed = seedTasks()
      const hits = seed.filter((t) => `${t.title} ${t.notes}`.toLowerCase().includes("review")).length
      return answer?.startsWith(`Showing ${hits} of ${seed.length}`) === true ? pass("counted") : fail(`answer ${JSON.stringify(answer)}, want ${hits}`)
    }
  }),
  formerlyHeldOut({
    id: "ho-keyboard-enter-add",
    app: "tasks",
    capability: "keyboard",
    goal: "A fast typist adds a task by typing and pressing Enter, never touching the mouse.",
    covers: "typing and Enter only",
    statement: 'With the keyboard only, add the task "Book train tickets".',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchTasks(agent, env)
        agent.step("type the title into Title")
        yield* agent.act(yield* agent.pick("electron_type"), [["textbox", "Title"]], ([target]) => ({ target, text: "Book train tickets" }))
        agent.step("press Enter")
        yield* agent.act(yield* agent.pick("electron_press_key"), [["textbox", "Title"]], ([target]) => ({ target, key: "Enter" }))
        return undefined
      }),
    check: async (env) => {
      const submits = activityOf(env.userData).filter((a) => a.kind === "page:submit-task")
      return all(
        savedBoard(env.userData)?.tasks[0]?.title === "Book train tickets" ? pass("saved") : fail("not saved"),
        submits.length > 0 && submits.every((a) => a.detail === "keyboard")
          ? pass("submitted from the keyboard")
          : fail(`submitted by ${submits.map((a) => a.detail).join(", ") || "nothing"}`)
      )
    },
    wrongRoute: (agent) =>
      Effect.gen(function* () {
        yield* agent.settle()
        yield* agent.fill("textbox", "Title", "Book train tickets")
        yield* agent.click("button", "Add task")
        return undefined
      })
  }),
  formerlyHeldOut({
    id: "ho-ping-hello",
    app: "hardened",
    capability: "forms",
    goal: "A developer checks that the hardened app's background process answers a message.",
    covers: "an IPC round trip read from the page",
    statement: 'In the hardened app, send "hello-held-out" with Ping and report the reply.',
    run: (agent, env) =>
      Effect.gen(function* () {
        yield* launchAndLook(agent, "hardened", env)
        agent.step("type the message to send")
        yield* agent.fill("textbox", "Message", "hello-held-out")
        agent.step("press Ping")
        yield* agent.click("button", "Ping")
        agent.step("wait for the reply to show up")
        yield* agent.waitText("hello-held-out")
        agent.step("read the reply")
        const nodes = yield* agent.snapshotOf("region", "Basics")
        return nodes.find((n) => n.text.includes("pong:hello-held-out"))?.text
      }),
    check: async (_env, answer) => (answer?.includes("pong:hello-held-out") === true ? pass("reply read") : fail(`answer ${JSON.stringify(answer)}`))
  })
]
