/** Tasks beyond one page: the menu, native dialogs, a second window, files, console, IPC, errors, export. */
import { join } from "node:path"
import { Effect } from "effect"
import { type Agent, type AgentEffect, giveUp } from "./agent.js"
import { all, fail, filesIn, pass, pngSize, routeTaken, runExportedTest, savedBoard, savedSettings, seedTasks } from "./checks.js"
import { chooseOption, launchApp, launchTasks, setChecked, statusText, type TaskDef } from "./task-kit.js"
import { answerNativeRows, clickMenu, resultWhenSet } from "./task-steps.js"

const ANSWER_BUTTON = "Copy version"

export const nativeMessageBox: TaskDef = {
  id: "native-message-box",
  app: "tasks",
  goal: "A user opens About from the Help menu and picks the Copy version button in the system message box.",
  covers: "a native message box from a menu item",
  statement: `Open Help > About Tasks from the menu and answer its message box with "${ANSWER_BUTTON}".`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      let answered = false
      if (agent.has("electron_dialog_stub")) {
        // The buttons are not known in advance: answer the box once to record it, read its buttons, then answer by index.
        agent.step("answer the app's next native message box in advance, whatever it shows")
        yield* agent.must("electron_dialog_stub", { action: "set", rules: [{ kind: "message", answer: { response: 0 }, times: 1 }] })
        agent.step("choose Help > About Tasks in the menu bar")
        yield* clickMenu(agent, ["Help", "About Tasks"])
        agent.step("see which buttons the message box offered")
        const listed = yield* agent.must("electron_dialog_stub", { action: "list" })
        const buttons = /buttons?[^\n]*?\[([^\]]*)\]/i.exec(listed)?.[1]
        const quoted = buttons === undefined ? [] : [...buttons.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1])
        // The list shows the labels quoted or as a plain comma-separated list: read either.
        const labels = quoted.length > 0 || buttons === undefined ? quoted : buttons.split(/,\s*/).map((label) => label.trim())
        const index = labels.indexOf(ANSWER_BUTTON)
        if (index >= 0) {
          agent.step(`make the native message box answer with the ${ANSWER_BUTTON} button`)
          yield* agent.must("electron_dialog_stub", { action: "set", rules: [{ kind: "message", answer: { response: index } }] })
          agent.step("choose Help > About Tasks in the menu bar again")
          yield* clickMenu(agent, ["Help", "About Tasks"], { retry: true })
          answered = true
        } else if (!agent.has("electron_eval_main")) {
          return yield* giveUp(`electron_dialog_stub's list does not show the message box's buttons, so the index of "${ANSWER_BUTTON}" is unknown`)
        }
      }
      if (!answered && !agent.has("electron_dialog_stub")) {
        // Without the stub tool: open the box and answer it from its rows, as a user would.
        agent.step("choose Help > About Tasks in the menu bar")
        yield* clickMenu(agent, ["Help", "About Tasks"])
        agent.step(`answer the message box's rows with the ${ANSWER_BUTTON} button`)
        answered = yield* answerNativeRows(agent, /^message box: /, { button: ANSWER_BUTTON })
        if (!answered && !agent.has("electron_eval_main"))
          return yield* giveUp("no message box showed in the snapshot and eval is not allowed", "electron_dialog_stub")
      }
      if (!answered) {
        agent.step(`make the native message box answer with the ${ANSWER_BUTTON} button`)
        yield* agent.evalFallback(
          "electron_dialog_stub",
          "main",
          `({ dialog }, label) => { dialog.showMessageBox = async (...args) => { const o = args.find((a) => a && Array.isArray(a.buttons)); return { response: o.buttons.indexOf(label), checkboxChecked: false } }; return 'stubbed' }`,
          ANSWER_BUTTON
        )
        agent.step("choose Help > About Tasks in the menu bar")
        yield* clickMenu(agent, ["Help", "About Tasks"], { retry: agent.has("electron_dialog_stub") })
      }
      return undefined
    }),
  // The app shows nothing of the button (as a real app); its effect is the copied version, and its log says
  // which button closed the box.
  check: async (env) =>
    all(
      routeTaken(env.userData, "message-box", `About: ${ANSWER_BUTTON}`, `the About box was answered with ${ANSWER_BUTTON}`),
      routeTaken(env.userData, "menu", "about", "Help > About Tasks was chosen in the menu")
    )
}

