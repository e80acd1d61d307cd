/**
 * The network capture's store without an app: header and body-field redaction, and where a body goes
 * (inline, a file, cut at the file bound).
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FILE_MAX, INLINE_MAX, keepBody, redactHeaders, redactUrl, type BodyFolder } from "../../src/plugins/network/capture-store.js"
import { isSecretName, redactText } from "../../src/plugins/network/redact.js"

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
    expect(JSON.parse(redactText(JSON.stringify({ user: "a", password: "p", nested: [{ access_token: "t", keep: 1 }] }), "application/json"))).toEqual({
      user: "a",
      password: "<redacted>",
      nested: [{ access_token: "<redacted>", keep: 1 }]
    })
    expect(redactText("user=a&pwd=secret&x=1", "application/x-www-form-urlencoded")).toBe("user=a&pwd=%3Credacted%3E&x=1")
    const untouched = '{ "user": "a",  "remember": true }'
    expect(redactText(untouched, "application/json")).toBe(untouched)
    // A body that does not parse is scrubbed of secret pairs; a form is a form whatever its content type.
    expect(redactText('{"password": broken', "application/json")).toBe('{"password": "<redacted>"')
    expect(redactText("password=x", "text/plain")).toBe("password=%3Credacted%3E")
  })

  it("redacts by rule: normalised names at any depth and in arrays, any content type, multipart parts, query strings and headers", async () => {
    for (const name of [
      "accessToken",
      "refreshToken",
      "clientSecret",
      "newPassword",
      "user_password",
      "X-Api-Key",
      "X-Auth-Token",
      "sessionId",
      "api-key",
      "private_key",
      "Set-Cookie",
      "csrfToken"
    ]) {
      expect(isSecretName(name), name).toBe(true)
    }
    for (const name of ["author", "username", "title", "passenger", "content-type", "keyboard", "monkey"]) expect(isSecretName(name), name).toBe(false)
    const json = JSON.stringify({
      user: "u",
      accessToken: "AT1",
      items: [{ password: "PW1" }, ["x", { clientSecret: "CS1" }]],
      meta: { newPassword: { nested: "PW2" } }
    })
    for (const type of ["application/json", "text/plain", "application/octet-stream", ""]) {
      const out = redactText(json, type)
      for (const secret of ["AT1", "PW1", "CS1", "PW2"]) expect(out, `${type} ${secret}`).not.toContain(secret)
      expect(JSON.parse(out).user).toBe("u")
    }
    const multipart = [
      "--XyZ",
      'Content-Disposition: form-data; name="user"',
      "",
      "u",
      "--XyZ",
      'Content-Disposition: form-data; name="user_password"',
      "",
      "PW3",
      "--XyZ",
      'Content-Disposition: form-data; name="meta"; filename="m.json"',
      "Content-Type: application/json",
      "",
      '{"apiKey":"AK1"}',
      "--XyZ--",
      ""
    ].join("\r\n")
    const parts = redactText(multipart, "multipart/form-data; boundary=XyZ")
    expect(parts).not.toContain("PW3")
    expect(parts).not.toContain("AK1")
    expect(parts).toContain("\r\nu\r\n")
    expect(redactUrl("https://u:pw@api.example.com/cb?code=1&access_token=AT2&state=s#id_token=IT1")).toBe(
      "https://u:<redacted>@api.example.com/cb?code=1&access_token=%3Credacted%3E&state=s#id_token=%3Credacted%3E"
    )
    expect(redactHeaders({ "X-Api-Key": "k", "X-Auth-Token": "t", "X-Custom": "c", Accept: "*/*" }, new Set(["x-custom"]))).toEqual({
      "x-api-key": "<redacted>",
      "x-auth-token": "<redacted>",
      "x-custom": "<redacted>",
      accept: "*/*"
    })
    // Too deep to walk: replaced whole (fails closed), never a stack overflow.
    const deep = `${"[".repeat(100_000)}{"password":"PW4"}${"]".repeat(100_000)}`
    expect(redactText(deep, "application/json")).not.toContain("PW4")
    // A body file is written redacted.
    const f = folder()
    const big = keepBody(f, 9, "request", Buffer.from(JSON.stringify({ token: "TK1", pad: "x".repeat(INLINE_MAX) })), "text/plain")
    await settled(f)
    expect(readFileSync(big.file!, "utf8")).not.toContain("TK1")
  })

  it("keeps short text inline, writes larger and binary bodies to files, and cuts at the file bound", async () => {
    const f = folder()
    expect(keepBody(f, 1, "response", Buffer.from('{"ok":true}'), "application/json; charset=utf-8")).toEqual({
      size: 11,
      mimeType: "application/json",
      text: '{"ok":true}'
    })
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
