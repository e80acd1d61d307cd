/**
 * The pure parts of electron_press_key's sequences (key names checked against Playwright's US layout,
 * chords split as Playwright splits them) and of electron_wait_for_event's argument bounds.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { safeValue } from "../../src/tools/observe/event-values.js"
import { isKeyName, MAX_PRESSES, parseKeys } from "../../src/tools/interact/keys.js"

const parse = (key: string) => Effect.runSync(Effect.either(parseKeys(key)))

describe("key sequences", () => {
  it("splits presses on spaces and accepts Playwright's names, characters and chords", () => {
    expect(parse("Control+K Control+S")).toEqual(Either.right(["Control+K", "Control+S"]))
    expect(parse("  Shift++ a F12 KeyQ Digit0 Numpad7 ControlOrMeta+ArrowDown ")).toEqual(
      Either.right(["Shift++", "a", "F12", "KeyQ", "Digit0", "Numpad7", "ControlOrMeta+ArrowDown"])
    )
    expect(parse(" ")).toEqual(Either.right([" "]))
    for (const name of ["Enter", "Escape", "Tab", "Backspace", "PageDown", "MediaPlayPause", "~", "+"]) expect(isKeyName(name), name).toBe(true)
    for (const name of ["F13", "é", "enter", "Ctrl", "KeyAA", ""]) expect(isKeyName(name), name).toBe(false)
  })

  it("names the unknown key and the one it may stand for", () => {
    const cases: Array<[string, string, string | undefined]> = [
      ["Contrl+S", "Contrl", "Control"],
      ["ctrl+s", "ctrl", "Control"],
      ["CmdOrCtrl+Z", "CmdOrCtrl", "ControlOrMeta"],
      ["esc", "esc", "Escape"],
      ["f5", "f5", "F5"],
      ["keya", "keya", "KeyA"],
      ["arrowdown", "arrowdown", "ArrowDown"],
      ["Banana", "Banana", undefined]
    ]
    for (const [key, unknown, meant] of cases) {
      const result = parse(key)
      expect(Either.isLeft(result), key).toBe(true)
      const error = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : undefined))!
      expect(error.message).toContain(`unknown key ${JSON.stringify(unknown)}`)
      if (meant === undefined) expect(error.hint).not.toContain("Did you mean")
      else expect(error.hint).toContain(`Did you mean "${meant}"?`)
    }
    expect(Either.isLeft(parse(Array.from({ length: MAX_PRESSES + 1 }, () => "a").join(" ")))).toBe(true)
  })
})

describe("event arguments", () => {
  it("are plain data, bounded in depth, keys, items and length, with cycles and Electron objects named", () => {
    const cyclic: Record<string, unknown> = { name: "loop" }
    cyclic["self"] = cyclic
    const win = { id: 3, getTitle: () => "Main", webContents: {} }
    const value = safeValue(
      [
        cyclic,
        win,
        new Error("boom"),
        "x".repeat(2_000),
        Array.from({ length: 30 }, (_, i) => i),
        () => 1,
        { a: { b: { c: { d: { e: 1 } } } } },
        Infinity,
        undefined
      ],
      4_000
    ) as Array<unknown>
    expect(value[0]).toEqual({ name: "loop", self: "[Circular]" })
    expect(value[1]).toEqual({ BrowserWindow: 3, title: "Main" })
    expect(value[2]).toEqual({ name: "Error", message: "boom" })
    expect((value[3] as string).length).toBe(500)
    expect(value[4]).toHaveLength(21)
    expect((value[4] as Array<unknown>)[20]).toBe("… 10 more")
    expect(value[5]).toBe("[Function]")
    // Depth 4 from the top: the list, the object, a, b; c is cut.
    expect(value[6]).toEqual({ a: { b: { c: "[Object]" } } })
    expect(value[7]).toBe("Infinity")
    expect(value[8]).toBeNull()
    const big = JSON.stringify(
      safeValue(
        Array.from({ length: 20 }, () => ({ text: "y".repeat(400) })),
        4_000
      )
    )
    expect(big.length).toBeLessThan(6_000)
    expect(big).toContain("…")
  })
})
