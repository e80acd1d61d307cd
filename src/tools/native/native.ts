/**
 * Electron-native tools: the application menu and the context menu an app pops up (read and click), native
 * dialog stubs, the clipboard. They run in the main process through Electron's own API.
 */
import type { ElectronModule, MainValue } from "../../layers/driver/ElectronDriver.js"
import { Effect, Schema } from "effect"
import { ElementNotFound, InvalidArgument, NotInteractable } from "../contract/errors.js"
import { clickMenuItem, flatten, readMenus, renderMenu, similarity, type MenuEntry, type Menus } from "../modal/menu-model.js"
import { UNSAFE_CODE_CHARACTERS } from "../contract/step-code.js"
import { callHandle } from "../contract/handle.js"
import { defineTool } from "../contract/Tool.js"
import { answer } from "../contract/respond.js"

/** The session window a popped-up menu's window shows (matched by URL), for the agent's window ids. */
const windowIdOf = (menus: Menus) =>
  Effect.gen(function* () {
    const url = menus.context?.window?.url
    if (url === undefined) return undefined
    const session = yield* (yield* callHandle).session
    return session.windows.find((w) => !w.page.isClosed() && w.page.url() === url)?.id
  })

/**
 * Clicks a menu item found in the menus (addressed by position, so duplicates and items without ids are
 * unambiguous), records the step for test export and answers what was clicked. electron_menu_click and a
 * menu ref clicked with electron_click (./menu-rows.ts) both end here.
 */
export const triggerMenuItem = (match: Pick<MenuEntry, "source" | "path" | "positions" | "node">) =>
  Effect.gen(function* () {
    const call = yield* callHandle
    const label = `${match.source === "context" ? "context menu item" : "menu item"} ${match.path.join(" > ")}`
    const target = { source: match.source, positions: match.positions }
    const after = yield* call.evaluateMain("click the menu item", clickMenuItem, target)
    const session = yield* call.session
    yield* call.record({
      window: session.activeId ?? "",
      code: [
        // Labels come from the app: one line of comment, whatever they hold.
        `// ${match.source === "context" ? "context menu" : "menu"} ${match.path.join(" > ").replace(new RegExp(UNSAFE_CODE_CHARACTERS.source, "g"), " ")}`,
        // The app pops its menu up after the right-click returned (an IPC round trip): wait for it.
        ...(match.source === "context"
          ? ["await expect.poll(() => app.evaluate(() => (globalThis as MainValue).__stagewright?.popup?.open === true)).toBe(true)"]
          : []),
        `await app.evaluate(${clickMenuItem.toString()}, ${JSON.stringify(target)})`
      ].join("\n"),
      ...(match.source === "context" ? { mainHooks: true } : {})
    })
    const state = after.type === "checkbox" || after.type === "radio" ? ` (now ${after.checked ? "checked" : "unchecked"})` : ""
    // A click is an action: the answer shows what it opened (a dialog's rows) and what the app told (a copy).
    return yield* call.answer(answer(`Clicked ${label}${state}.`, { menu: match.source, path: match.path, id: match.node.id ?? null, ...after }))
  })

export const menu = defineTool({
  name: "electron_menu",
  description:
    "The application menu as a tree: labels, ids, roles, accelerators, enabled/hidden, checked; then the context menu the app popped up, while it is open (after electron_click with button right). Trigger items with electron_menu_click.",
  type: "native",
  readOnly: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS"],
  input: Schema.Struct({}),
  handler: () =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const menus = yield* call.evaluateMain("read the menus", readMenus, undefined)
      const lines = menus.app === null ? ["The app has no application menu."] : renderMenu(menus.app)
      const windowId = yield* windowIdOf(menus)
      if (menus.context) {
        const where = windowId ?? (menus.context.window ? `"${menus.context.window.title}"` : "no window")
        lines.push("", `Context menu (open, in ${where}; electron_menu_click looks here first):`, ...renderMenu(menus.context.items, 1))
      }
      return answer(lines.join("\n"), { menu: menus.app, contextMenu: menus.context ? { window: windowId ?? null, items: menus.context.items } : null })
    })
})

