/**
 * electron_web_dialog: answers the open web dialog (alert, confirm, prompt, beforeunload), prepares answers
 * for later ones — standing (always) or for the next one only (once), for every type or one type — and
 * lists the dialogs seen in the session with how each was answered. It answers in the modal room the rows
 * come from (./modal-rows.ts): a dialog it answers leaves the snapshot's rows, and what is still open leads its answer.
 */
import { Effect, Schema } from "effect"
import { type AppSession, type DialogPolicy, type DialogSeen } from "../../layers/driver/ElectronDriver.js"
import { boundDialogText } from "../../layers/driver/errors.js"
import { openDialogs } from "./dialogs.js"
import { callHandle } from "../contract/handle.js"
import { InvalidArgument } from "../contract/errors.js"
import { answer, bounded, moreLine } from "../contract/respond.js"
import { defineTool, type ToolResult } from "../contract/Tool.js"

const SHOWN_HISTORY = 20

const describePolicy = (p: DialogPolicy) =>
  `${p.once === true ? "next " : ""}${p.type ?? "any dialog"}: ${p.action}${p.promptText !== undefined ? ` "${boundDialogText(p.promptText, 100)}"` : ""}`

const describeSeen = (d: DialogSeen) =>
  `${new Date(d.at).toISOString().slice(11, 23)} ${d.window} ${d.type} "${boundDialogText(d.message, 120)}": ${d.outcome}${d.by !== undefined ? ` (${d.by})` : ""}`

const policiesOf = (session: AppSession) => session.dialogPolicies

const preparedLine = (session: AppSession) => {
  const { standing, once } = policiesOf(session)
  const all = [...standing, ...once]
  return `Prepared answers: ${all.length > 0 ? all.map(describePolicy).join("; ") : "none (dialogs wait for electron_web_dialog)"}.`
}

const listing = (session: AppSession): ToolResult => {
  const history = session.dialogHistory
  const recent = bounded([...history].reverse(), SHOWN_HISTORY)
  const open = openDialogs(session)
  return answer(
    [
      `${history.length} web dialog(s) seen${recent.omitted > 0 ? `, newest ${SHOWN_HISTORY} first` : history.length > 0 ? ", newest first" : ""}:`,
      ...recent.shown.map((d) => `  ${describeSeen(d)}`),
      moreLine(recent, "the session keeps the last 50"),
      preparedLine(session),
      `Open now: ${open.length}.`
    ]
      .filter((line): line is string => line !== undefined)
      .join("\n"),
    { history: recent.shown, total: history.length, policies: policiesOf(session), open: open.length }
  )
}

export const webDialog = defineTool({
  name: "electron_web_dialog",
  // It answers the dialog: a dialog never blocks it.
  touchesPage: false,
  description:
    "Answer the open web dialog (an alert message, a confirm question, prompt, beforeunload): accept (OK; promptText for prompts) or dismiss (Cancel). always=true: also every later one, once=true: the next one if none is open; type: only that type; always=false: ask again. list: dialogs seen and their answers.",
  type: "interact",
  errors: ["APP_NOT_RUNNING", "INVALID_ARGUMENT"],
  input: Schema.Struct({
    action: Schema.Literal("accept", "dismiss", "list"),
    promptText: Schema.optional(Schema.String.pipe(Schema.maxLength(10_000))),
    always: Schema.optional(Schema.Boolean),
    once: Schema.optional(Schema.Boolean),
    type: Schema.optional(Schema.Literal("alert", "confirm", "prompt", "beforeunload"))
  }),
  handler: (input) =>
    Effect.gen(function* () {
      const call = yield* callHandle
      const session = yield* call.session
      if (input.action === "list") {
        if (input.always !== undefined || input.once !== undefined || input.type !== undefined || input.promptText !== undefined) {
          return yield* new InvalidArgument({ message: "list takes no other argument", hint: 'Example: { "action": "list" }.' })
        }
        return listing(session)
      }
      const action = input.action
      if (input.always !== undefined && input.once !== undefined)
        return yield* new InvalidArgument({
          message: "give always or once, not both",
          hint: 'Example: { "action": "accept", "once": true, "type": "confirm" }.'
        })
      if (input.once === false) return yield* new InvalidArgument({ message: "once: true or left out", hint: "always=false clears the prepared answers." })
      if (input.type !== undefined && input.always === undefined && input.once === undefined) {
        return yield* new InvalidArgument({
          message: "type: only with always or once (the open dialog is answered whatever its type)",
          hint: 'Example: { "action": "dismiss", "always": true, "type": "beforeunload" }.'
        })
      }
      const type = input.type
      const settle = action === "accept" ? `dialog.accept(${input.promptText !== undefined ? JSON.stringify(input.promptText) : ""})` : "dialog.dismiss()"
      const open = openDialogs(session)[0]
      // The open dialog is answered unless a type is given that it is not; a one-shot answer is used by it, or else kept for the next one.
      const answersOpen = open !== undefined && (type === undefined || open.type === type)
      if (input.always !== undefined) {
        yield* call.setDialogPolicy(input.always ? { action, promptText: input.promptText, type } : type !== undefined ? { action: "ask", type } : undefined)
      } else if (input.once === true && !answersOpen) {
        yield* call.setDialogPolicy({ action, promptText: input.promptText, type, once: true })
      }
      if ((input.always !== undefined || (input.once === true && !answersOpen)) && session.activeId !== undefined) {
        const handler = type !== undefined ? `(dialog) => { if (dialog.type() === ${JSON.stringify(type)}) void ${settle} }` : `(dialog) => ${settle}`
        yield* call.record({
          window: session.activeId,
          code: input.always === false ? `window.removeAllListeners("dialog")` : `window.${input.once === true ? "once" : "on"}("dialog", ${handler})`
        })
      }
      const prepared =
        input.always === true
          ? `${type ?? "Every web"} dialog${type !== undefined ? "s" : ""} will be ${action}ed.`
          : input.always === false
            ? `${type ?? "Web"} dialogs will wait for electron_web_dialog again.`
            : `The next ${type ?? "web"} dialog will be ${action}ed.`
      if (!answersOpen) {
        if (input.always !== undefined || input.once === true) return answer(`${prepared} ${preparedLine(session)}`, { policies: policiesOf(session) })
        return yield* new InvalidArgument({
          message: "No web dialog is open",
          hint: "Dialogs show up in the result of the action that opened them; always=true or once=true prepares an answer; list shows those seen."
        })
      }
      // Dialogs of windows that closed meanwhile need no answer (the driver drops them).
      const pending = yield* call.takeDialog
      if (pending === undefined)
        return yield* new InvalidArgument({ message: "No web dialog is open (its window closed)", hint: "list shows the dialogs seen." })
      yield* call.answerDialog(pending, action, input.promptText)
      yield* call.record({
        window: pending.window,
        code: `// the ${pending.type} ${JSON.stringify(pending.message)} is answered by the handler registered above`,
        dialog: { action, promptText: input.promptText }
      })
      const more = session.pendingDialogs.length > 0 ? ` ${session.pendingDialogs.length} more dialog(s) waiting.` : ""
      const also = input.always !== undefined ? ` ${prepared}` : ""
      // The same room as the rows: what is still open (another dialog, a held native one) leads the answer.
      return yield* call.answer(
        answer(`${action === "accept" ? "Accepted" : "Dismissed"} the ${pending.type} "${boundDialogText(pending.message)}".${more}${also}`, {
          type: pending.type,
          message: boundDialogText(pending.message),
          action,
          policies: policiesOf(session)
        })
      )
    })
})
