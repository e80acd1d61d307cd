/**
 * One wrapper around every core tool's handler, so that what an agent is told can be trusted whatever
 * the tool: a web dialog that blocks the page fails the call at once with DIALOG_OPEN and the way to
 * answer it in this server's profile (the driver's `window()` refuses a blocked page before the call;
 * a dialog that opens during the call ends it shortly after), and a target that matches nothing says
 * what is near.
 */
import { Effect, FiberRef } from "effect"
import { ElectronDriver } from "../layers/driver/ElectronDriver.js"
import type { ProfileSelector } from "../profile/ProfileSelector.js"
import { CurrentCall } from "./call-bounds.js"
import { answerAdvice, dialogOpenError } from "./dialogs.js"
import { DialogOpen } from "./errors.js"
import { explainNoMatch } from "./nearby.js"
import type { Tool, ToolServices } from "./Tool.js"

/** Tools that never touch a page (or answer the dialog): a dialog opening while they run is not theirs to report. */
export const DIALOG_EXEMPT: ReadonlySet<string> = new Set([
  "electron_launch",
  "electron_attach",
  "electron_close",
  "electron_status",
  "electron_plugins",
  "electron_web_dialog"
])

/**
 * How long a call may go on after a dialog opened in the middle of it. Actions that open a dialog report
 * it themselves at once (their result names it); anything still waiting after this is blocked by it.
 */
const DIALOG_GRACE_MS = 750

export const guardTool = (tool: Tool): Tool<any, ToolServices | ProfileSelector> => {
  if (DIALOG_EXEMPT.has(tool.name)) return tool
  return {
    ...tool,
    handler: (input: unknown) =>
      Effect.gen(function* () {
        const driver = yield* ElectronDriver
        const session = yield* driver.current
        const handled = tool.handler(input).pipe(
          Effect.catchTag("DialogOpen", (error) =>
            Effect.flatMap(answerAdvice, (hint) =>
              Effect.fail(new DialogOpen({ message: error.message, hint, window: error.window, dialog: error.dialog, dialogMessage: error.dialogMessage }))
            )
          ),
          Effect.catchTag("ElementNotFound", (error) => explainNoMatch(error, input))
        )
        // Handlers run under the dispatcher, which bounds each call (CurrentCall): a dialog that opens during
        // the call ends it after the grace period.
        const call = yield* FiberRef.get(CurrentCall)
        if (session === undefined || session.exit !== undefined || call === undefined) return yield* handled
        const hint = yield* answerAdvice
        let timer: ReturnType<typeof setTimeout> | undefined
        const off = yield* driver.onDialog((dialog) => {
          timer ??= setTimeout(() => call.endWith(dialogOpenError(dialog, hint)), DIALOG_GRACE_MS)
        })
        return yield* Effect.ensuring(
          handled,
          Effect.sync(() => {
            off()
            clearTimeout(timer)
          })
        )
      })
  }
}

