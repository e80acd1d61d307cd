/**
 * More flows on the tasks app: keyboard shortcuts and keyboard-only editing, a file input, a computed style,
 * data that arrives late, a screenshot kept as evidence, and a window whose page fails to load.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { giveUp } from "./agent.js"
import { all, fail, filesIn, pass, pngSize, routeTaken, savedBoard, savedSettings, seedTasks } from "./checks.js"
import { appFolder, launchTasks, type TaskDef } from "./task-kit.js"
import { answerNativeRows, resultAfter, resultWhenSet } from "./task-steps.js"

const WORD = "passport"

export const shortcutSearch: TaskDef = {
  id: "shortcut-search",
  app: "tasks",
  goal: "A keyboard user jumps to the search box with Ctrl+K, types a word and reads how many tasks match.",
  covers: "a keyboard shortcut handled by the main process, then typing into the focused field",
  statement: `Press Ctrl+K, type "${WORD}" and report the count line.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Ctrl+K")
      yield* agent.must(yield* agent.pick("electron_press_key"), { key: "Control+K" })
      agent.step("wait until the app says the search box has focus")
      yield* agent.waitText("Search focused")
      agent.step(`type ${WORD} where the cursor is`)
      yield* agent.must(yield* agent.pick("electron_type"), { text: WORD })
      agent.step("wait until the list is filtered")
      yield* agent.waitText("Showing 1 of")
      agent.step("read the line that counts the tasks shown")
      return (yield* agent.snapshotOf("region", "Tasks")).find((n) => n.role === "paragraph" && n.text.startsWith("Showing"))?.text
    }),
  check: async (env, answer) => {
    const seed = seedTasks()
    const hits = seed.filter((t) => `${t.title} ${t.notes}`.toLowerCase().includes(WORD)).length
    return all(
      answer?.startsWith(`Showing ${hits} of ${seed.length} tasks`) === true ? pass("filtered by the typed word") : fail(`answer ${JSON.stringify(answer)}`),
      routeTaken(env.userData, "shortcut", "focus-search", "the Ctrl+K shortcut was used")
    )
  },
  wrongRoute: (agent) =>
    Effect.gen(function* () {
      yield* agent.settle()
      yield* agent.fill("searchbox", "Search tasks", WORD)
      return (yield* agent.snapshotOf("region", "Tasks")).find((n) => n.role === "paragraph" && n.text.startsWith("Showing"))?.text
    })
}

const ESC_TASK = "Renew passport"
const ENTER_TASK = "Book dentist appointment"
const ENTER_NEW = "Book dentist appointment for May"

export const keyboardEdit: TaskDef = {
  id: "keyboard-edit",
  app: "tasks",
  goal: "A user opens one task's editor, changes their mind with Escape, then renames another task and saves it with Enter.",
  covers: "Escape cancels and Enter saves an inline editor",
  statement: `Edit "${ESC_TASK}", type a new title and press Escape; then edit "${ENTER_TASK}", rename it to "${ENTER_NEW}" and press Enter.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step(`open the editor of ${ESC_TASK}`)
      yield* agent.click("button", `Edit ${ESC_TASK}`)
      agent.step("type a different title into the editor")
      yield* agent.fill("textbox", "Task title", "Something else")
      agent.step("press Escape to give up the change")
      yield* agent.act(yield* agent.pick("electron_press_key"), [["textbox", "Task title"]], ([target]) => ({ target, key: "Escape" }))
      agent.step(`open the editor of ${ENTER_TASK}`)
      yield* agent.click("button", `Edit ${ENTER_TASK}`)
      agent.step("type the new title into the editor")
      yield* agent.fill("textbox", "Task title", ENTER_NEW)
      agent.step("press Enter to save")
      yield* agent.act(yield* agent.pick("electron_press_key"), [["textbox", "Task title"]], ([target]) => ({ target, key: "Enter" }))
      agent.step("wait until the app says the change was saved")
      yield* agent.waitText(`Saved changes to "${ENTER_NEW}"`)
      return undefined
    }),
  check: async (env) => {
    const titles = savedBoard(env.userData)?.tasks.map((t) => t.title) ?? []
    return titles.includes(ESC_TASK) && titles.includes(ENTER_NEW) && !titles.includes("Something else")
      ? pass("one kept, one renamed")
      : fail(`saved: ${titles.slice(0, 4).join(" / ") || "nothing"} (${titles.length})`)
  }
}

const ATTACHED = "receipt.pdf"

export const attachFile: TaskDef = {
  id: "attach-file",
  app: "tasks",
  goal: "A user adds a task with a receipt file attached to it.",
  covers: "a file chosen in a file input",
  statement: `Add the task "File the receipt" with ${ATTACHED} (in the task's files folder) as its attachment.`,
  run: (agent, env) =>
    Effect.gen(function* () {
      const file = join(env.filesDir, ATTACHED)
      writeFileSync(file, "%PDF-1.4 bench receipt\n")
      yield* launchTasks(agent, env)
      agent.step("type the new task's title")
      yield* agent.fill("textbox", "Title", "File the receipt")
      agent.step(`attach ${ATTACHED} to the task`)
      if (agent.has("electron_upload_file")) {
        yield* agent.act("electron_upload_file", [["button", "Attachment"]], ([target]) => ({ target, paths: [file] }))
      } else if (!(yield* agent.click("button", "Attachment").pipe(Effect.andThen(answerNativeRows(agent, /^file chooser: /, { value: file }))))) {
        yield* agent.evalFallback(
          "electron_upload_file",
          "renderer",
          "(name) => { const input = document.querySelector('input[type=file]'); const dt = new DataTransfer(); dt.items.add(new File(['%PDF-1.4'], name, { type: 'application/pdf' })); input.files = dt.files; input.dispatchEvent(new Event('change', { bubbles: true })); return input.files[0].name }",
          ATTACHED
        )
      }
      agent.step("press the Add task button")
      yield* agent.click("button", "Add task")
      agent.step("wait until the app says the task was added")
      yield* agent.waitText('Added "File the receipt"')
      return undefined
    }),
  check: async (env) => {
    const t = savedBoard(env.userData)?.tasks.find((x) => x.title === "File the receipt") as { attachment?: string } | undefined
    return t?.attachment === ATTACHED ? pass("saved with its attachment") : fail(`saved as ${JSON.stringify(t)}`)
  }
}

/** Relative luminance (0 black … 1 white) of "rgb(r, g, b)". */
const luminance = (css: string): number | undefined => {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css)
  if (m === null) return undefined
  const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)
  return 0.2126 * lin(Number(m[1])) + 0.7152 * lin(Number(m[2])) + 0.0722 * lin(Number(m[3]))
}

