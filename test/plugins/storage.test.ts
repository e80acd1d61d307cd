/**
 * The storage plugin end to end over the in-memory MCP pair: on `tasks` (its filter in localStorage, its
 * board in <userData>/tasks.json, cookies of its session) and on `framework` (sessionStorage, localStorage
 * and an IndexedDB log of profile saves); bad input on each tool; a reset that says what it cleared and a
 * relaunch that starts fresh.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient
let userData: string

type Called = Awaited<ReturnType<TestClient["call"]>>

const ok = (result: Called) => {
  expect(result.isError, result.text).toBe(false)
  return result
}

const launch = async (app: "tasks" | "framework", data: string) => {
  ok(await mcp.call("electron_launch", { app: sampleAppPath(app), env: { SAMPLE_APP_USER_DATA: data } }))
  ok(await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' }))
}

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["storage"] })
  userData = freshUserData()
  await launch("tasks", userData)
})

afterAll(async () => {
  await mcp?.close()
})

describe("storage plugin on tasks", () => {
  it("electron_storage_local reads the app's own localStorage, sets, removes and clears keys", async () => {
    const empty = ok(await mcp.call("electron_storage_local"))
    expect(empty.text).toBe("localStorage of file:// (w1): 0 keys, 0 chars\nsessionStorage of file:// (w1): 0 keys, 0 chars")
    ok(await mcp.call("electron_select_option", { target: "testid=filter-select", values: ["open"] }))
    const filtered = ok(await mcp.call("electron_storage_local", { area: "local" }))
    expect(filtered.text).toContain('tasks.filter = "open"')
    const set = ok(await mcp.call("electron_storage_local", { action: "set", key: "probe", value: "42", origin: "file://" }))
    expect(set.text).toMatch(/^Set localStorage\["probe"\]\. localStorage of file:\/\/ \(w1\): 2 keys/)
    const session = ok(await mcp.call("electron_storage_local", { action: "set", area: "session", key: "s", value: "1" }))
    expect(session.text).toContain('sessionStorage of file:// (w1): 1 key, 2 chars\n  s = "1"')
    const removed = ok(await mcp.call("electron_storage_local", { action: "remove", key: "probe" }))
    expect(removed.text).toMatch(/^Removed localStorage\["probe"\]\. localStorage of file:\/\/ \(w1\): 1 key/)
    const absent = ok(await mcp.call("electron_storage_local", { action: "remove", key: "probe" }))
    expect(absent.text).toContain('localStorage had no key "probe" (nothing removed)')
    const cleared = ok(await mcp.call("electron_storage_local", { action: "clear", area: "session" }))
    expect(cleared.text).toBe("Cleared sessionStorage. sessionStorage of file:// (w1): 0 keys, 0 chars")
    const noKey = await mcp.call("electron_storage_local", { action: "set", value: "x" })
    expect(noKey.code).toBe("INVALID_ARGUMENT")
    expect(noKey.text).toContain("key: required to set")
    const elsewhere = await mcp.call("electron_storage_local", { origin: "https://nowhere.example" })
    expect(elsewhere.code).toBe("INVALID_ARGUMENT")
    expect(elsewhere.text).toContain("w1 file://")
  })

  it("electron_storage_cookies sets, lists and removes cookies of the window's session", async () => {
    const set = ok(await mcp.call("electron_storage_cookies", { action: "set", url: "http://127.0.0.1:4321/", name: "sid", value: "abc123" }))
    expect(set.text).toMatch(
      /^Set cookie sid\. 1 cookie in w1's session for http:\/\/127\.0\.0\.1:4321\/:\nsid=\(hidden, 6 chars\) \(domain 127\.0\.0\.1, path \/, session\)$/
    )
    expect(set.text).not.toContain("abc123")
    const listed = ok(await mcp.call("electron_storage_cookies", { name: "sid", showValues: true }))
    expect(listed.text).toContain('sid="abc123"')
    expect(listed.structured.cookies).toEqual([expect.objectContaining({ name: "sid", value: "abc123" })])
    const hidden = ok(await mcp.call("electron_storage_cookies", { name: "sid" }))
    expect(hidden.structured.cookies).toEqual([expect.objectContaining({ name: "sid", value: "(hidden, 6 chars)" })])
    const removed = ok(await mcp.call("electron_storage_cookies", { action: "remove", url: "http://127.0.0.1:4321/", name: "sid" }))
    expect(removed.text).toMatch(/^Removed cookie sid\. 0 cookies/)
    const noUrl = await mcp.call("electron_storage_cookies", { action: "set", name: "x" })
    expect(noUrl.code).toBe("INVALID_ARGUMENT")
    expect(noUrl.text).toContain("url: required to set a cookie")
    const badUrl = await mcp.call("electron_storage_cookies", { url: "ftp://host/" })
    expect(badUrl.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_storage_indexeddb says when an origin has no databases, and refuses a bad window id", async () => {
    const none = ok(await mcp.call("electron_storage_indexeddb"))
    expect(none.text).toBe("file:// (w1) has no IndexedDB databases.")
    const bad = await mcp.call("electron_storage_indexeddb", { window: "first" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_storage_userdata lists the board the app saved and reads it, bounded, never outside userData", async () => {
    ok(await mcp.call("electron_fill", { target: "testid=task-title-input", value: "Stored on disk" }))
    ok(await mcp.call("electron_click", { target: "testid=add-task-button" }))
    ok(await mcp.call("electron_wait_for", { target: "css=body[data-saved]" }))
    const listing = ok(await mcp.call("electron_storage_userdata"))
    expect(listing.text.split("\n")[0]).toMatch(/: \d+ entries$/)
    expect(listing.text).toMatch(/^tasks\.json {2}\d+\.\d kB {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m)
    const read = ok(await mcp.call("electron_storage_userdata", { path: "tasks.json", maxBytes: 300 }))
    expect(read.text).toMatch(/^tasks\.json \(\d+\.\d kB, modified .*\):\n\{\n {2}"version": 1,/)
    expect(read.text).toMatch(/… cut at 300 of \d+ bytes \(maxBytes\)$/)
    const whole = ok(await mcp.call("electron_storage_userdata", { path: "tasks.json", maxBytes: 65_536 }))
    expect(whole.structured.content).toContain("Stored on disk")
    const outside = await mcp.call("electron_storage_userdata", { path: "../" })
    expect(outside.code).toBe("PATH_NOT_ALLOWED")
    symlinkSync("/etc", join(userData, "escape"))
    const linked = await mcp.call("electron_storage_userdata", { path: "escape/hostname" })
    expect(linked.code).toBe("PATH_NOT_ALLOWED")
    const absolute = await mcp.call("electron_storage_userdata", { path: "/etc/hostname" })
    expect(absolute.code).toBe("PATH_NOT_ALLOWED")
    writeFileSync(join(userData, "blob.bin"), Buffer.from([1, 0, 2]))
    const binary = await mcp.call("electron_storage_userdata", { path: "blob.bin" })
    expect(binary.code).toBe("INVALID_ARGUMENT")
    const missing = await mcp.call("electron_storage_userdata", { path: "nope.json" })
    expect(missing.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_storage_reset refuses a file outside userData before clearing anything, then clears and says what, and the next launch is fresh", async () => {
    ok(await mcp.call("electron_storage_cookies", { action: "set", url: "http://127.0.0.1:4321/", name: "sid", value: "abc" }))
    const refused = await mcp.call("electron_storage_reset", { files: ["tasks.json", "../elsewhere.json"] })
    expect(refused.code).toBe("PATH_NOT_ALLOWED")
    expect(refused.text).toContain("files[1]")
    expect(ok(await mcp.call("electron_storage_cookies")).structured.cookies).toHaveLength(1)
    const badStorage = await mcp.call("electron_storage_reset", { storages: ["everything"] })
    expect(badStorage.code).toBe("INVALID_ARGUMENT")
    const reset = ok(await mcp.call("electron_storage_reset", { files: ["tasks.json", "never-there.json"] }))
    expect(reset.text).toContain("Cleared all storage types")
    expect(reset.text).toContain("Cookies: 1 → 0.")
    expect(reset.text).toContain("w1 file://: localStorage keys 1 → 0, IndexedDB databases 0 → 0.")
    expect(reset.text).toMatch(/userData files deleted: tasks\.json \(\d+ B\); not found: never-there\.json\./)
    expect(existsSync(join(userData, "tasks.json"))).toBe(false)
    expect(ok(await mcp.call("electron_storage_local", { area: "local" })).text).toContain("0 keys")
    ok(await mcp.call("electron_close"))
    await launch("tasks", userData)
    ok(await mcp.call("electron_expect_text", { target: "testid=notice", text: "Loaded 42 tasks" }))
  })
})

describe("storage plugin on framework", () => {
  it("reads the session/local storage and the IndexedDB log of profile saves, and the profile file in userData", async () => {
    ok(await mcp.call("electron_close"))
    await launch("framework", freshUserData())
    ok(await mcp.call("electron_fill", { target: "testid=name-input", value: "Ada" }))
    ok(await mcp.call("electron_fill", { target: "testid=age-input", value: "36" }))
    ok(await mcp.call("electron_select_option", { target: "testid=role-select", values: ["developer"] }))
    ok(await mcp.call("electron_check", { target: "testid=terms-checkbox" }))
    ok(await mcp.call("electron_click", { target: "testid=save-button" }))
    ok(await mcp.call("electron_wait_for", { target: 'css=body[data-saves="1"]' }))
    const web = ok(await mcp.call("electron_storage_local"))
    expect(web.text).toContain('localStorage of file:// (w1): 1 key, 24 chars\n  framework.lastProfile = "Ada"')
    expect(web.text).toContain('sessionStorage of file:// (w1): 1 key, 18 chars\n  framework.view = "main"')
    const idb = ok(await mcp.call("electron_storage_indexeddb"))
    expect(idb.text).toBe("IndexedDB of file:// (w1):\nframework v1: 1 object store\n  saves: 1 record")
    const named = ok(await mcp.call("electron_storage_indexeddb", { database: "other" }))
    expect(named.text).toBe('file:// (w1) has no IndexedDB database "other".')
    const files = ok(await mcp.call("electron_storage_userdata", { path: "profile.json" }))
    expect(files.text).toContain('"name": "Ada"')
    const reset = ok(await mcp.call("electron_storage_reset", { storages: ["indexdb"] }))
    expect(reset.text).toContain("Cleared indexdb of 1 session for every origin.")
    expect(reset.text).toContain("IndexedDB databases 1 → 0")
    expect(reset.text).toContain("localStorage keys 1 → 1")
  })
})
