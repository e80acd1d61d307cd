/**
 * Issue 35: the modal room (src/layers/driver/modal-room.ts) and its rows (src/tools/modal/modal-rows.ts). One list
 * of every open state with a ref per control, refs stable while a state is open and never reused, resolved
 * in one place; a beforeunload's Leave/Stay, a prompt's text box with its default, a message box's buttons
 * and checkbox, a popped-up menu's items; nothing shown while nothing is open.
 */
import { describe, expect, it } from "vitest"
import { ModalRoom, type NativeRead } from "../../src/layers/driver/modal-room.js"
import type { PendingDialog, Surface } from "../../src/layers/driver/ElectronDriver.js"
import { modalRowsText, stateRows } from "../../src/tools/modal/modal-rows.js"

const w1 = { id: "w1", closed: false, facts: { webContentsId: 3 } } as unknown as Surface
const dialog = (type: string, message: string, defaultValue = ""): PendingDialog => ({ window: "w1", type, message, defaultValue, dialog: {} as never })

describe("the modal room", () => {
  it("lists nothing, and shows nothing, while nothing is open", () => {
    const room = new ModalRoom()
    expect(room.list([w1])).toEqual([])
    expect(modalRowsText(room.list([w1]))).toBe("")
  })

  it("a beforeunload has Leave and Stay; a prompt a text box holding its default; refs are stable and resolve", () => {
    const room = new ModalRoom()
    room.dialogOpened(dialog("beforeunload", "Leave site?"))
    room.dialogOpened(dialog("prompt", "New board name", "My board"))
    const [leave, prompt] = room.list([w1])
    expect(stateRows(leave!)).toEqual([
      '- dialog "leave page?: Leave site?" [modal] (in w1; its page is blocked):',
      '  - button "Leave" [ref=d1]',
      '  - button "Stay" [ref=d2]'
    ])
    expect(stateRows(prompt!)).toEqual([
      '- dialog "prompt: New board name" [modal] (in w1; its page is blocked):',
      '  - textbox "answer" [ref=d3]: "My board"',
      '  - button "OK" [ref=d4]',
      '  - button "Cancel" [ref=d5]'
    ])
    expect(room.list([w1])[1]).toBe(prompt)
    expect(room.control("d4")).toMatchObject({ state: prompt, control: { name: "OK", does: { kind: "accept" } } })
    room.settled(leave!)
    expect(room.list([w1])).toEqual([prompt])
    expect(room.control("d1")).toBeUndefined()
  })

  it("native dialogs and a popped-up menu come after web dialogs; a closed window's dialog is gone", () => {
    const room = new ModalRoom()
    room.dialogOpened(dialog("alert", "Saved"))
    const read: NativeRead = {
      held: [
        {
          id: 1,
          method: "showMessageBox",
          kind: "message",
          title: "About",
          message: "Tasks",
          detail: "A board",
          buttons: ["OK", "Cancel"],
          checkboxLabel: "Tips",
          webContentsId: 3,
          deadline: Date.now() + 60_000
        }
      ],
      popup: {
        at: 5,
        webContentsId: 3,
        items: [
          { label: "Mark as done", type: "normal", enabled: true, depth: 0, positions: [0], submenu: false },
          { label: "", type: "separator", enabled: true, depth: 0, positions: [1], submenu: false },
          { label: "Copy", type: "normal", enabled: false, depth: 0, positions: [2], submenu: false }
        ]
      },
      told: ["native dialog: showMessageBoxSync answered at once by policy"]
    }
    room.nativeRead(read)
    const states = room.list([w1])
    expect(states.map((s) => s.kind)).toEqual(["alert", "message", "menu"])
    const text = modalRowsText(states, room.takeTold())
    expect(text).toContain("(native dialog: showMessageBoxSync answered at once by policy)")
    expect(text).toMatch(
      /- dialog "message box: About: Tasks" \[modal\] \(in w1; held: answers its default in \d+ s\):\n {2}- text: "A board"\n {2}- button "OK" \[ref=d2\]\n {2}- button "Cancel" \[ref=d3\]\n {2}- checkbox "Tips" \[ref=d4\]: unchecked/
    )
    expect(text).toContain(
      '- menu "context menu: context menu" [modal] (in w1):\n  - menuitem "Mark as done" [ref=d5]\n  - menuitem "Copy" [disabled] [ref=d6]'
    )
    expect(room.takeTold()).toEqual([])
    expect(room.list([{ ...w1, closed: true } as Surface]).map((s) => s.kind)).toEqual(["message", "menu"])
  })
})