export const darkBackground: TaskDef = {
  id: "dark-background",
  app: "tasks",
  goal: "A user switches to the dark theme and checks that the page really turned dark, not just the label.",
  covers: "a computed style read after a theme change",
  statement: "Press Toggle theme and report the page's background colour.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Toggle theme")
      yield* agent.click("button", "Toggle theme")
      agent.step("wait until the app says the theme is dark")
      yield* agent.waitText("Theme set to dark")
      agent.step("read the background colour the page is drawn with")
      if (agent.has("electron_inspect")) {
        // The page's background is the body's: no role names it, so a CSS selector does.
        const out = yield* agent.must("electron_inspect", { target: "css=body", styles: ["background-color"], maxHtml: 20 })
        return /background-color: (rgba?\([^)]*\))/.exec(out)?.[1]
      }
      if (agent.has("electron_find")) {
        // electron_find reads computed styles of what it finds.
        const out = yield* agent.must("electron_find", { target: "css=body", style: ["background-color"] })
        const colour = /background-color: (rgba?\([^)]*\))/.exec(out)?.[1]
        if (colour !== undefined) return colour
      }
      return JSON.parse(yield* agent.evalFallback("electron_inspect", "renderer", "() => getComputedStyle(document.body).backgroundColor")) as string
    }),
  check: async (env, answer) => {
    const l = answer === undefined ? undefined : luminance(answer)
    return all(
      savedSettings(env.userData)?.theme === "dark" ? pass("theme saved") : fail("theme not saved"),
      l !== undefined && l < 0.1 ? pass(`background ${answer} is dark`) : fail(`answer ${JSON.stringify(answer)}`)
    )
  }
}

