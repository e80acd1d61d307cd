/**
 * Issue 35 item 2: native dialogs held in the main process (src/layers/driver/main-modals.ts), run here on a
 * fake `electron.dialog`. An async call waits until the agent answers it; a Sync call answers at once by
 * policy (a message box's cancelId, an open/save dialog canceled) and says so; a held call whose hold ends
 * answers with its default (a message box's defaultId, canceled) and says so.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { ElectronModule } from "../../src/layers/driver/ElectronDriver.js"
import { installHeldDialogs, readHeld, settleHeld } from "../../src/layers/driver/main-modals.js"
import { fakeDialog } from "../support/fake-dialog.js"

const HOLD = 5_000
let electron: ElectronModule

beforeEach(() => {
  ;(globalThis as { __stagewrightModals?: unknown }).__stagewrightModals = undefined
  electron = {
    dialog: fakeDialog(),
    clipboard: {
      text: "",
      writeText(this: { text: string }, text: string) {
        this.text = text
      },
      write(this: { text: string }, data: { text?: string }) {
        this.text = data.text ?? ""
      },
      readText(this: { text: string }) {
        return this.text
      }
    }
  } as unknown as ElectronModule
  installHeldDialogs(electron, HOLD)
})

afterEach(() => {
  vi.useRealTimers()
  ;(globalThis as { __stagewrightModals?: unknown }).__stagewrightModals = undefined
})

const box = { title: "About", message: "Tasks 1.4.0", buttons: ["OK", "Copy version", "Cancel"], defaultId: 1, cancelId: 2, checkboxLabel: "Tips" }

describe("what the app copies", () => {
  type Board = { writeText: (t: string) => void; write: (d: { text?: string; html?: string }) => void; readText: () => string }
  it("is told once (bounded), whether written as text or as data; the write itself still happens", () => {
    const board = electron.clipboard as unknown as Board
    board.writeText("Water the plants")
    board.write({ html: "<b>x</b>" })
    board.write({ text: "x".repeat(500) })
    expect(board.readText()).toBe("x".repeat(500))
    const told = readHeld(electron).told
    expect(told[0]).toBe('clipboard: the app copied "Water the plants"')
    expect(told[1]).toBe(`clipboard: the app copied ${JSON.stringify("x".repeat(199))}… (500 characters)`)
    expect(told).toHaveLength(2)
    expect(readHeld(electron).told).toEqual([])
  })

  it("is not told while Stagewright writes it (electron_clipboard's own write)", () => {
    const g = globalThis as { __stagewrightOwnCopy?: boolean }
    g.__stagewrightOwnCopy = true
    ;(electron.clipboard as unknown as Board).writeText("set by the agent")
    g.__stagewrightOwnCopy = false
    expect((electron.clipboard as unknown as Board).readText()).toBe("set by the agent")
    expect(readHeld(electron).told).toEqual([])
  })
})

describe("native dialogs held in the main process", () => {
  it("an async message box waits until it is answered, with the agent's button and checkbox", async () => {
    const answered = (electron.dialog.showMessageBox as (o: object) => Promise<unknown>)(box)
    const read = readHeld(electron)
    expect(read.held).toHaveLength(1)
    expect(read.held[0]).toMatchObject({
      method: "showMessageBox",
      kind: "message",
      title: "About",
      buttons: ["OK", "Copy version", "Cancel"],
      defaultId: 1,
      cancelId: 2,
      checkboxLabel: "Tips"
    })
    expect(settleHeld(electron, { id: read.held[0]!.id, answer: { response: 0, checkboxChecked: true } })).toBe(true)
    await expect(answered).resolves.toEqual({ response: 0, checkboxChecked: true })
    expect(readHeld(electron).held).toHaveLength(0)
    expect(settleHeld(electron, { id: read.held[0]!.id, answer: { response: 0 } })).toBe(false)
  })

  it("a Sync call cannot wait: it answers at once by policy, and the next read says so once", () => {
    expect((electron.dialog.showMessageBoxSync as (o: object) => number)(box)).toBe(2)
    expect((electron.dialog.showOpenDialogSync as (o: object) => unknown)({ title: "Pick" })).toBeUndefined()
    expect((electron.dialog.showSaveDialogSync as (o: object) => unknown)({ title: "Save" })).toBe("")
    const told = readHeld(electron).told
    expect(told).toEqual([
      'native dialog: showMessageBoxSync "About" answered at once by policy (response 2): a Sync dialog cannot wait for the agent',
      'native dialog: showOpenDialogSync "Pick" answered at once by policy (canceled): a Sync dialog cannot wait for the agent',
      'native dialog: showSaveDialogSync "Save" answered at once by policy (canceled): a Sync dialog cannot wait for the agent'
    ])
    expect(readHeld(electron).told).toEqual([])
    expect(readHeld(electron).held).toEqual([])
  })

  it("a hold that ends answers with the dialog's default and says so", async () => {
    vi.useFakeTimers()
    const message = (electron.dialog.showMessageBox as (o: object) => Promise<unknown>)(box)
    const open = (electron.dialog.showOpenDialog as (o: object) => Promise<unknown>)({ title: "Import" })
    vi.advanceTimersByTime(HOLD)
    await expect(message).resolves.toEqual({ response: 1, checkboxChecked: false })
    await expect(open).resolves.toEqual({ canceled: true, filePaths: [] })
    expect(readHeld(electron)).toMatchObject({
      held: [],
      told: [
        'native dialog: showMessageBox "About" waited 5 s for an answer and answered with its default (response 1)',
        'native dialog: showOpenDialog "Import" waited 5 s for an answer and answered with its default (canceled)'
      ]
    })
  })

  it("a window given first is told apart from options, and its webContents named", async () => {
    const win = { webContents: { id: 7 } }
    const saved = (electron.dialog.showSaveDialog as (w: object, o: object) => Promise<unknown>)(win, { title: "Save as", defaultPath: "/tmp/a.json" })
    const held = readHeld(electron).held[0]!
    expect(held).toMatchObject({ kind: "save", title: "Save as", defaultPath: "/tmp/a.json", webContentsId: 7 })
    settleHeld(electron, { id: held.id, answer: { filePath: "/tmp/b.json" } })
    await expect(saved).resolves.toEqual({ canceled: false, filePath: "/tmp/b.json" })
  })
})
