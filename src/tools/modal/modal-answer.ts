/**
 * Answering a modal state through the verbs an agent already uses on the page: electron_click on a
 * button or menu item ref, electron_fill on a text box ref (a prompt's answer, a native dialog's path, a
 * file chooser's file), electron_press_key Enter (the default answer) or Escape (cancel). Paths go through
 * the server's confinement: an open dialog's and a file chooser's path must lie inside --app-root; a save
 * dialog's bare file name is written under the output folder, a path must lie inside --app-root.
 */
import { Effect } from "effect"
import { dirname, extname } from "node:path"
import { confinePath, outputPath } from "../../layers/config/paths.js"
import { ServerConfig } from "../../layers/config/ServerConfig.js"
import { AppLifecycle, Dialogs, MainProcess, PageOps, type ModalControl, type ModalState, type DriverServices } from "../../layers/driver/ElectronDriver.js"
import { boundDialogText } from "../../layers/driver/errors.js"
import { changeSummary } from "../snapshot/change-summary.js"
import { InvalidArgument, NotInteractable, type ToolError } from "../contract/errors.js"
import { clickMenuItem } from "./menu-model.js"
import { KIND_NAME, modalFacts, modalRowsText } from "./modal-rows.js"
import { codeString, UNSAFE_CODE_CHARACTERS } from "../contract/step-code.js"
import type { ToolResult } from "../contract/Tool.js"
import { answer } from "../contract/respond.js"
import { windowsTold } from "../pipeline/new-windows.js"

/** What the agent did to a modal control. */
export type ModalIntent =
  | { readonly verb: "click" }
  | { readonly verb: "fill"; readonly value: string }
  | { readonly verb: "press"; readonly key: string }
  | { readonly verb: "files"; readonly paths: ReadonlyArray<string> }

type Answer =
  | { readonly kind: "web"; readonly action: "accept" | "dismiss" }
  | { readonly kind: "native"; readonly answer: Record<string, unknown>; readonly said: string }
  | { readonly kind: "typed" }
  | { readonly kind: "checkbox" }
  | { readonly kind: "files"; readonly paths: ReadonlyArray<string> }
  | { readonly kind: "item"; readonly control: ModalControl }
  | { readonly kind: "close" }
  | { readonly kind: "closeWindow" }

const comment = (text: string) => `// ${text.replace(new RegExp(UNSAFE_CODE_CHARACTERS.source, "g"), " ")}`

/** A path the agent filled into a native dialog or file chooser, confined as the server's rules say. */
const confined = (state: ModalState, value: string) =>
  Effect.flatMap(ServerConfig, (config) => {
    const origin = state.origin
    const save = "native" in origin && origin.native.kind === "save"
    const result =
      save && !/[/\\]/.test(value)
        ? outputPath(config.outputDir, value, extname("native" in origin ? (origin.native.defaultPath ?? "") : ""))
        : confinePath(
            config.appRoot,
            value,
            "value",
            config.appRoot ?? (save && "native" in origin && origin.native.defaultPath !== undefined ? dirname(origin.native.defaultPath) : undefined)
          )
    return typeof result === "string" ? Effect.succeed(result) : Effect.fail(result)
  })

