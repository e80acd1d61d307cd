/**
 * Steps several task files share: a menu item by label path, a web dialog an action opened, and a result
 * line of a definition list. Each tries what a careful agent would with the tools it has: the dedicated
 * tool, else the rows a snapshot shows for a menu or a dialog (answered with electron_click / fill), else an
 * eval written from what the agent observed, else it gives up naming the tool it missed.
 */
import { Duration, Effect } from "effect"
import { type Agent, type AgentEffect, giveUp } from "./agent.js"
import { type Node, parseNodes } from "./nodes.js"

const MENU_ROLES = /^(?:menubar|menu|menuitem|menuitemcheckbox|menuitemradio)$/

/** Clicks menu rows a snapshot shows, one label after the other (a menu bar or a popped-up menu as rows). */
const clickMenuRows = (agent: Agent, path: ReadonlyArray<string>): AgentEffect<boolean> =>
  Effect.gen(function* () {
    for (const label of path) {
      const rows = (yield* agent.snapshot()).filter((n) => MENU_ROLES.test(n.role) && n.name === label && n.ref !== undefined)
      if (rows[0]?.ref === undefined) return false
      yield* agent.must("electron_click", { target: rows[0].ref })
    }
    return true
  })

/** Triggers a menu item by label path: menu_click, else the menu's rows in a snapshot, else eval in main, else give up. */
export const clickMenu = (agent: Agent, path: ReadonlyArray<string>, options: { readonly retry?: boolean } = {}): AgentEffect<void> =>
  Effect.gen(function* () {
    if (agent.has("electron_menu_click")) {
      yield* agent.must("electron_menu_click", { path }, options)
      return
    }
    // The snapshot's menubar row: click the top-level menu's ref, then each level's item by its ref.
    const row = (yield* agent.must("electron_snapshot", { depth: 0 }).pipe(Effect.orElseSucceed(() => "")))
      .split("\n")
      .find((line) => line.startsWith("- menubar:"))
    if (row !== undefined) {
      const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      let listing = row
      for (const [i, label] of path.entries()) {
        const ref = (
          i === 0 ? new RegExp(`(?:: | · )${escape(label)} \\[ref=(m\\d+)\\]`) : new RegExp(`"${escape(label)}"(?: \\[\\w+\\])* \\[ref=(m\\d+)\\]`)
        ).exec(listing)?.[1]
        if (ref === undefined) return yield* giveUp(`no menu item ${path.slice(0, i + 1).join(" > ")} in the menubar`)
        listing = yield* agent.must("electron_click", { target: ref }, i === path.length - 1 ? options : {})
      }
      agent.fallbacks.add("electron_click on the menubar row for electron_menu_click")
      return
    }
    if (yield* clickMenuRows(agent, path)) {
      agent.fallbacks.add("electron_click on menu rows for electron_menu_click")
      return
    }
    yield* agent.evalFallback(
      "electron_menu_click",
      "main",
      `({ Menu }, path) => { let items = Menu.getApplicationMenu().items; let item; for (const label of path) { item = items.find((i) => i.label === label); if (!item) throw new Error('no menu item ' + label); items = item.submenu ? item.submenu.items : []; } item.click(); return path.join(' > ') }`,
      path
    )
  })

/** Picks a file in the next native save window, then chooses File > Save As… (dialog_stub, else its rows, else eval). */
export const saveAsFromMenu = (agent: Agent, file: string): AgentEffect<void> =>
  Effect.gen(function* () {
    const path = ["File", "Save As…"]
    if (agent.has("electron_dialog_stub")) {
      agent.step(`get ready to pick ${file} in the save file window`)
      yield* agent.must("electron_dialog_stub", { action: "set", rules: [{ kind: "save", answer: { filePath: file } }] })
      agent.step("choose File > Save As… in the menu bar")
      yield* clickMenu(agent, path)
      return
    }
    agent.step("choose File > Save As… in the menu bar")
    yield* clickMenu(agent, path)
    agent.step(`answer the save window's rows with ${file}`)
    if (yield* answerNativeRows(agent, /^save dialog: /, { value: file, enter: true })) return
    agent.step(`make the save file window answer ${file}, then choose File > Save As… again`)
    yield* agent.evalFallback(
      "electron_dialog_stub",
      "main",
      "({ dialog }, file) => { dialog.showSaveDialog = async () => ({ canceled: false, filePath: file }); return 'save answers ' + file }",
      file
    )
    yield* clickMenu(agent, path, { retry: true })
  })

