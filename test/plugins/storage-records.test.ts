/**
 * IndexedDB records and the origin snapshot over MCP on the `framework` app, whose profile saves are logged in
 * IndexedDB ("framework" / "saves", autoIncrement keys) and counted by the app itself (<body data-saves>):
 * keys, get, put (the app's own count then includes the record), delete, clear; a database or store that does
 * not exist is refused and never created; one snapshot of the origin, cookie values hidden unless asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { sampleAppPath } from "../../src/samples.js"
import { freshUserData, inMemoryClient, type TestClient } from "../support/mcp.js"

let mcp: TestClient

type Called = Awaited<ReturnType<TestClient["call"]>>
const ok = (result: Called) => {
  expect(result.isError, result.text).toBe(false)
  return result
}

const save = async (name: string, saves: number) => {
  ok(await mcp.call("electron_fill", { target: "testid=name-input", value: name }))
  ok(await mcp.call("electron_click", { target: "testid=save-button" }))
  ok(await mcp.call("electron_wait_for", { target: `css=body[data-saves="${saves}"]` }))
}

beforeAll(async () => {
  mcp = await inMemoryClient({ plugins: ["storage"] })
  ok(await mcp.call("electron_launch", { app: sampleAppPath("framework"), env: { SAMPLE_APP_USER_DATA: freshUserData() } }))
  ok(await mcp.call("electron_wait_for", { target: 'css=body[data-ready="true"]' }))
  ok(await mcp.call("electron_fill", { target: "testid=age-input", value: "36" }))
  ok(await mcp.call("electron_select_option", { target: "testid=role-select", values: ["developer"] }))
  ok(await mcp.call("electron_check", { target: "testid=terms-checkbox" }))
  await save("Ada", 1)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

const db = { database: "framework", store: "saves" }

describe("IndexedDB records", () => {
  it("keys and get read the app's records; set puts one the app then counts; delete and clear remove them", async () => {
    const keys = ok(await mcp.call("electron_storage_indexeddb", { action: "keys", ...db }))
    expect(keys.text).toBe("framework/saves of file:// (w1): 1 key:\n  1")
    const one = ok(await mcp.call("electron_storage_indexeddb", { action: "get", ...db, key: 1 }))
    expect(one.text).toMatch(/^framework\/saves of file:\/\/ \(w1\): record 1 =\n {2}\{"name":"Ada","at":"\d{4}-.*"\}$/)
    expect(one.structured.found).toBe(true)

    const put = ok(
      await mcp.call("electron_storage_indexeddb", { action: "set", ...db, key: 100, value: { name: "Injected", at: "2026-01-01T00:00:00.000Z" } })
    )
    expect(put.text).toBe("Put record 100 in framework/saves of file:// (w1); 2 records (was 1).")
    // The app's next save counts the records in the store: ours is among them.
    await save("Grace", 3)
    const first = ok(await mcp.call("electron_storage_indexeddb", { action: "get", ...db, limit: 2 }))
    expect(first.text.split("\n")[0]).toBe("framework/saves of file:// (w1): 3 records, first 2:")
    expect(first.structured.records.map((r: any) => r.key)).toEqual(["1", "100"])
    expect(first.structured.records[1].value).toBe('{"name":"Injected","at":"2026-01-01T00:00:00.000Z"}')
    const generated = ok(await mcp.call("electron_storage_indexeddb", { action: "set", ...db, value: { name: "Auto" } }))
    expect(generated.text).toBe("Put record 102 in framework/saves of file:// (w1); 4 records (was 3).")

    const deleted = ok(await mcp.call("electron_storage_indexeddb", { action: "delete", ...db, key: 100 }))
    expect(deleted.text).toBe("Deleted record 100 in framework/saves of file:// (w1); 3 records.")
    const again = ok(await mcp.call("electron_storage_indexeddb", { action: "delete", ...db, key: 100 }))
    expect(again.text).toBe("No record 100 (nothing deleted) in framework/saves of file:// (w1); 3 records.")
    const gone = ok(await mcp.call("electron_storage_indexeddb", { action: "get", ...db, key: 100 }))
    expect(gone.text).toBe("framework/saves of file:// (w1) has no record with key 100.")
    const cleared = ok(await mcp.call("electron_storage_indexeddb", { action: "clear", ...db }))
    expect(cleared.text).toBe("Cleared framework/saves of file:// (w1): 3 → 0 records.")
    await save("Linus", 1)
  })

  it("refuses a database or store that does not exist (creating none), a bad key and missing arguments", async () => {
    const noDb = await mcp.call("electron_storage_indexeddb", { action: "set", database: "other", store: "x", key: 1, value: 1 })
    expect(noDb.code).toBe("INVALID_ARGUMENT")
    expect(noDb.text).toContain("Databases: framework.")
    const noStore = await mcp.call("electron_storage_indexeddb", { action: "keys", database: "framework", store: "nope" })
    expect(noStore.code).toBe("INVALID_ARGUMENT")
    expect(noStore.text).toContain("Stores: saves.")
    const listed = ok(await mcp.call("electron_storage_indexeddb"))
    expect(listed.text).toBe("IndexedDB of file:// (w1):\nframework v1: 1 object store\n  saves: 1 record")
    const badKey = await mcp.call("electron_storage_indexeddb", { action: "get", ...db, key: { not: "a key" } })
    expect(badKey.code).toBe("OPERATION_FAILED")
    expect(badKey.text).toContain("DataError")
    const noValue = await mcp.call("electron_storage_indexeddb", { action: "set", ...db })
    expect(noValue.code).toBe("INVALID_ARGUMENT")
    const noStoreArg = await mcp.call("electron_storage_indexeddb", { action: "clear", database: "framework" })
    expect(noStoreArg.code).toBe("INVALID_ARGUMENT")
  })
})

describe("electron_storage_snapshot", () => {
  it("gives web storage, IndexedDB and cookies of the origin in one call, cookie values hidden unless asked", async () => {
    ok(await mcp.call("electron_storage_cookies", { action: "set", url: "http://127.0.0.1:4321/", name: "sid", value: "s3cret-token" }))
    const snap = ok(await mcp.call("electron_storage_snapshot"))
    expect(snap.text).toBe(
      [
        "Storage of file:// (w1):",
        "localStorage: 1 key, 26 chars",
        '  framework.lastProfile = "Linus"',
        "sessionStorage: 1 key, 18 chars",
        '  framework.view = "main"',
        "IndexedDB: 1 database",
        "  framework v1: 1 object store",
        "    saves: 1 record",
        "Cookies (all of w1's session): 1, values hidden (showCookieValues=true shows them)",
        "  sid=(hidden, 12 chars) (domain 127.0.0.1, path /, session)"
      ].join("\n")
    )
    expect(JSON.stringify(snap.structured)).not.toContain("s3cret")
    expect(snap.structured.cookieCount).toBe(1)
    const shown = ok(await mcp.call("electron_storage_snapshot", { origin: "file://", showCookieValues: true }))
    expect(shown.text).toContain('  sid="s3cret-token" (domain 127.0.0.1, path /, session)')
    expect(shown.structured.cookies[0].value).toBe("s3cret-token")
  })
})
