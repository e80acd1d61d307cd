/**
 * Calls that run the app's code and await it (the eval tools, an IPC invoke) meet native dialogs that code opens:
 * held in the main process until the agent answers (src/layers/driver/main-modals.ts), such a dialog would keep the
 * call waiting for its whole bound. `untilNativeDialog` ends the call instead, with DIALOG_OPEN and the dialog's rows.
 */
import { Effect, Queue } from "effect"
import type { ModalState } from "../../layers/driver/ElectronDriver.js"
import { boundDialogText, DialogOpen } from "../../layers/driver/errors.js"
import type { AppSession } from "../../layers/driver/ElectronDriver.js"
import { modalRowsText } from "./modal-rows.js"

/**
 * A native dialog the function opens and awaits (`await dialog.showMessageBox(…)` in the main process, or an IPC
 * invoke from the page whose handler awaits one) is held in the main process until
 * the agent answers it (src/layers/driver/main-modals.ts), so the evaluation would wait for the call's whole bound
 * and time out saying nothing of it. The call ends instead when such a dialog is held, with DIALOG_OPEN and the
 * dialog's rows, as a web dialog ends a page evaluation: answering it lets the function go on. The main process
 * says when its held dialogs change (MODALS_CHANGED); each change is checked once, none missed during a check.
 */
/** What the watch reads: the selected session and the open modal states (the call handle's `current` and `modals`). */
export interface ModalReads {
  readonly current: Effect.Effect<AppSession | undefined>
  readonly modals: Effect.Effect<{ readonly states: ReadonlyArray<ModalState> }>
}

const nativeDialogHeld = (call: ModalReads, before: ReadonlySet<number>, who: "function" | "handler") =>
  Effect.flatMap(call.current, (session) =>
    session === undefined
      ? Effect.never
      : Effect.acquireUseRelease(
          Effect.flatMap(Queue.sliding<void>(1), (changed) =>
            Effect.sync(() => ({ changed, off: session.modals.onNativeChanged(() => Queue.unsafeOffer(changed, undefined)) }))
          ),
          ({ changed }) =>
            Queue.take(changed).pipe(
              Effect.zipRight(call.modals),
              Effect.map((view) => view.states.filter((state) => "native" in state.origin && !before.has(state.origin.native.id))),
              Effect.repeat({ until: (held) => held.length > 0 }),
              Effect.flatMap((held) => Effect.fail(nativeDialogOpen(held, who)))
            ),
          ({ off }) => Effect.sync(off)
        )
  )

/** `evaluation`, ended with DIALOG_OPEN when a native dialog not held before it is held while it runs. */
export const untilNativeDialog = <A, E, R>(
  call: ModalReads,
  who: "function" | "handler",
  evaluation: Effect.Effect<A, E, R>
): Effect.Effect<A, E | DialogOpen, R> =>
  Effect.flatMap(call.modals, (view) => {
    const before = new Set(view.states.flatMap((state) => ("native" in state.origin ? [state.origin.native.id] : [])))
    return Effect.raceFirst(evaluation, nativeDialogHeld(call, before, who))
  })

const nativeDialogOpen = (held: ReadonlyArray<ModalState>, who: "function" | "handler") =>
  new DialogOpen({
    message: `The ${who} opened a native ${held[0]!.kind} dialog, held in the main process until it is answered ("${boundDialogText(held[0]!.text)}"); the ${who} waits for it:\n${modalRowsText(held)}`,
    hint: `Answer it with electron_click on one of its refs above (electron_snapshot lists it too); the ${who} then goes on, and its result is not told.`,
    window: held[0]!.surface ?? "the main process",
    dialog: held[0]!.kind,
    dialogMessage: boundDialogText(held[0]!.text)
  })
