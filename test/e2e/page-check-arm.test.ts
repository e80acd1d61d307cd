/**
 * Issue 42: an action's change summary takes one evaluation and one snapshot when the page changed, not a
 * check, an arm and a snapshot: the check (src/layers/driver/page-changes.ts) arms a page that is not quiet
 * in the same evaluation, for the snapshot that follows. Checked on Chromium: after a DOM change the check
 * says so and arms; the next check, with no arm between, sees the page as the check left it (quiet); a
 * check told the page was armed ahead but never snapshotted (`stale`) is never quiet and arms again. The
 * arming check also reads the password fields' values (open shadow roots too) that the snapshot after it
 * masks, so the summary needs no evaluation of its own for them.
 */
import { chromium, type Browser, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { armPageChanges, checkPageChanges } from "../../src/layers/driver/page-changes.js"

let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/lib/chromium/chromium", args: ["--no-sandbox"] })
  page = await browser.newPage()
  await page.setContent(`<input id="name" aria-label="Name"><p id="out">idle</p>`)
})

afterAll(async () => {
  await browser?.close()
})

describe("the change check arms a page that changed", () => {
  it("a DOM change: not quiet, armed by the check; the next check is quiet with no arm between", async () => {
    await armPageChanges(page)
    expect(await checkPageChanges(page)).toEqual({ quiet: true, fields: [], focus: undefined })
    await page.evaluate(() => (document.getElementById("out")!.textContent = "clicked"))
    expect(await checkPageChanges(page)).toEqual({ quiet: false, armed: true, passwords: [] })
    expect(await checkPageChanges(page)).toEqual({ quiet: true, fields: [], focus: undefined })
  })

  it("armed ahead but never snapshotted: never quiet, armed again", async () => {
    expect(await checkPageChanges(page, true)).toEqual({ quiet: false, armed: true, passwords: [] })
    await page.fill("#name", "Ada")
    const next = await checkPageChanges(page)
    expect(next).toMatchObject({ quiet: true, fields: [{ label: "Name", value: "Ada", checkable: false }] })
  })

  it("the arming check reads the non-empty password fields' values, in shadow roots too, for the snapshot's mask", async () => {
    await page.evaluate(() => {
      const host = document.createElement("div")
      document.body.append(host)
      host.attachShadow({ mode: "open" }).innerHTML = `<input type="password" id="inner">`
      const outer = Object.assign(document.createElement("input"), { type: "password", id: "outer" })
      const empty = Object.assign(document.createElement("input"), { type: "password", id: "empty" })
      document.body.append(outer, empty)
      outer.value = "s3cret outer"
      ;(host.shadowRoot!.getElementById("inner") as HTMLInputElement).value = "s3cret inner"
    })
    const checked = await checkPageChanges(page)
    expect(checked).toMatchObject({ quiet: false, armed: true })
    expect([...((checked as { passwords?: ReadonlyArray<string> }).passwords ?? [])].sort()).toEqual(["s3cret inner", "s3cret outer"])
  })
})