export const menuClick = defineTool({
  name: "electron_menu_click",
  description:
    'Choose a menu bar or context menu item by id, or by label path like ["File", "New Task"], as a user click would (its click handler or role runs; checkboxes toggle). A context menu that popped up (see electron_menu) is searched before the application menu. Fails on a disabled or missing item and lists the nearest matches.',
  type: "native",
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "ELEMENT_NOT_FOUND", "NOT_INTERACTABLE", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    id: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))),
    path: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(200))).pipe(Schema.minItems(1), Schema.maxItems(10)))
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if ((input.id === undefined) === (input.path === undefined)) {
        return yield* new InvalidArgument({
          message: "give exactly one of id or path",
          hint: 'Example: { "path": ["File", "New Task"] } or { "id": "new-task" }; electron_menu lists both.'
        })
      }
      const call = yield* callHandle
      const menus = yield* call.evaluateMain("read the menus", readMenus, undefined)
      // The open context menu first: it is what the user sees, as a click on screen would go to it.
      const items = [...flatten("context", menus.context?.items ?? []), ...flatten("app", menus.app ?? [])].filter(({ node }) => node.type !== "separator")
      const wanted = input.path?.map((p) => p.replace(/&/g, "").trim().toLowerCase())
      const match = items.find(({ path, node }) =>
        input.id !== undefined
          ? node.id === input.id
          : path.length === wanted!.length && path.every((label, i) => label.replace(/&/g, "").trim().toLowerCase() === wanted![i])
      )
      const asked = input.id !== undefined ? `id "${input.id}"` : `path ${JSON.stringify(input.path)}`
      if (match === undefined) {
        const key = input.id ?? input.path![input.path!.length - 1]!
        const nearest = items
          .map((item) => ({ item, score: Math.min(similarity(key, item.node.label), item.node.id ? similarity(key, item.node.id) : 3) }))
          .filter(({ score }) => score < 3)
          .sort((a, b) => a.score - b.score)
          .slice(0, 5)
          .map(({ item }) => `${item.source === "context" ? "(context menu) " : ""}${item.path.join(" > ")}${item.node.id ? ` (id ${item.node.id})` : ""}`)
        return yield* new ElementNotFound({
          message: `No menu item with ${asked}${menus.app === null && menus.context === null ? ": the app has no application menu and no open context menu" : ""}`,
          hint: nearest.length > 0 ? `Nearest: ${nearest.join("; ")}` : "electron_menu lists the items.",
          details: { nearest }
        })
      }
      const label = `${match.source === "context" ? "context menu item" : "menu item"} ${match.path.join(" > ")}`
      if (!match.node.enabled) {
        return yield* new NotInteractable({
          message: `The ${label} is disabled`,
          hint: "It may become enabled after another action; electron_menu shows the current state."
        })
      }
      if (match.node.submenu) {
        return yield* new InvalidArgument({
          message: `${match.path.join(" > ")} opens a submenu`,
          hint: `Pick one of its items: ${match.node.submenu
            .map((n) => n.label)
            .filter(Boolean)
            .join(", ")}`
        })
      }
      return yield* triggerMenuItem(match)
    })
})

const Answer = Schema.Struct({
  canceled: Schema.optional(Schema.Boolean),
  filePaths: Schema.optional(Schema.Array(Schema.String.pipe(Schema.maxLength(4_096))).pipe(Schema.maxItems(100))),
  filePath: Schema.optional(Schema.String.pipe(Schema.maxLength(4_096))),
  response: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.nonNegative())),
  checkboxChecked: Schema.optional(Schema.Boolean)
})

const Rule = Schema.Struct({
  kind: Schema.Literal("open", "save", "message"),
  answer: Answer,
  match: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))).annotations({ description: "only calls whose title, message or buttons contain this" }),
  times: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 1_000))).annotations({ description: "answer this many calls, default every call" })
})

/**
 * Runs in the main process: replaces the dialog functions with recorders that answer from the rules
 * (or "canceled"; or throw when strict), keeping the originals to restore.
 */
