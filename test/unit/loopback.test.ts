/**
 * The one loopback rule (src/layers/config/loopback.ts) the HTTP bind address, an attached app's inspector host and the
 * main lane's address go through: a name that only starts like a loopback address is not one.
 */
import { describe, expect, it } from "vitest"
import { isLoopbackHost } from "../../src/layers/config/loopback.js"

describe("isLoopbackHost", () => {
  it("takes localhost, ::1 and 127.0.0.0/8", () => {
    for (const host of ["localhost", "::1", "[::1]", "127.0.0.1", "127.1.2.3"]) expect(isLoopbackHost(host), host).toBe(true)
  })

  it("refuses other hosts, names that start with 127. among them", () => {
    for (const host of ["0.0.0.0", "192.0.2.1", "::", "127.0.0.1.example.com", "127.evil", "127.0.0.1:9229", "localhost.example.com", ""])
      expect(isLoopbackHost(host), host).toBe(false)
  })
})
