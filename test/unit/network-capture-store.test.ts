/**
 * The network capture's store without an app: header and body-field redaction, and where a body goes
 * (inline, a file, cut at the file bound).
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FILE_MAX, INLINE_MAX, keepBody, redactFields, redactHeaders, type BodyFolder } from "../../src/plugins/network/capture-store.js"

const folder = (): BodyFolder => ({ path: join(mkdtempSync(join(tmpdir(), "stagewright-capture-")), "bodies"), written: 0, pending: new Set() })
const settled = (f: BodyFolder) => Promise.all([...f.pending])

describe("network capture store", () => {
  it("redacts the named headers whatever their case, and lower-cases every name", () => {
    expect(redactHeaders({ Authorization: "Basic YTpi", "X-Api-Key": "k", Accept: "*/*" }, new Set(["authorization", "x-api-key"]))).toEqual({
      authorization: "<redacted>",
      "x-api-key": "<redacted>",
      accept: "*/*"
    })
  })

  it("redacts password-like fields of JSON (at any depth) and form bodies, and leaves other bodies as they are", () => {
    expect(JSON.parse(redactFields(JSON.stringify({ user: "a", password: "p", nested: [{ access_token: "t", keep: 1 }] }), "application/json"))).toEqual({
      user: "a",
      password: "<redacted>",
      nested: [{ access_token: "<redacted>", keep: 1 }]
    })
    expect(redactFields("user=a&pwd=secret&x=1", "application/x-www-form-urlencoded")).toBe("user=a&pwd=%3Credacted%3E&x=1")
    const untouched = '{ "user": "a",  "remember": true }'
    expect(redactFields(untouched, "application/json")).toBe(untouched)
    expect(redactFields('{"password": broken', "application/json")).toBe('{"password": broken')
    expect(redactFields("password=x", "text/plain")).toBe("password=x")
  })

  it("keeps short text inline, writes larger and binary bodies to files, and cuts at the file bound", async () => {
    const f = folder()
    expect(keepBody(f, 1, "response", Buffer.from('{"ok":true}'), "application/json; charset=utf-8")).toEqual({ size: 11, mimeType: "application/json", text: '{"ok":true}' })
    expect(keepBody(f, 2, "request", Buffer.alloc(0), "")).toEqual({ size: 0, mimeType: "application/octet-stream" })

    const large = Buffer.from("x".repeat(INLINE_MAX + 1))
    const written = keepBody(f, 3, "response", large, "text/plain")
    expect(written.text).toBeUndefined()
    expect(written.file).toBe(join(f.path, "3-response.txt"))

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])
    const binary = keepBody(f, 4, "response", png, "image/png")
    expect(binary).toMatchObject({ size: 7, mimeType: "image/png", file: join(f.path, "4-response.bin") })

    const huge = keepBody(f, 5, "response", Buffer.alloc(FILE_MAX + 10, 0x61), "text/html")
    expect(huge).toMatchObject({ size: FILE_MAX + 10, truncated: true, file: join(f.path, "5-response.txt") })

    await settled(f)
    expect(readFileSync(written.file!).equals(large)).toBe(true)
    expect(readFileSync(binary.file!).equals(png)).toBe(true)
    expect(readFileSync(huge.file!).length).toBe(FILE_MAX)
    expect(existsSync(join(f.path, "1-response.json"))).toBe(false)
  })
})
