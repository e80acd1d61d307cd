/**
 * Issue 42: the main-process read after every action (readHeld) is installed once with the held dialogs
 * (src/layers/driver/held-read.ts), so each read sends a short call instead of readHeld's source. Both sources are
 * compiled here as the main process compiles them (from text), against a fake `electron`.
 */
import { afterEach, describe, expect, it } from "vitest"
import type { ElectronModule } from "../../src/layers/driver/ElectronDriver.js"
import { installHeldSource, READ_INSTALLED } from "../../src/layers/driver/held-read.js"
import { readHeld } from "../../src/layers/driver/main-modals.js"
import { fakeDialog } from "../support/fake-dialog.js"

const fakeElectron = () =>
  ({
    dialog: fakeDialog(),
    BrowserWindow: { getAllWindows: () => [] }
  }) as unknown as ElectronModule

/** A main-process source compiled from its text, as playwright-core's evaluate and the inspector do. */
const compiled = (source: string) => new Function(`return (${source})`)() as (electron: ElectronModule, arg?: unknown) => unknown
const g = globalThis as { __stagewrightModals?: unknown; __stagewrightReadHeld?: unknown }

afterEach(() => {
  g.__stagewrightModals = undefined
  g.__stagewrightReadHeld = undefined
})

describe("the main-process read, installed once", () => {
  it("installs the held dialogs and the read; the short call reads what readHeld reads", async () => {
    const electron = fakeElectron()
    compiled(installHeldSource())(electron, 60_000)
    expect(typeof g.__stagewrightReadHeld).toBe("function")
    // The dialogs are held (the install ran): a message box waits in the main process.
    void (electron.dialog.showMessageBox as (o: object) => Promise<unknown>)({ message: "Saved?", buttons: ["Yes", "No"] })
    const after = { marks: { dialogs: 0, invokes: 0, windows: 0 }, ms: 1_000 }
    const installed = (await compiled(READ_INSTALLED)(electron, after)) as ReturnType<typeof readHeld>
    expect(installed).toMatchObject({ held: [{ message: "Saved?", buttons: ["Yes", "No"] }], popup: null })
    // Reading again gives what readHeld itself gives (the told answers were taken by the first read).
    expect(await compiled(READ_INSTALLED)(electron, after)).toEqual(await readHeld(electron, after))
  })

  it("answers null where the read is not installed, so the driver sends readHeld whole", () => {
    expect(compiled(READ_INSTALLED)(fakeElectron(), undefined)).toBeNull()
    g.__stagewrightReadHeld = "not a function"
    expect(compiled(READ_INSTALLED)(fakeElectron(), undefined)).toBeNull()
  })
})