export const menuToggleTheme: TaskDef = {
  id: "menu-toggle-theme",
  app: "tasks",
  goal: "A user switches the theme from the View menu and expects the choice to be remembered.",
  covers: "the application menu",
  statement: "Use View > Toggle Theme in the application menu (it must be saved as the theme setting).",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      if (agent.has("electron_menu")) {
        agent.step("look at what the menu bar offers")
        const tree = yield* agent.must("electron_menu")
        if (!/Toggle Theme/.test(tree)) return yield* giveUp("no Toggle Theme in the menu")
      }
      agent.step("choose View > Toggle Theme in the menu bar")
      yield* clickMenu(agent, ["View", "Toggle Theme"])
      agent.step("wait until the app says the theme changed")
      yield* agent.waitText("Theme set to")
      return yield* statusText(agent)
    }),
  check: async (env, answer) => {
    const theme = savedSettings(env.userData)?.theme
    return all(
      theme === "dark" && answer === "Theme set to dark"
        ? pass("theme dark, saved")
        : fail(`settings theme ${JSON.stringify(theme)}, answer ${JSON.stringify(answer)}`),
      routeTaken(env.userData, "menu", "toggle-theme", "View > Toggle Theme was chosen in the menu")
    )
  },
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.click("button", "Toggle theme")
      return yield* statusText(agent)
    })
}

export const openSettings = (agent: Agent): AgentEffect<void> =>
  Effect.gen(function* () {
    agent.step("press the Settings button")
    yield* agent.click("button", "Settings")
    agent.step("go to the Settings window once it opens")
    yield* agent.switchTo("Settings")
    agent.step("look at the Settings window once it has loaded")
    yield* agent.settle()
  })

export const backToMain = (agent: Agent): AgentEffect<string> =>
  Effect.gen(function* () {
    agent.step("see which windows are open")
    const main = (yield* agent.windows()).find((w) => w.title.startsWith("Tasks"))
    if (main === undefined) return yield* giveUp("the main window is gone")
    agent.step("go back to the main window")
    yield* agent.must("electron_select_window", { window: main.id })
    return main.title
  })

export const secondWindow: TaskDef = {
  id: "second-window",
  app: "tasks",
  goal: "A user opens Settings in its own window, picks the dark theme there, closes it and is back on the board.",
  covers: "a second window (open, act in it, return)",
  statement: "Open Settings, choose the Dark theme there, close Settings with its Close button, return to the main window and report its title.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      yield* openSettings(agent)
      agent.step("pick Dark in the Theme list")
      yield* chooseOption(agent, ["combobox", "Theme"], "Dark", "Theme")
      agent.step("wait until Settings says it saved the theme")
      yield* agent.waitText("Saved: theme dark")
      agent.step("press the Close button of Settings")
      yield* agent.click("button", "Close")
      return yield* backToMain(agent)
    }),
  check: async (env, answer) =>
    all(
      savedSettings(env.userData)?.theme === "dark" ? pass("theme dark saved") : fail(`settings ${JSON.stringify(savedSettings(env.userData))}`),
      answer === "Tasks — My board" ? pass("back in the main window") : fail(`answer ${JSON.stringify(answer)}`)
    )
}

export const broadcast: TaskDef = {
  id: "broadcast",
  app: "tasks",
  goal: "A user hides finished tasks in Settings and expects the board, in the other window, to update at once.",
  covers: "state broadcast from one window to another",
  statement: "In Settings, turn off Show completed tasks; then report the task count line of the main window.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      yield* openSettings(agent)
      agent.step("see whether Show completed tasks is ticked")
      const box = (yield* agent.findAll("checkbox", "Show completed tasks"))[0]
      if (box === undefined) return yield* giveUp("no Show completed tasks box")
      agent.step("untick Show completed tasks")
      yield* setChecked(agent, ["checkbox", "Show completed tasks"], false, box.attrs.includes("checked"))
      agent.step("wait until Settings says completed tasks are hidden")
      yield* agent.waitText("completed tasks hidden")
      yield* backToMain(agent)
      agent.step("read the line that counts the tasks shown")
      const line = (yield* agent.snapshotOf("region", "Tasks")).find((n) => n.role === "paragraph" && n.text.startsWith("Showing"))
      return line?.text
    }),
  check: async (env, answer) => {
    const seed = seedTasks()
    const open = seed.filter((t) => !t.done).length
    return all(
      savedSettings(env.userData)?.showCompleted === false ? pass("setting saved") : fail("setting not saved"),
      answer?.startsWith(`Showing ${open} of ${seed.length} tasks`) === true ? pass("main window re-filtered") : fail(`answer ${JSON.stringify(answer)}`)
    )
  }
}