/** "The action opened a confirm "…" in w1": the web dialog's kind and message, from any answer. */
export const dialogIn = (text: string): { readonly kind: string; readonly message: string } | undefined => {
  const m =
    /opened an? (alert|confirm|prompt|beforeunload)(?: dialog)? "(.*)"/.exec(text) ??
    /(alert|confirm|prompt|beforeunload) dialog (?:is )?open(?:ed)?[^"\n]*"(.*)"/.exec(text)
  return m === null ? undefined : { kind: m[1] ?? "", message: m[2] ?? "" }
}

const ACCEPT = /^(?:OK|Ok|Yes|Accept|Confirm|Leave)$/
const DISMISS = /^(?:Cancel|No|Dismiss|Stay)$/

/** The rows of an open dialog in a snapshot: the dialog node's subtree. */
const dialogRows = (nodes: ReadonlyArray<Node>): ReadonlyArray<Node> => {
  const i = nodes.findIndex((n) => n.role === "dialog" || n.role === "alertdialog")
  if (i < 0) return []
  const depth = nodes[i]!.depth
  const end = nodes.findIndex((n, j) => j > i && n.depth <= depth)
  return nodes.slice(i, end < 0 ? undefined : end)
}

/**
 * Answers the web dialog an action's answer says it opened: web_dialog, else the dialog's rows in a snapshot
 * (a textbox filled for a prompt, then its OK or Cancel button clicked). Returns false when neither is
 * possible (the caller decides what else to try); does nothing when no dialog opened.
 */
export const answerDialog = (agent: Agent, out: string, accept: boolean, promptText?: string): AgentEffect<boolean> =>
  Effect.gen(function* () {
    if (dialogIn(out) === undefined) return true
    if (agent.has("electron_web_dialog")) {
      yield* agent.must("electron_web_dialog", { action: accept ? "accept" : "dismiss", ...(promptText !== undefined ? { promptText } : {}) })
      return true
    }
    // A snapshot shows the dialog's rows where the server puts them there; where it answers DIALOG_OPEN instead, nothing does.
    const look = yield* agent.call("electron_snapshot")
    if (look.isError) return false
    const rows = dialogRows(parseNodes(look.text))
    const button = rows.find((n) => n.role === "button" && n.ref !== undefined && (accept ? ACCEPT : DISMISS).test(n.name))
    if (button?.ref === undefined) return false
    agent.fallbacks.add("electron_click on dialog rows for electron_web_dialog")
    const box = rows.find((n) => n.role === "textbox" && n.ref !== undefined)
    if (promptText !== undefined && box?.ref !== undefined) yield* agent.must("electron_fill", { target: box.ref, value: promptText })
    yield* agent.must("electron_click", { target: button.ref })
    return true
  })

/**
 * With eval but no way to answer a dialog that is already open: having seen which dialog the button opens
 * (its kind, from the answer), the agent restarts the app, makes that dialog answer as it wants before
 * pressing the button again, and presses it. `again` relaunches and presses; it returns the new answer.
 */
export const overrideSeenDialog = (
  agent: Agent,
  seen: { readonly kind: string },
  answers: ReadonlyArray<boolean | string>,
  again: (prepare: AgentEffect<void>) => AgentEffect<string>
): AgentEffect<string> =>
  Effect.gen(function* () {
    if (!agent.has("electron_eval_renderer")) return yield* giveUp(`a ${seen.kind} dialog is open and nothing listed answers it`, "electron_web_dialog")
    return yield* again(
      Effect.gen(function* () {
        agent.step(`make the page's ${seen.kind} dialogs answer as wanted, now that the button is known to open one`)
        yield* agent.evalFallback(
          "electron_web_dialog",
          "renderer",
          `([kind, answers]) => { const queue = [...answers]; window[kind] = (...a) => { window.__shown = [...(window.__shown || []), String(a[0])]; return queue.length > 0 ? queue.shift() : undefined }; return kind + ' answers ' + JSON.stringify(answers) }`,
          [seen.kind, answers]
        )
      })
    )
  })

/** The definition that follows a term ("Dialog", "Ping", ...) in the results list of a region. */
export const resultAfter = (agent: Agent, region: string, term: string): AgentEffect<string | undefined> =>
  Effect.gen(function* () {
    const nodes = yield* agent.snapshotOf("region", region)
    const i = nodes.findIndex((n) => n.role === "term" && n.text === term)
    return i < 0 ? undefined : nodes.slice(i + 1).find((n) => n.role === "definition")?.text
  })

/** A placeholder a results list shows before its value arrives: nothing, a dash, or a line that ends "…". */
const unset = (v: string | undefined) => v === undefined || /^[\s–—-]*$/.test(v) || /…$|\.\.\.$/.test(v)

/**
 * The definition after a term once it holds a value: the agent looks again (a scoped snapshot) while it still
 * shows its placeholder, pausing between looks, for at most `tries` looks; the caller's check judges the value.
 */
export const resultWhenSet = (agent: Agent, region: string, term: string, tries = 20): AgentEffect<string | undefined> =>
  Effect.gen(function* () {
    let value = yield* resultAfter(agent, region, term)
    for (let i = 1; i < tries && unset(value); i++) {
      yield* Effect.sleep(Duration.millis(300))
      value = yield* resultAfter(agent, region, term)
    }
    return value
  })

/**
 * Answers a native dialog (message box, open or save dialog, file chooser) an action opened, from the rows a
 * snapshot shows for it: the agent looks until a dialog whose name matches `dialog` is there (it opens a
 * moment after the click, over the app's IPC), fills its text box when given a value, then clicks the button
 * named `button`, or presses Enter when `enter` is set (a file chooser is answered by its path alone). Returns false when no such dialog showed (the caller
 * tries what else it has); the refs it uses are the ones that snapshot showed.
 */
export const answerNativeRows = (
  agent: Agent,
  dialog: RegExp,
  answer: { readonly value?: string; readonly button?: string | RegExp; readonly enter?: boolean },
  looks = 10
): AgentEffect<boolean> =>
  Effect.gen(function* () {
    for (let i = 0; i < looks; i++) {
      const look = yield* agent.call("electron_snapshot", { depth: 0 })
      const nodes = look.isError ? [] : parseNodes(look.text)
      const at = nodes.findIndex((n) => (n.role === "dialog" || n.role === "menu") && dialog.test(n.name))
      if (at >= 0) {
        const end = nodes.findIndex((n, j) => j > at && n.depth <= nodes[at]!.depth)
        const rows = nodes.slice(at, end < 0 ? undefined : end)
        agent.fallbacks.add("electron_click / electron_fill on native dialog rows for electron_dialog_stub")
        if (answer.value !== undefined) {
          const box = rows.find((n) => n.role === "textbox" && n.ref !== undefined)
          if (box?.ref === undefined) return false
          yield* agent.must("electron_fill", { target: box.ref, value: answer.value })
        }
        if (answer.button === undefined) {
          if (answer.enter === true) yield* agent.must("electron_press_key", { key: "Enter" })
          return true
        }
        const wanted = answer.button
        const button = rows.find(
          (n) => n.ref !== undefined && (n.role === "button" || n.role === "menuitem") && (typeof wanted === "string" ? n.name === wanted : wanted.test(n.name))
        )
        if (button?.ref === undefined) return false
        yield* agent.must("electron_click", { target: button.ref })
        return true
      }
      yield* Effect.sleep(Duration.millis(300))
    }
    return false
  })