/** What an intent on a control means for its state. */
const meaning = (state: ModalState, control: ModalControl | undefined, intent: ModalIntent): Effect.Effect<Answer, ToolError, ServerConfig> => {
  const origin = state.origin
  const key = intent.verb === "press" ? intent.key : undefined
  const bad = (message: string) =>
    Effect.fail(new InvalidArgument({ message, hint: "electron_click a button, electron_fill a text box, or electron_press_key Enter/Escape on the dialog." }))
  if (key !== undefined && key !== "Enter" && key !== "Escape") return bad(`${key}: a ${state.kind} answers Enter or Escape`)
  // Files given to electron_upload_file were confined by the call's stages.
  if (intent.verb === "files")
    return "chooser" in origin
      ? Effect.succeed({ kind: "files", paths: intent.paths })
      : bad(`electron_upload_file sets a file chooser's files; this is a ${state.kind}`)
  const does = key === "Escape" ? "cancel" : key === "Enter" ? "default" : control?.does.kind
  if (intent.verb === "fill" && control?.role !== "textbox")
    return bad(`${control?.ref ?? "it"} is a ${control?.role ?? "dialog"}, not a text box: electron_click it`)
  if (intent.verb === "click" && control?.role === "textbox")
    return bad(`${control.ref} is the ${state.kind}'s text box: electron_fill it, then click its button`)
  if ("web" in origin) {
    if (intent.verb === "fill") return Effect.sync(() => (state.typed = intent.value)).pipe(Effect.as({ kind: "typed" } as const))
    return Effect.succeed({ kind: "web", action: does === "dismiss" || does === "cancel" ? "dismiss" : "accept" })
  }
  if ("chooser" in origin) {
    if (intent.verb === "fill") return Effect.map(confined(state, intent.value), (path) => ({ kind: "files", paths: [path] }) as const)
    return Effect.succeed({ kind: "files", paths: [] })
  }
  if ("popup" in origin) {
    if (does === "cancel") return Effect.succeed({ kind: "close" })
    if (control === undefined || control.does.kind !== "item") return bad("Enter needs a menu item: electron_click one")
    if (!control.does.enabled)
      return Effect.fail(new NotInteractable({ message: `The context menu item "${control.name}" is disabled`, hint: "Press Escape to close the menu." }))
    if (control.does.submenu) return bad(`"${control.name}" opens a submenu: click one of its items`)
    return Effect.succeed({ kind: "item", control })
  }
  if ("window" in origin) {
    if (does === "close" || does === "cancel") return Effect.succeed({ kind: "closeWindow" })
    return bad(`a modal window is answered in its own page${state.page !== undefined ? ` (${state.page})` : ""}: act there, or electron_click its Close button`)
  }
  const native = "native" in origin ? origin.native : undefined!
  if (native.kind === "message") {
    if (control?.does.kind === "checkbox") return Effect.succeed({ kind: "checkbox" })
    const buttons = native.buttons !== undefined && native.buttons.length > 0 ? native.buttons : ["OK"]
    const cancel =
      native.cancelId ??
      Math.max(
        0,
        buttons.findIndex((b) => /^(cancel|no)$/i.test(b))
      )
    const index = control?.does.kind === "button" ? control.does.index : does === "cancel" ? cancel : (native.defaultId ?? 0)
    return Effect.succeed({
      kind: "native",
      answer: { response: index, checkboxChecked: state.checked === true },
      said: `"${buttons[index] ?? index}" (response ${index})`
    })
  }
  if (intent.verb === "fill")
    return Effect.flatMap(confined(state, intent.value), (path) => Effect.sync(() => (state.typed = path)).pipe(Effect.as({ kind: "typed" } as const)))
  if (does === "dismiss" || does === "cancel") return Effect.succeed({ kind: "native", answer: { canceled: true }, said: "canceled" })
  // A filled path was confined when it was filled; the app's default path is confined when it is accepted.
  const path = state.typed ?? (native.kind === "save" ? native.defaultPath : undefined)
  if (path === undefined || path === "")
    return bad(
      `the ${state.kind === "open" ? "open" : "save"} dialog has no path yet: electron_fill its ${state.kind === "open" ? "path" : "file name"} box first`
    )
  return Effect.map(state.typed !== undefined ? Effect.succeed(path) : confined(state, path), (real) =>
    native.kind === "open"
      ? ({ kind: "native", answer: { filePaths: [real] }, said: `with ${real}` } as const)
      : ({ kind: "native", answer: { filePath: real }, said: `with ${real}` } as const)
  )
}