export const slowQuote: TaskDef = {
  id: "slow-quote",
  app: "tasks",
  goal: "A user asks for a quote from a slow server and waits for it to arrive instead of reading the placeholder.",
  covers: "time-dependent UI (a response that takes about 1.5 s)",
  statement: "Press Load slow quote, wait for the quote and report it.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Load slow quote")
      yield* agent.click("button", "Load slow quote")
      agent.step("read the Quote line of the Diagnostics panel once the quote has arrived")
      return yield* resultWhenSet(agent, "Diagnostics", "Quote", 30)
    }),
  check: async (env, answer) => {
    const source = readFileSync(join(appFolder(env.repoRoot, "tasks"), "api-server.js"), "utf8")
    const text = /“(.*)”/.exec(answer ?? "")?.[1]
    return text !== undefined && source.includes(text) ? pass("a quote of the server") : fail(`answer ${JSON.stringify(answer)}`)
  }
}

export const errorScreenshot: TaskDef = {
  id: "error-screenshot",
  app: "tasks",
  goal: "A user keeps a picture of the add-task form showing its 'Title is required' error, as evidence for a bug report.",
  covers: "a screenshot of one element saved to a file",
  statement: "Submit the add-task form empty and save a screenshot of the form alone as form-error.png.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Add task without typing a title")
      yield* agent.click("button", "Add task")
      agent.step("wait until the form says the title is required")
      yield* agent.waitText("Title is required")
      agent.step("save a picture of just the add-task form as form-error.png")
      if (agent.has("electron_screenshot")) {
        yield* agent.act("electron_screenshot", [["form", "Add a task"]], ([target]) => ({ target, name: "form-error.png" }))
      } else {
        const rect = yield* agent.evalFallback(
          "electron_screenshot",
          "renderer",
          "() => { const r = document.querySelector('form[aria-label=\"Add a task\"]').getBoundingClientRect(); return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) } }"
        )
        yield* agent.evalFallback(
          "electron_screenshot",
          "main",
          "async ({ BrowserWindow }, [rect, file]) => { const img = await BrowserWindow.getAllWindows()[0].webContents.capturePage(rect); process.mainModule.require('fs').writeFileSync(file, img.toPNG()); return file }",
          [JSON.parse(rect) as unknown, join(env.screenshotDir, "form-error.png")]
        )
      }
      return "form-error.png"
    }),
  check: async (env) => {
    const size = pngSize(join(env.screenshotDir, "form-error.png"))
    return size !== undefined && size.width >= 100 && size.width < 700 && size.height >= 100
      ? pass(`PNG ${size.width}x${size.height}, the form only`)
      : fail(`PNG ${JSON.stringify(size)} (folder: ${filesIn(env.screenshotDir).join(", ") || "empty"})`)
  }
}

export const offlinePageError: TaskDef = {
  id: "offline-page-error",
  app: "tasks",
  goal: "A user opens a page that needs a server that is down; the tester reports why the window stayed blank.",
  covers: "a window whose page fails to load (connection refused)",
  statement: "Press Open offline page and report the error its window failed to load with.",
  run: (agent, env) =>
    Effect.gen(function* () {
      yield* launchTasks(agent, env)
      agent.step("press Open offline page")
      yield* agent.click("button", "Open offline page")
      if (agent.has("electron_errors")) {
        agent.step("read the app's load failures")
        const failure = (text: string) => text.split("\n").find((l) => /load-failed|Failed to load/.test(l))
        const line = failure(yield* agent.must("electron_errors"))
        if (line !== undefined) return line
        agent.step("see which windows are open, then read the load failures again")
        yield* agent.windows()
        const again = failure(yield* agent.must("electron_errors"))
        if (again !== undefined) return again
      }
      agent.step("read the Offline page line of the Diagnostics panel")
      const line = yield* resultAfter(agent, "Diagnostics", "Offline page")
      if (line === undefined) return yield* giveUp("no Offline page line")
      return line
    }),
  check: async (_env, answer) =>
    answer !== undefined && /ERR_CONNECTION_REFUSED/.test(answer) && answer.includes("127.0.0.1:2")
      ? pass("reason reported")
      : fail(`answer ${JSON.stringify(answer)}`)
}

export const KEY_TASKS: ReadonlyArray<TaskDef> = [shortcutSearch, keyboardEdit, attachFile, darkBackground, slowQuote, errorScreenshot, offlinePageError]
