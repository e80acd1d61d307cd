/**
 * Caller patterns matched in the server run on RE2 (src/tools/policy/patterns.ts): the shapes that make V8's
 * RegExp backtrack for ever answer in linear time with the right result; what RE2 cannot run is refused
 * with INVALID_ARGUMENT; the network plugin's URL patterns and globs become RE2-backed functions.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { toMatcher } from "../../src/plugins/network/routes.js"
import { compileGlob, compileSafePattern } from "../../src/tools/policy/patterns.js"

const a = (n: number) => "a".repeat(n)
const refusal = (source: string, flags?: string) => Effect.flip(compileSafePattern(source, flags))

describe("compileSafePattern (RE2)", () => {
  it.effect("matches the catastrophic shapes on long texts with the right answer", () =>
    Effect.gen(function* () {
      const stars = yield* compileSafePattern("a*a*a*a*a*a*b")
      assert.isFalse(stars.test(a(3_000)))
      assert.isTrue(stars.test(`${a(3_000)}b`))
      assert.isFalse(stars.test(a(30_000)))
      const nested = yield* compileSafePattern("(a+)+$")
      assert.isFalse(nested.test(`${a(30_000)}!`))
      assert.isTrue(nested.test(a(30_000)))
      const alternation = yield* compileSafePattern("(a|a)*c")
      assert.isFalse(alternation.test(a(30_000)))
      assert.isTrue(alternation.test(`${a(30_000)}c`))
      const words = yield* compileSafePattern("^(\\w+\\s?)*$")
      assert.isFalse(words.test(`${"word ".repeat(5_000)}!`))
    })
  )

  it.effect("supports the i, m and s flags and JavaScript escapes", () =>
    Effect.gen(function* () {
      assert.isTrue((yield* compileSafePattern("^saved \\d+ tasks$", "i")).test("Saved 42 TASKS"))
      assert.isFalse((yield* compileSafePattern("^saved$")).test("Saved"))
      assert.isTrue((yield* compileSafePattern("^b$", "m")).test("a\nb\nc"))
      assert.isFalse((yield* compileSafePattern("^b$")).test("a\nb\nc"))
      assert.isTrue((yield* compileSafePattern("a.b", "s")).test("a\nb"))
      assert.isFalse((yield* compileSafePattern("a.b")).test("a\nb"))
      assert.isTrue((yield* compileSafePattern("\\u0041(?<rest>b)")).test("xAb"))
      assert.strictEqual((yield* compileSafePattern("a/b", "i")).literal, "/a\\/b/i")
    })
  )

  it.effect("refuses what RE2 cannot run, with a hint", () =>
    Effect.gen(function* () {
      const backreference = yield* refusal("(.)\\1")
      assert.strictEqual(backreference._tag, "InvalidArgument")
      expect(backreference.message).toContain("backreference")
      expect(backreference.hint).toContain("RE2")
      expect((yield* refusal("(?<q>x)\\k<q>")).message).toContain("backreference")
      for (const lookaround of ["(?=a)b", "a(?!b)", "(?<=a)b", "(?<!a)b"]) expect((yield* refusal(lookaround)).message, lookaround).toContain("lookaround")
      expect((yield* refusal("[a-")).message).toContain("pattern")
      expect((yield* refusal("a", "g")).message).toContain('flag "g"')
      expect((yield* refusal("x".repeat(1_001))).message).toContain("longer than")
      expect((yield* refusal("[a-z]{1000}".repeat(5))).message).toContain("too large")
    })
  )

  it.effect("bounds the work of one match: a text beyond maxInput is not matched, and fits() says so", () =>
    Effect.gen(function* () {
      const big = yield* compileSafePattern("[a-z]{1000}[a-z]{1000}x")
      assert.isTrue(big.maxInput < 10_000)
      const long = `${a(big.maxInput)}x`
      assert.isFalse(big.fits(long))
      assert.isFalse(big.test(long))
      const small = yield* compileSafePattern("^Task \\d+$")
      assert.isTrue(small.maxInput > 100_000)
      assert.isTrue(small.test("Task 12"))
    })
  )
})

describe("URL globs and the network plugin's matchers", () => {
  it.effect("follow Playwright's glob rules", () =>
    Effect.gen(function* () {
      const quote = yield* compileGlob("**/api/quote*")
      assert.isTrue(quote.test("http://127.0.0.1:3000/api/quote?symbol=X"))
      assert.isFalse(quote.test("http://127.0.0.1:3000/api/quotes/x"))
      const alternatives = yield* compileGlob("**/*.{png,jpg}")
      assert.isTrue(alternatives.test("file:///app/logo.png"))
      assert.isFalse(alternatives.test("file:///app/logo.gif"))
      assert.isTrue((yield* compileGlob("HTTP://Example.COM")).test("http://example.com/"))
      const stars = yield* compileGlob("**a**a**a**a**a**b")
      assert.isFalse(stars.test(`http://x/${a(20_000)}`))
      expect((yield* Effect.flip(compileGlob("**/{a,b"))).message).toContain("unmatched")
    })
  )

  it.effect("hand playwright-core a function, never a RegExp or a glob string it would compile itself", () =>
    Effect.gen(function* () {
      const regex = yield* toMatcher("/(a+)+$/", "url")
      assert.strictEqual(typeof regex, "function")
      assert.isFalse(regex(new URL(`http://x/${a(30_000)}!`)))
      const glob = yield* toMatcher("**/api/**", "url")
      assert.strictEqual(typeof glob, "function")
      assert.isTrue(glob(new URL("http://127.0.0.1:1/api/quote")))
      const refused = yield* Effect.flip(toMatcher("/(.)\\1/", "url"))
      expect(refused.message).toMatch(/^url: pattern: backreferences/)
    })
  )
})