export const screenshotFile: TaskDef = {
  id: "screenshot-file",
  app: "tasks",
  goal: "A user keeps a picture of the board as a file.",
  covers: "a screenshot written to a file",
  statement: "Save a screenshot of the main window as board.png.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("save a picture of the window as board.png")
      if (agent.has("electron_screenshot")) {
        yield* agent.must("electron_screenshot", { name: "board.png" })
      } else {
        yield* agent.evalFallback(
          "electron_screenshot",
          "main",
          `async ({ BrowserWindow }, file) => { const img = await BrowserWindow.getAllWindows()[0].webContents.capturePage(); process.mainModule.require('fs').writeFileSync(file, img.toPNG()); return file }`,
          join(env.screenshotDir, "board.png")
        )
      }
      return "board.png"
    }),
  check: async (env) => {
    const size = pngSize(join(env.screenshotDir, "board.png"))
    return size !== undefined && size.width >= 200 && size.height >= 200
      ? pass(`PNG ${size.width}x${size.height}`)
      : fail(`no PNG (folder: ${filesIn(env.screenshotDir).join(", ") || "empty"})`)
  }
}

export const consoleAfterAction: TaskDef = {
  id: "console-after-action",
  app: "tasks",
  goal: "A developer presses a button that calls a broken API and reads the error the app logged.",
  covers: "reading the console after an action",
  statement: "Click Call broken API, then report the error the app logged to the console.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      if (!agent.has("electron_console") && agent.has("electron_eval_renderer")) {
        agent.step("start keeping the errors the page logs")
        yield* agent.evalFallback(
          "electron_console",
          "renderer",
          "() => { window.__errors = []; const o = console.error; console.error = (...a) => { window.__errors.push(a.map(String).join(' ')); o(...a) }; return 'hooked' }"
        )
      }
      agent.step("press Call broken API")
      const clicked = yield* agent.click("button", "Call broken API")
      agent.step("see on the page that the call has failed")
      const shown = yield* resultWhenSet(agent, "Diagnostics", "Quote")
      agent.step("read the errors the app logged to the developer console")
      if (agent.has("electron_console")) {
        const lines = (yield* agent.must("electron_console", { level: "error" })).split("\n").filter((l) => / error: /.test(l))
        return lines[lines.length - 1]?.replace(/^.* error: /, "")
      }
      if (!agent.has("electron_eval_renderer")) {
        // Without a console tool: the server tells new console errors in the answer of the call that caused
        // them (src/tools/pipeline/new-errors.ts); else the page shows what failed, and a careful agent reads it there.
        const told = clicked
          .split("\n")
          .filter((l) => /^Console error \(\w+\): /.test(l))
          .map((l) => l.replace(/^Console error \(\w+\): /, ""))
        if (told.length > 0) return told[told.length - 1]
        if (shown === undefined) return yield* giveUp("the page does not show the error", "electron_console")
        return shown
      }
      return JSON.parse(yield* agent.evalFallback("electron_console", "renderer", "() => window.__errors[window.__errors.length - 1]")) as string
    }),
  check: async (_env, answer) =>
    answer !== undefined && answer.includes("HTTP 500") && answer.includes("Intentional failure from /api/broken")
      ? pass("error read")
      : fail(`answer ${JSON.stringify(answer)}`)
}

const PING = "bench-42"

