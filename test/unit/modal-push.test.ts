/**
 * Issue 42: an answer reads the main process for held native dialogs only when something changed there or
 * is held. The held-dialogs hook (src/layers/driver/main-modals.ts) says MODALS_CHANGED on the inspector's
 * console at each change (a dialog held, answered, its hold ended, a Sync one answered by policy); the
 * driver takes it off the main console (main-console.ts: never recorded as the app's message) and marks the
 * modal room stale (modal-room.ts: nativeReadNeeded).
 */
import inspector from "node:inspector"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { ElectronModule } from "../../src/layers/driver/ElectronDriver.js"
import { recordMainConsole } from "../../src/layers/driver/main-console.js"
import { installHeldDialogs, MODALS_CHANGED, readHeld, settleHeld } from "../../src/layers/driver/main-modals.js"
import { ModalRoom } from "../../src/layers/driver/modal-room.js"
import type { AppSession } from "../../src/layers/driver/session.js"
import { fakeDialog } from "../support/fake-dialog.js"

const fakeElectron = () =>
  ({
    dialog: fakeDialog()
  }) as unknown as ElectronModule

afterEach(() => {
  vi.restoreAllMocks()
  ;(globalThis as { __stagewrightModals?: unknown }).__stagewrightModals = undefined
})

describe("held native dialogs are pushed, not read on every answer", () => {
  it("the hook says MODALS_CHANGED on the inspector's console (not stdout) at each change", async () => {
    const said = vi.spyOn(inspector.console, "debug").mockImplementation(() => undefined)
    const stdout = vi.spyOn(console, "debug")
    const electron = fakeElectron()
    installHeldDialogs(electron, 60_000)
    expect(said).not.toHaveBeenCalled()
    const answered = (electron.dialog.showMessageBox as (o: object) => Promise<unknown>)({ message: "Saved?" })
    expect(said).toHaveBeenCalledTimes(1)
    expect(said).toHaveBeenLastCalledWith(MODALS_CHANGED)
    settleHeld(electron, { id: readHeld(electron).held[0]!.id, answer: { response: 0 } })
    await answered
    expect(said).toHaveBeenCalledTimes(2)
    ;(electron.dialog.showMessageBoxSync as (o: object) => number)({ message: "Quit?" })
    expect(said).toHaveBeenCalledTimes(3)
    expect(stdout).not.toHaveBeenCalled()
  })

  it("the room needs a read at first, after MODALS_CHANGED, and while anything is held; not otherwise", () => {
    const room = new ModalRoom()
    expect(room.nativeReadNeeded).toBe(true)
    room.nativeReading()
    room.nativeRead({ held: [], popup: null, told: [] })
    expect(room.nativeReadNeeded).toBe(false)
    const session = { modals: room, console: { push: vi.fn() }, errors: { push: vi.fn() } } as unknown as AppSession
    recordMainConsole(session, "debug", MODALS_CHANGED)
    expect(room.nativeReadNeeded).toBe(true)
    expect(session.console.push).not.toHaveBeenCalled()
    room.nativeReading()
    room.nativeRead({ held: [{ id: 1, method: "showMessageBox", kind: "message", message: "Saved?", deadline: Date.now() + 60_000 }], popup: null, told: [] })
    expect(room.nativeReadNeeded).toBe(true)
    room.nativeReading()
    room.nativeRead({ held: [], popup: null, told: [] })
    expect(room.nativeReadNeeded).toBe(false)
    recordMainConsole(session, "debug", "an app message")
    expect(session.console.push).toHaveBeenCalledTimes(1)
    expect(room.nativeReadNeeded).toBe(false)
  })
})