const applyStub = ({ dialog }: ElectronModule, command: { action: string; rules: ReadonlyArray<MainValue>; strict: boolean }) => {
  const g = globalThis as MainValue
  const names = ["showOpenDialog", "showOpenDialogSync", "showSaveDialog", "showSaveDialogSync", "showMessageBox", "showMessageBoxSync"]
  const kindOf = (name: string) => (name.includes("Open") ? "open" : name.includes("Save") ? "save" : "message")
  // The dialog functions are swapped by name for recorders of another signature.
  const table = dialog as unknown as Record<string, MainValue>
  const state = (g.__stagewrightDialogs ??= { originals: null as MainValue, rules: [] as Array<any>, calls: [] as Array<any>, strict: false })
  if (command.action === "restore") {
    if (state.originals) for (const name of names) table[name] = state.originals[name]
    const calls = state.calls
    g.__stagewrightDialogs = undefined
    return { installed: false, calls }
  }
  if (command.action === "list") return { installed: state.originals !== null, calls: state.calls, rules: state.rules.length }
  if (!state.originals) {
    state.originals = Object.fromEntries(names.map((name) => [name, table[name]]))
    for (const name of names) {
      const sync = name.endsWith("Sync")
      table[name] = (...args: Array<any>) => {
        const options = (args.length > 1 ? args[1] : args[0]) ?? {}
        const kind = kindOf(name)
        const text = [options.title, options.message, options.detail, ...(options.buttons ?? [])].filter(Boolean).join(" \u0000 ")
        const rule = state.rules.find(
          (r: MainValue) => r.kind === kind && (r.remaining === undefined || r.remaining > 0) && (!r.match || text.includes(r.match))
        )
        // Every option the app gave, bounded (strings 300 characters, lists 20 entries).
        const cut = (v: MainValue, max = 300) => (typeof v === "string" ? (v.length > max ? `${v.slice(0, max - 1)}…` : v) : null)
        const list = (v: MainValue) => (Array.isArray(v) ? v.slice(0, 20).map((x: MainValue) => cut(String(x), 100)) : null)
        const filters = Array.isArray(options.filters)
          ? options.filters.slice(0, 20).map((f: MainValue) => ({ name: cut(f?.name, 100), extensions: list(f?.extensions) ?? [] }))
          : null
        const call: Record<string, unknown> = { method: name }
        const given: Record<string, unknown> = {
          title: cut(options.title),
          message: cut(options.message),
          detail: cut(options.detail),
          type: cut(options.type, 20),
          buttons: list(options.buttons),
          checkboxLabel: cut(options.checkboxLabel),
          defaultPath: cut(options.defaultPath, 1_000),
          filters,
          properties: list(options.properties)
        }
        for (const [key, value] of Object.entries(given)) if (value !== null) call[key] = value
        Object.assign(call, { answered: rule ? "stub" : state.strict ? "refused" : "canceled", at: Date.now() })
        state.calls.push(call)
        if (state.calls.length > 200) state.calls.shift()
        if (!rule && state.strict) {
          const error = new Error(`Stagewright dialog stub: unmatched ${name} call (title: ${options.title ?? "-"}, message: ${options.message ?? "-"})`)
          if (sync) throw error
          return Promise.reject(error)
        }
        if (rule && rule.remaining !== undefined) rule.remaining--
        const a = rule?.answer ?? { canceled: true }
        const canceled = a.canceled === true
        const result =
          kind === "open"
            ? sync
              ? canceled
                ? undefined
                : (a.filePaths ?? [])
              : { canceled, filePaths: canceled ? [] : (a.filePaths ?? []) }
            : kind === "save"
              ? sync
                ? canceled
                  ? ""
                  : (a.filePath ?? "")
                : { canceled, filePath: canceled ? "" : (a.filePath ?? "") }
              : sync
                ? (a.response ?? options.cancelId ?? 0)
                : { response: a.response ?? (canceled ? (options.cancelId ?? 0) : 0), checkboxChecked: a.checkboxChecked ?? options.checkboxChecked ?? false }
        return sync ? result : Promise.resolve(result)
      }
    }
  }
  if (command.action === "set") {
    state.rules = [...command.rules.map((r: MainValue) => ({ ...r, remaining: r.times })), ...state.rules]
    state.strict = command.strict
  }
  return { installed: true, calls: state.calls, rules: state.rules.length }
}

interface RecordedDialogCall {
  readonly method: string
  readonly title?: string
  readonly message?: string
  readonly detail?: string
  readonly type?: string
  readonly buttons?: ReadonlyArray<string>
  readonly checkboxLabel?: string
  readonly defaultPath?: string
  readonly filters?: ReadonlyArray<{ readonly name: string | null; readonly extensions: ReadonlyArray<string> }>
  readonly properties?: ReadonlyArray<string>
  readonly answered: string
}

/** One line per call with every option the app gave the dialog. */
const describeCall = (c: RecordedDialogCall) => {
  const parts = [
    c.type !== undefined ? `type ${c.type}` : undefined,
    c.detail !== undefined ? `detail ${JSON.stringify(c.detail)}` : undefined,
    c.buttons !== undefined ? `buttons [${c.buttons.join(", ")}]` : undefined,
    c.checkboxLabel !== undefined ? `checkbox ${JSON.stringify(c.checkboxLabel)}` : undefined,
    c.defaultPath !== undefined ? `defaultPath ${c.defaultPath}` : undefined,
    c.filters !== undefined ? `filters ${c.filters.map((f) => `${f.name ?? ""} (${f.extensions.join(",")})`).join("; ")}` : undefined,
    c.properties !== undefined ? `properties ${c.properties.join(",")}` : undefined
  ].filter((p) => p !== undefined)
  return `${c.method}${c.title ? ` "${c.title}"` : ""}${c.message ? ` — ${c.message}` : ""}${parts.length > 0 ? ` (${parts.join("; ")})` : ""}: ${c.answered}`
}