/** Answers `state` as `intent` on `control` says (no control: a key pressed on the state), and tells what happened and what is still open. */
export const answerModal = (
  tool: string,
  state: ModalState,
  control: ModalControl | undefined,
  intent: ModalIntent
): Effect.Effect<ToolResult, ToolError, DriverServices | ServerConfig> =>
  Effect.gen(function* () {
    const dialogs = yield* Dialogs
    const lifecycle = yield* AppLifecycle
    const meant = yield* meaning(state, control, intent)
    const origin = state.origin
    // A beforeunload has no text of its own (Chromium gives none): its name is its kind alone.
    const name = state.text === "" ? KIND_NAME[state.kind] : `${KIND_NAME[state.kind]} "${boundDialogText(state.text, 100)}"`
    const window = state.surface ?? (yield* lifecycle.session).activeId ?? ""
    let done: string
    if (meant.kind === "typed")
      done = `Typed into the ${state.kind}'s ${control?.name ?? "text box"}; electron_click its ${state.kind === "prompt" ? "OK" : "accept"} button or press Enter to answer`
    else if (meant.kind === "checkbox") {
      state.checked = state.checked !== true
      done = `The ${name}'s checkbox is now ${state.checked ? "checked" : "unchecked"} (sent with the button clicked)`
    } else if (meant.kind === "web" && "web" in origin) {
      const promptText = state.kind === "prompt" && meant.action === "accept" ? state.typed : undefined
      yield* dialogs.answerDialog(origin.web, meant.action, promptText)
      yield* lifecycle.recordStep({
        tool,
        window,
        code: comment(`the ${origin.web.type} ${JSON.stringify(origin.web.message)} is answered by the handler registered above`),
        dialog: { action: meant.action, promptText }
      })
      done =
        state.kind === "beforeunload"
          ? meant.action === "accept"
            ? "Left the page (accepted its beforeunload)"
            : "Stayed on the page (dismissed its beforeunload)"
          : `${meant.action === "accept" ? "Accepted" : "Dismissed"} the ${name}${promptText !== undefined ? ` with ${JSON.stringify(boundDialogText(promptText, 100))}` : ""}`
    } else if (meant.kind === "files" && "chooser" in origin) {
      const pages = yield* PageOps
      yield* pages.run("set the chosen files", () => origin.chooser.setFiles([...meant.paths]))
      yield* dialogs.settled(state)
      yield* lifecycle.recordStep({
        tool,
        window,
        code: comment(`file chooser: ${meant.paths.length > 0 ? `setFiles(${JSON.stringify(meant.paths)})` : "canceled"}`)
      })
      done = meant.paths.length > 0 ? `Chose ${meant.paths.join(", ")} in the file chooser` : "Canceled the file chooser"
    } else if (meant.kind === "item") {
      const main = yield* MainProcess
      const target = { source: "context" as const, positions: (meant.control.does as { positions: ReadonlyArray<number> }).positions }
      yield* main.evaluateMain("click the context menu item", clickMenuItem, target)
      yield* dialogs.settled(state)
      yield* lifecycle.recordStep({
        tool,
        window,
        code: `${comment(`context menu > ${meant.control.name}`)}\nawait app.evaluate(${clickMenuItem.toString()}, ${JSON.stringify(target)})`,
        mainHooks: true
      })
      done = `Clicked the context menu item "${meant.control.name}"`
    } else if (meant.kind === "close") {
      yield* dialogs.closeMenu(state)
      done = "Closed the context menu"
    } else if (meant.kind === "closeWindow") {
      const closed = yield* dialogs.closeWindow(state)
      const title = "window" in origin ? origin.window.by.title : state.text
      yield* lifecycle.recordStep({
        tool,
        window,
        code: `${comment(`close the modal window (its close button)`)}\nawait app.evaluate(({ BrowserWindow }, title) => BrowserWindow.getAllWindows().find((w) => w.getTitle() === title)?.close(), ${codeString(title)})`
      })
      const session = yield* lifecycle.session
      const active = session.activeId
      // The answer says it closed and where the agent is: later answers do not tell it again (../pipeline/new-windows.ts).
      if (closed && state.page !== undefined) windowsTold(session, [state.page])
      done = closed
        ? `Closed the ${name}${active !== undefined ? `; the active window is ${active}` : ""}`
        : `Asked the ${name} to close; it is still open (the app's close handler or its page's beforeunload kept it)`
    } else if (meant.kind === "native") {
      const held = yield* dialogs.settleNative(state, meant.answer)
      if (!held) {
        return yield* new InvalidArgument({
          message: `The ${name} no longer waits (answered or its hold ended)`,
          hint: "electron_snapshot shows what is open now."
        })
      }
      yield* lifecycle.recordStep({
        tool,
        window,
        code: comment(`native ${state.kind} ${JSON.stringify(state.text)} answered ${meant.said} (stub it with electron_dialog_stub to replay)`)
      })
      done = `Answered the ${name} ${meant.said}`
    } else done = "Nothing to answer"
    // An answer is an action: the read waits for the IPC it started (the app's work after a dialog or menu item).
    const { states, told } = yield* dialogs.modalStatesAfterAction
    const rows = modalRowsText(states, told)
    // Once a web dialog is answered its page runs again: what the answer changed there.
    const surface = state.surface === undefined ? undefined : (yield* lifecycle.session).surface(state.surface)
    const change =
      meant.kind === "web" || meant.kind === "files"
        ? surface !== undefined && !states.some((s) => "web" in s.origin && s.surface === surface.id)
          ? yield* changeSummary(surface)
          : ""
        : ""
    return answer(`${done}.${change}${rows !== "" ? `\n${rows}` : ""}`, {
      modal: { kind: state.kind, surface: state.surface ?? null, answered: meant.kind !== "typed" && meant.kind !== "checkbox" },
      ...(states.length > 0 ? { modals: modalFacts(states) } : {})
    })
  })
