/**
 * Issue 24, cleanup: DIALOG_OPEN is written in one place (dialogOpen, src/layers/driver/errors.ts) for
 * the driver's dialog gate, a dialog that interrupts a call, and the hint the call stages put on it.
 */
import { describe, expect, it } from "@effect/vitest"
import { DialogOpen, dialogOpen } from "../../src/layers/driver/errors.js"

const pending = (type: string, message: string, defaultValue = "") => ({ window: "w2", type, message, defaultValue })

describe("dialogOpen", () => {
  it("names the dialog, its window and its message, with the error's standard hint", () => {
    const error = dialogOpen(pending("alert", "Saved"))
    expect(error).toBeInstanceOf(DialogOpen)
    expect(error.message).toBe('An alert dialog is open in w2: "Saved"; its page is blocked until it is answered')
    expect(error.hint).toBe("Answer it with electron_web_dialog (accept or dismiss); the page is blocked until then.")
    expect({ window: error.window, dialog: error.dialog, dialogMessage: error.dialogMessage }).toEqual({
      window: "w2",
      dialog: "alert",
      dialogMessage: "Saved"
    })
  })

  it("gives a prompt's default and bounds page text", () => {
    const error = dialogOpen(pending("prompt", "x".repeat(500), "y".repeat(300)))
    expect(error.message).toBe(`A prompt dialog is open in w2: "${"x".repeat(199)}…" (default "${"y".repeat(99)}…"); its page is blocked until it is answered`)
    expect(error.dialogMessage).toBe(`${"x".repeat(199)}…`)
  })

  it("puts a new hint on a DIALOG_OPEN already made and keeps everything else", () => {
    const first = dialogOpen(pending("confirm", "Delete it?"))
    const hinted = dialogOpen(first, "electron_web_dialog is not in this profile")
    expect(hinted.hint).toBe("electron_web_dialog is not in this profile")
    expect({ message: hinted.message, window: hinted.window, dialog: hinted.dialog, dialogMessage: hinted.dialogMessage }).toEqual({
      message: 'A confirm dialog is open in w2: "Delete it?"; its page is blocked until it is answered',
      window: "w2",
      dialog: "confirm",
      dialogMessage: "Delete it?"
    })
    expect(dialogOpen(first).hint).toBe(first.hint)
  })
})
