import { describe, expect, it } from "@effect/vitest"
import { refCodeFromSnapshot, selectorCode } from "../../src/tools/contract/step-code.js"

describe("step code without a round trip", () => {
  it("writes a selector target as its own code, shorthands as their getBy* call", () => {
    expect(selectorCode("[data-testid=notice]")).toBe('locator("[data-testid=notice]")')
    expect(selectorCode('role=button[name="Add task"]')).toBe('locator("role=button[name=\\"Add task\\"]")')
    expect(selectorCode("testid=add-task-button")).toBe('getByTestId("add-task-button")')
    expect(selectorCode("label=Title")).toBe('getByLabel("Title")')
    expect(selectorCode('label="Title"')).toBe('getByLabel("Title", { exact: true })')
    expect(selectorCode("placeholder=Search")).toBe('getByPlaceholder("Search")')
    expect(selectorCode("testid=row >> nth=2")).toBe('locator("internal:testid=[data-testid=\\"row\\"s] >> nth=2")')
  })

  const snapshot = [
    '- heading "Task Board" [level=1] [ref=e2]',
    '- button "Add task" [ref=e5] [cursor=pointer]',
    '- button "Delete" [ref=e7]',
    '- button "Delete" [ref=e8]',
    "- button [ref=e9]",
    "- 'button \"Say \\\"it''s\\\"\" [ref=e10]'",
    '- textbox "Title" [ref=e11]: draft',
    '- button "Add task list" [ref=e12]'
  ].join("\n")

  it("writes a ref whose role and name are unique in the snapshot as getByRole", () => {
    expect(refCodeFromSnapshot(snapshot, "e5")).toBe('getByRole("button", { name: "Add task", exact: true })')
    expect(refCodeFromSnapshot(snapshot, "e2")).toBe('getByRole("heading", { name: "Task Board", exact: true })')
    expect(refCodeFromSnapshot(snapshot, "e11")).toBe('getByRole("textbox", { name: "Title", exact: true })')
    expect(refCodeFromSnapshot(snapshot, "e10")).toBe('getByRole("button", { name: "Say \\"it\'s\\"", exact: true })')
  })

  it("leaves repeated, unnamed and frame refs to normalize()", () => {
    expect(refCodeFromSnapshot(snapshot, "e7")).toBeUndefined()
    expect(refCodeFromSnapshot(snapshot, "e9")).toBeUndefined()
    expect(refCodeFromSnapshot(snapshot, "f1e3")).toBeUndefined()
    expect(refCodeFromSnapshot(snapshot, "e99")).toBeUndefined()
  })
})