export const dialogStub = defineTool({
  name: "electron_dialog_stub",
  description:
    'Get ready for native dialogs (open/save file windows, message boxes): pre-answer dialog.showOpenDialog/showSaveDialog/showMessageBox and their Sync forms with rules per kind (open|save|message), optionally matching title/message/buttons text; unmatched calls answer "canceled", or fail when strict. list shows the recorded calls; restore puts the real dialogs back.',
  type: "native",
  idempotent: true,
  files: ["rules[].answer.filePaths[]", "rules[].answer.filePath"],
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    action: Schema.Literal("set", "list", "restore"),
    rules: Schema.optional(Schema.Array(Rule).pipe(Schema.maxItems(50))),
    strict: Schema.optional(Schema.Boolean).annotations({ description: "unmatched calls fail instead of answering canceled" })
  }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.action === "set" && (input.rules === undefined || input.rules.length === 0) && input.strict === undefined) {
        return yield* new InvalidArgument({
          message: "set needs rules (or strict)",
          hint: 'Example: { "action": "set", "rules": [{ "kind": "open", "answer": { "filePaths": ["/tmp/a.json"] } }] }'
        })
      }
      const call = yield* callHandle
      const command = { action: input.action, rules: input.rules ?? [], strict: input.strict === true }
      const result = yield* call.evaluateMain("stub the dialogs", applyStub, command)
      if (input.action !== "list") {
        const session = yield* call.session
        yield* call.record({
          window: session.activeId ?? "",
          code: `await app.evaluate(${applyStub.toString()}, ${JSON.stringify(command)})`
        })
      }
      // The stub answers calls made from now on; dialogs already held wait in the modal room (their rows lead electron_snapshot).
      const open = yield* call.modals
      const held = open.states.filter((state) => "native" in state.origin).length
      const calls = (result.calls as ReadonlyArray<RecordedDialogCall>).map(describeCall)
      const head =
        input.action === "restore"
          ? "Real dialogs restored."
          : input.action === "set"
            ? `Dialog stub active with ${result.rules} rule(s)${input.strict ? ", strict" : ""}.`
            : result.installed
              ? `Dialog stub active with ${result.rules} rule(s).`
              : "No dialog stub installed."
      const waiting = [
        ...open.told.map((t) => `\n(${t})`),
        held > 0 ? `\n${held} native dialog(s) opened before the stub still wait for an answer: electron_snapshot shows their rows.` : ""
      ].join("")
      return answer(`${head}\n${calls.length > 0 ? `Calls:\n${calls.join("\n")}` : "No dialog calls recorded."}${waiting}`, {
        ...result,
        ...(held > 0 ? { held } : {})
      })
    })
})

export const clipboard = defineTool({
  name: "electron_clipboard",
  description: "Read or write the clipboard's text through Electron's clipboard module (read returns the text; write replaces it).",
  type: "native",
  idempotent: true,
  errors: ["APP_NOT_RUNNING", "NEEDS_MAIN_PROCESS", "INVALID_ARGUMENT"],
  input: Schema.Struct({ action: Schema.Literal("read", "write"), text: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000_000))) }),
  handler: (input) =>
    Effect.gen(function* () {
      if (input.action === "write" && input.text === undefined) {
        return yield* new InvalidArgument({ message: "write needs text", hint: 'Example: { "action": "write", "text": "hello" }' })
      }
      const call = yield* callHandle
      const text = yield* call.evaluateMain(
        `${input.action} the clipboard`,
        // Electron 45's published clipboard is asynchronous; awaiting also takes older Electrons' plain strings.
        async ({ clipboard }: ElectronModule, command: { action: string; text?: string }) => {
          if (command.action === "write") {
            // Our own write is not told as the app's copy (./main-modals.ts follows the app's writes).
            const g = globalThis as { __stagewrightOwnCopy?: boolean }
            g.__stagewrightOwnCopy = true
            let written: unknown
            try {
              written = clipboard.writeText(command.text ?? "")
            } finally {
              g.__stagewrightOwnCopy = false
            }
            await written
          }
          return await clipboard.readText()
        },
        { action: input.action, ...(input.text !== undefined ? { text: input.text } : {}) }
      )
      return answer(input.action === "write" ? `Clipboard set (${text.length} chars).` : text === "" ? "(clipboard is empty)" : text, { text })
    })
})

export const nativeTools = [menu, menuClick, dialogStub, clipboard]
