/**
 * Tasks on the other sample apps (React forms, a window of two views, a custom-scheme download) and tasks
 * that need a first-party plugin (network failure, a failing IPC channel, accessibility, notifications, the
 * tray). A plugin task's server loads the plugin in every variant, as `--plugin NAME` would: its tools are
 * listed whatever the profile, so the profile decides only the core tools the task also needs.
 */
import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { giveUp } from "./agent.js"
import { all, fail, pass, readJson, routeTaken, savedBoard, seedTasks } from "./checks.js"
import { appFolder, chooseOption, launchAndLook, launchTasks, setChecked, statusText, type TaskDef } from "./task-kit.js"
import { resultWhenSet } from "./task-steps.js"

const PROFILE = { name: "Ada Lovelace", age: "36", role: "Designer" }

export const frameworkProfile: TaskDef = {
  id: "framework-profile",
  app: "framework",
  goal: "A user fills in their profile in a React app (name, age, role), accepts the terms and saves it.",
  covers: "a controlled (React) form saved through IPC to a file",
  statement: `In the framework app, save the profile ${PROFILE.name}, age ${PROFILE.age}, role ${PROFILE.role}, terms accepted.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchAndLook(agent, "framework", env)
      agent.step("type the name")
      yield* agent.fill("textbox", "Name", PROFILE.name)
      agent.step("type the age")
      yield* agent.fill("spinbutton", "Age", PROFILE.age)
      agent.step(`pick ${PROFILE.role} in the Role list`)
      yield* chooseOption(agent, ["combobox", "Role"], PROFILE.role, "Role")
      agent.step("tick I accept the terms")
      yield* setChecked(agent, ["checkbox", "I accept the terms"], true, false)
      agent.step("press Save")
      yield* agent.click("button", "Save")
      agent.step("wait until the app says the profile was saved")
      yield* agent.waitText(`Saved profile for ${PROFILE.name}`)
      return undefined
    }),
  check: async (env) => {
    const saved = readJson(join(env.userData, "profile.json")) as { name?: string; age?: number; role?: string; terms?: boolean } | undefined
    return saved?.name === PROFILE.name && saved.age === Number(PROFILE.age) && saved.role === PROFILE.role.toLowerCase() && saved.terms === true
      ? pass("profile.json has every field")
      : fail(`profile.json ${JSON.stringify(saved)}`)
  }
}

export const viewsSection: TaskDef = {
  id: "views-section",
  app: "views",
  goal: "A user picks Calendar in the sidebar of a window made of two views and reads the first entry the content pane then shows.",
  covers: "one window of two WebContentsViews (act in one, read the other)",
  statement: "In the views app, choose Calendar in the sidebar and report the first item of the content pane.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchAndLook(agent, "views", env)
      agent.step("go to the sidebar view")
      yield* agent.switchTo("Sidebar")
      agent.step("press Calendar in the sidebar")
      yield* agent.click("button", "Calendar")
      agent.step("go to the content pane, now titled Calendar")
      yield* agent.switchTo("Calendar")
      agent.step("read the items the content pane lists")
      const items = yield* agent.findAll("listitem")
      return items[0]?.text || items[0]?.name
    }),
  check: async (env, answer) => {
    const source = readFileSync(join(appFolder(env.repoRoot, "views"), "main.js"), "utf8")
    const first = /calendar: \{[^}]*items: \['([^']*)'/.exec(source)?.[1]
    return first !== undefined && answer === first
      ? pass("the calendar's first item")
      : fail(`answer ${JSON.stringify(answer)}, the app's data says ${JSON.stringify(first)}`)
  }
}

export const schemeDownload: TaskDef = {
  id: "scheme-download",
  app: "scheme",
  goal: "A user downloads the CSV export of an app served from its own app:// scheme and finds it in their downloads folder.",
  covers: "a download saved by the app (will-download) from a custom protocol",
  statement: "In the scheme app, download the export and report what the page says.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchAndLook(agent, "scheme", env)
      agent.step("press the Download export link")
      yield* agent.click("button", "Download export")
      agent.step("wait until the page says the file was saved")
      yield* agent.waitText("Saved export.csv")
      return undefined
    }),
  check: async (env) => {
    const file = join(env.filesDir, "export.csv")
    try {
      const text = readFileSync(file, "utf8")
      return statSync(file).size > 100 && text.split("\n").length > 3
        ? pass(`export.csv saved (${statSync(file).size} bytes)`)
        : fail("export.csv is too short")
    } catch {
      return fail("no export.csv in the downloads folder")
    }
  }
}

export const offlineQuote: TaskDef = {
  id: "offline-quote",
  app: "tasks",
  plugins: ["network"],
  goal: "With the network down, a user asks for a quote and gets a failure message instead of a spinner that never ends.",
  covers: "a network failure state (network plugin: offline)",
  statement: "Take the app offline, press Load quote and report what the Quote line says.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("cut the app off from the network")
      yield* agent.must(yield* agent.pick("electron_network_offline"), { offline: true })
      agent.step("press Load quote")
      yield* agent.click("button", "Load quote")
      agent.step("read the Quote line of the Diagnostics panel once it shows an outcome")
      return yield* resultWhenSet(agent, "Diagnostics", "Quote")
    }),
  check: async (_env, answer) =>
    answer?.startsWith("Quote failed") === true && !/HTTP \d/.test(answer) ? pass("a network failure, shown") : fail(`answer ${JSON.stringify(answer)}`)
}

const UNSAVED = "This will not be saved"