export const ipcRoundTrip: TaskDef = {
  id: "ipc-roundtrip",
  app: "hardened",
  goal: "A user sends a message to the app's background process and sees the reply.",
  covers: "an IPC round trip",
  statement: `In the hardened app, send "${PING}" with Ping and report the reply shown.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchApp(agent, "hardened", env)
      agent.step("type the message to send")
      yield* agent.fill("textbox", "Message", PING)
      agent.step("press Ping")
      yield* agent.click("button", "Ping")
      agent.step("read the Ping line of the Basics panel once the reply is there")
      return yield* resultWhenSet(agent, "Basics", "Ping")
    }),
  check: async (_env, answer) => (answer === `pong:${PING}` ? pass("round trip") : fail(`answer ${JSON.stringify(answer)}`))
}

const AFTER = "After the crash"

export const crashRecovery: TaskDef = {
  id: "crash-recovery",
  app: "tasks",
  goal: "A user hits a button that throws, the tester notes the error, reloads the window and carries on working.",
  covers: "a crashed renderer and recovery",
  statement: `Click Crash handler, report the uncaught error, reload the window and add the task "${AFTER}".`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      // Without electron_errors the server still tells a new page error in the answer of the click that threw it.
      const tells = !agent.has("electron_errors") && !agent.has("electron_eval_renderer")
      if (!agent.has("electron_errors") && !tells) {
        agent.step("start collecting the page's uncaught errors")
        yield* agent.evalFallback(
          "electron_errors",
          "renderer",
          "() => { window.__pageErrors = []; window.addEventListener('error', (e) => window.__pageErrors.push(e.message)); return 'listening' }"
        )
      }
      agent.step("press Crash handler")
      const clicked = yield* agent.click("button", "Crash handler")
      let error: string | undefined
      agent.step("read the uncaught error the page threw")
      if (tells) {
        error = clicked
          .split("\n")
          .find((l) => /^Page error(?: \(\w+\))?: /.test(l))
          ?.replace(/^Page error(?: \(\w+\))?: /, "")
        if (error === undefined) return yield* giveUp("the click's answer tells no page error and electron_errors is not listed", "electron_errors")
      } else if (agent.has("electron_errors")) {
        error = (yield* agent.must("electron_errors"))
          .split("\n")
          .find((l) => /pageerror/.test(l))
          ?.replace(/^.*pageerror \w+: /, "")
      } else {
        error = JSON.parse(yield* agent.evalFallback("electron_errors", "renderer", "() => window.__pageErrors[0]")) as string | undefined
      }
      agent.step("reload the window")
      if (agent.has("electron_reload")) yield* agent.must("electron_reload")
      else if (tells) yield* clickMenu(agent, ["View", "Reload"])
      else yield* agent.evalFallback("electron_reload", "renderer", "() => { setTimeout(() => location.reload(), 0); return 'reloading' }")
      agent.step("look at the window once it has loaded again")
      yield* agent.settle()
      agent.step("type the new task's title")
      yield* agent.fill("textbox", "Title", AFTER)
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says the task was added")
      yield* agent.waitText(`Added "${AFTER}"`)
      return error
    }),
  check: async (env, answer) =>
    all(
      answer?.includes("simulated uncaught error") === true ? pass("error reported") : fail(`answer ${JSON.stringify(answer)}`),
      savedBoard(env.userData)?.tasks.some((t) => t.title === AFTER) === true ? pass("works after the reload") : fail("nothing added after the reload")
    )
}

const DONE = "Book dentist appointment"

export const exportTest: TaskDef = {
  id: "export-test",
  app: "tasks",
  goal: "A tester marks a task done, checks the app confirms it, and keeps the session as a test that can be run again.",
  covers: "exporting the session as a Playwright test that then passes",
  statement: `Mark "${DONE}" done, assert the app says so, and export the session as a Playwright test.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      // Without an export tool the task cannot be done: a careful agent checks before it starts.
      yield* agent.pick("electron_export_test")
      yield* launchTasks(agent, env)
      agent.step("see whether the task is already done")
      const box = (yield* agent.findAll("checkbox", `Done: ${DONE}`))[0]
      if (box === undefined) return yield* giveUp("no such task")
      agent.step("tick the task's Done box")
      yield* setChecked(agent, ["checkbox", `Done: ${DONE}`], true, box.attrs.includes("checked"))
      agent.step("make sure the status line says the task was completed")
      yield* agent.act(yield* agent.pick("electron_expect_text"), [["status", /.*/]], ([target]) => ({ target, text: `Completed "${DONE}"` }))
      agent.step("save what was done as a Playwright test file")
      const out = yield* agent.must(yield* agent.pick("electron_export_test"), { name: "bench-session.spec.ts" })
      const path = /Wrote (\S+\.spec\.ts)/.exec(out)?.[1]
      if (path === undefined) return yield* giveUp("the export did not say where it wrote")
      return path
    }),
  check: async (env, answer) => {
    if (answer === undefined) return fail("no exported file")
    const done = savedBoard(env.userData)?.tasks.find((t) => t.title === DONE)?.done === true
    if (!done) return fail("the task is not saved as done")
    return runExportedTest(answer, env.outputDir, env.userData, env.repoRoot)
  }
}

export const NATIVE_TASKS: ReadonlyArray<TaskDef> = [
  nativeMessageBox,
  menuToggleTheme,
  secondWindow,
  broadcast,
  screenshotFile,
  consoleAfterAction,
  ipcRoundTrip,
  crashRecovery,
  exportTest
]