export const saveErrorIpc: TaskDef = {
  id: "save-error-ipc",
  app: "tasks",
  plugins: ["ipc"],
  goal: "When the app cannot save (its disk is full), a user who adds a task is told so rather than losing it silently.",
  covers: "an error state forced through IPC (ipc plugin: a failing channel)",
  statement: `Make the app's save channel (tasks:save) fail with "disk full", add the task "${UNSAVED}" and report the status line.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("make saving fail as if the disk were full")
      yield* agent.must(yield* agent.pick("electron_ipc_mock"), { channel: "tasks:save", error: "disk full" })
      agent.step("type the new task's title")
      yield* agent.fill("textbox", "Title", UNSAVED)
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says it could not save")
      yield* agent.waitText("Could not save")
      agent.step("read the status message")
      return yield* statusText(agent)
    }),
  check: async (env, answer) =>
    all(
      savedBoard(env.userData)?.tasks.some((t) => t.title === UNSAVED) !== true ? pass("nothing saved") : fail("the task was saved"),
      answer?.includes("Could not save") === true && answer.includes("disk full") ? pass("the user is told") : fail(`answer ${JSON.stringify(answer)}`)
    )
}

/** The accessibility problems the a11y app plants on purpose (test/fixtures/apps/README.md, "a11y/"). */
const PLANTED_RULES = ["color-contrast", "label"]

export const a11yAudit: TaskDef = {
  id: "a11y-audit",
  app: "a11y",
  plugins: ["a11y"],
  goal: "An accessibility reviewer lists the problems a screen-reader or low-vision user would hit on a page.",
  covers: "an accessibility audit (a11y plugin)",
  statement: "Audit the a11y app's page and report the rules it breaks.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchAndLook(agent, "a11y", env)
      agent.step("check the page for accessibility problems")
      const out = yield* agent.must(yield* agent.pick("electron_a11y_audit"))
      const rules = [...out.matchAll(/^(?:critical|serious|moderate|minor) ([a-z0-9-]+):/gm)].map((m) => m[1] ?? "")
      if (rules.length === 0) return yield* giveUp("the audit names no rule")
      return [...new Set(rules)].sort().join(",")
    }),
  check: async (_env, answer) =>
    answer === PLANTED_RULES.join(",")
      ? pass("the planted problems, and no others")
      : fail(`answer ${JSON.stringify(answer)}, planted ${PLANTED_RULES.join(",")}`)
}

export const notificationClick: TaskDef = {
  id: "notification-click",
  app: "tasks",
  plugins: ["native"],
  goal: "A user gets a desktop notification saying how many tasks are open and clicks it to come back to the app.",
  covers: "a notification shown, read and clicked (native plugin)",
  statement: "Press Notify, report the notification's text and click it.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Notify")
      yield* agent.click("button", "Notify")
      // The desktop shows it, not the page: the agent asks for the notifications, and looks once more if none is there yet.
      agent.step("see the notifications the app showed")
      const tool = yield* agent.pick("electron_native_notifications")
      let m = /^#(\d+) \S+ "Tasks": (.*)$/m.exec(yield* agent.must(tool))
      if (m === null) {
        yield* agent.settle()
        m = /^#(\d+) \S+ "Tasks": (.*)$/m.exec(yield* agent.must(tool))
      }
      if (m === null) return yield* giveUp("no notification from Tasks")
      agent.step("click the notification")
      yield* agent.must("electron_native_notifications", { click: Number(m[1]) })
      return m[2]
    }),
  check: async (env, answer) => {
    const open = seedTasks().filter((t) => !t.done).length
    return all(
      answer === `You have ${open} open tasks.` ? pass("text read") : fail(`answer ${JSON.stringify(answer)}`),
      routeTaken(env.userData, "notification-click", undefined, "the notification was clicked")
    )
  },
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.click("button", "Notify")
      const listed = yield* agent.must("electron_native_notifications")
      return /^#\d+ \S+ "Tasks": (.*)$/m.exec(listed)?.[1]
    })
}

const TRAY_TASK = "Call the bank"

export const trayNewTask: TaskDef = {
  id: "tray-new-task",
  app: "tasks",
  plugins: ["native"],
  goal: "From the tray icon's menu, a user starts a new task and adds it.",
  covers: "a tray menu item (native plugin)",
  statement: `Choose New Task in the tray menu, then add the task "${TRAY_TASK}".`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("open the tray icon's menu")
      const menu = yield* agent.must(yield* agent.pick("electron_native_tray"))
      const id = /New Task \[id=([^\],]+)/.exec(menu)?.[1]
      if (id === undefined) return yield* giveUp("no New Task in the tray menu")
      agent.step("choose New Task in the tray menu")
      yield* agent.must("electron_native_tray", { id })
      agent.step("wait until the app is ready for a new task")
      yield* agent.waitText("Ready for a new task")
      // The tray shows and focuses the window, then the page focuses Title: the focus can land after the
      // notice, so the title goes into the field by name rather than wherever the focus is.
      agent.step("type the title into the new task's Title")
      yield* agent.act(yield* agent.pick("electron_type"), [["textbox", "Title"]], ([target]) => ({ target, text: TRAY_TASK }))
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says the task was added")
      yield* agent.waitText(`Added "${TRAY_TASK}"`)
      return undefined
    }),
  check: async (env) =>
    all(
      savedBoard(env.userData)?.tasks[0]?.title === TRAY_TASK ? pass("added at the top and saved") : fail("not saved"),
      routeTaken(env.userData, "tray", "tray-new-task", "New Task was chosen in the tray menu")
    ),
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.fill("textbox", "Title", TRAY_TASK)
      yield* agent.click("button", "Add task")
      return undefined
    })
}

export const APP_TASKS: ReadonlyArray<TaskDef> = [frameworkProfile, viewsSection, schemeDownload]
export const PLUGIN_TASKS: ReadonlyArray<TaskDef> = [offlineQuote, saveErrorIpc, a11yAudit, notificationClick, trayNewTask]
