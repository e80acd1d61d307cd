/**
 * Regexes in selectors run in the page on V8's backtracking RegExp: every target goes through the
 * driver's locate, which refuses an unbounded regex with INVALID_ARGUMENT before the page is touched
 * (src/layers/driver/selector-patterns.ts, page-regex.ts) and admits the common safe ones.
 */
import { assert, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { pageRegex, pageRegexProblem } from "../../src/layers/driver/page-regex.js"
import { checkSelectorPatterns, pageSelector, selectorRegexes } from "../../src/layers/driver/selector-patterns.js"
import type { Surface } from "../../src/layers/driver/session.js"
import { snapshotOps } from "../../src/layers/driver/snapshot-ops.js"

describe("regexes the page may run", () => {
  it("admits the common bounded shapes", () => {
    for (const [source, flags] of [
      ["Save|Cancel", "i"],
      ["^Task \\d+$", ""],
      ["^Edit ", ""],
      ["Tasks — .+", ""],
      [".*saved", "i"],
      ["\\w+@\\w+\\.com", ""],
      ["\\d+-\\d+", ""],
      ["^\\s*\\d+ of \\d+ tasks\\s*$", ""],
      ["colou?r", ""],
      ["\\d{1,3}\\.\\d{1,3}", ""],
      ["[A-Z][a-z]+", "u"]
    ] as const) {
      expect(pageRegexProblem(source, flags), `/${source}/${flags}`).toBeUndefined()
    }
  })

  it("refuses exponential and polynomial backtracking, backreferences and lookarounds", () => {
    const refused = {
      "(a+)+$": "repeated group",
      "(a|a)*c": "repeated group",
      "^(\\w+\\s?)*$": "repeated group",
      "xa*a*a*a*a*a*b": "backtrack",
      ".*a.*b": "backtrack",
      "x.\\w+y": "backtrack",
      "x.*y": "backtrack",
      "\\w+\\s?\\w+!": "backtrack",
      "y.{0,1000}.{0,1000}x": "backtrack",
      [`${"(a|ab)".repeat(20)}x`]: "backtrack",
      // "1111…": each start's \d+ runs to the end before the space is missed, so n² steps
      "(\\d+|no) tasks?": "backtrack",
      "(.)\\1": "backreference",
      "(?<c>.)\\k<c>": "backreference",
      "(?=a)a": "lookaround",
      "(?<!a)b": "lookaround"
    }
    for (const [source, why] of Object.entries(refused)) expect(pageRegexProblem(source, ""), source).toContain(why)
    expect(pageRegexProblem("a".repeat(1_001), "")).toContain("longer than")
  })
})

// Texts that make a backtracking matcher rescan: long runs of what an open-ended repeat matches.
const LONG = 200_000
const longTexts = [
  "a".repeat(LONG),
  "1".repeat(LONG),
  " ".repeat(LONG),
  "a@".repeat(LONG / 2),
  `${"a".repeat(LONG)}@`,
  "ab".repeat(LONG / 2),
  "Task ".repeat(LONG / 5)
]

describe("regexes the page runs on long texts", () => {
  it.effect("every regex the driver hands the page answers a 200,000-character text in linear time", () =>
    Effect.gen(function* () {
      const touched: Array<string> = []
      const entry = { refs: new Set(), scope: { locator: (selector: string) => (touched.push(selector), { selector }) } } as unknown as Surface
      const { locate } = snapshotOps(() => Effect.die("no page call"), Effect.succeed(undefined))
      const probes = [
        ".*b",
        "\\w*b",
        ".*saved",
        "\\d+-\\d+",
        "\\w+@\\w+\\.com",
        "^Task \\d+$",
        "Tasks — .+",
        "[A-Z][a-z]+",
        "\\d{1,3}\\.\\d{1,3}",
        ".*x\\d+y",
        "a.*b",
        "(\\d+|no) tasks?"
      ]
      for (const probe of probes) yield* Effect.either(locate(entry, `text=/${probe}/`))
      expect(touched.length).toBeGreaterThanOrEqual(9)
      for (const selector of touched) {
        const regexes = selectorRegexes(selector)
        assert.ok(Array.isArray(regexes))
        for (const { source, flags } of regexes) {
          const regex = new RegExp(source, flags)
          const started = performance.now()
          for (const text of longTexts) regex.test(text)
          // Linear: ~7 texts × 200k characters take milliseconds; n² steps (the old .*b) take minutes.
          expect(performance.now() - started, `/${source}/${flags}`).toBeLessThan(2_000)
        }
      }
    })
  )

  it("the page's form matches the same texts as the agent's", () => {
    const samples = ["", "b", "ab", "xxb", "Task 12", "Task 12 ", "a@b.com", "x@y", "12-3", "Tasks — x", "Tasks — ", "Hello", "1.2", "saved", "SAVED it"]
    for (const [source, flags] of [
      [".*b", ""],
      ["\\w*b", ""],
      [".*saved", "i"],
      ["\\d+-\\d+", ""],
      ["\\w+@\\w+\\.com", ""],
      ["^Task \\d+$", ""],
      ["Tasks — .+", ""],
      ["[A-Z][a-z]+", "u"],
      ["\\d{1,3}\\.\\d{1,3}", ""],
      [".*", ""],
      ["Save|.*", ""],
      ["x+y*", ""]
    ] as const) {
      const decided = pageRegex(source, flags)
      assert.ok("source" in decided, source)
      for (const text of samples)
        expect(new RegExp(decided.source, flags).test(text), `/${source}/ vs /${decided.source}/ on ${JSON.stringify(text)}`).toBe(
          new RegExp(source, flags).test(text)
        )
    }
  })

  it("rewrites a selector's regex in place, and refuses one it cannot rewrite inside a nested selector", () => {
    expect(pageSelector("text=/.*b/")).toBe("text=/b/")
    expect(pageSelector("role=button[name=/\\w*Save.*/i] >> internal:has-text= /x+/")).toBe("role=button[name=/Save/i] >> internal:has-text= /x/")
    expect(pageSelector("text=/^Task \\d+$/")).toBe("text=/^Task \\d+$/")
    const nested = pageSelector('div >> internal:has="text=/.*b/"')
    assert.ok(typeof nested !== "string")
    expect(nested.hint).toContain("/b/")
  })
})

describe("regexes found in selectors", () => {
  it("finds them in every engine that runs one, nested selectors included, and nowhere else", () => {
    expect(selectorRegexes("text=/Save|Cancel/i")).toEqual([{ source: "Save|Cancel", flags: "i" }])
    expect(selectorRegexes("role=button[name=/^Task \\d+$/] >> nth=0")).toEqual([{ source: "^Task \\d+$", flags: "" }])
    expect(selectorRegexes("internal:attr=[title=/a[/]b/s]")).toEqual([{ source: "a[/]b", flags: "s" }])
    expect(selectorRegexes('div >> internal:has="internal:text=/x+/"')).toEqual([{ source: "x+", flags: "" }])
    expect(selectorRegexes("li:is(:text-matches('\\\\d+', \"i\"))")).toEqual([{ source: "\\d+", flags: "i" }])
    expect(selectorRegexes("internal:label=/Email/i >> internal:has-text=/x/")).toEqual([
      { source: "Email", flags: "i" },
      { source: "x", flags: "" }
    ])
    // Strings are strings: quoted values, text that does not start with a slash, XPath.
    expect(selectorRegexes('internal:attr=[placeholder="/(a+)+/"i]')).toEqual([])
    expect(selectorRegexes('text="/(a+)+$/"')).toEqual([])
    expect(selectorRegexes("text=a=/(a+)+/")).toEqual([])
    expect(selectorRegexes("xpath=//div/*")).toEqual([])
  })

  it("refuses a target whose regex is unbounded, admits safe ones", () => {
    for (const target of [
      "text=/(a+)+$/",
      "internal:text=/xa*a*b/",
      "internal:has-text=/(a|a)*c/ >> nth=0",
      "internal:attr=[title=/(x+)+y/i]",
      "role=button[name=/(a+)+$/]",
      'css=li:text-matches("(a+)+$")',
      'div >> internal:has="text=/(a+)+$/"',
      "aria-template=- button"
    ]) {
      const refused = checkSelectorPatterns(target)
      assert.strictEqual(refused?._tag, "InvalidArgument", target)
      expect(refused!.message).toMatch(/^target: /)
      expect(refused!.hint).toContain("plain text")
    }
    for (const target of ["text=/Save|Cancel/i", "role=button[name=/^Task \\d+$/]", "text=Save", "css=#id", 'internal:testid=[data-testid="row"s] >> nth=2']) {
      expect(checkSelectorPatterns(target), target).toBeUndefined()
    }
  })

  it.effect("the driver's locate refuses an unsafe target before touching the page", () =>
    Effect.gen(function* () {
      const touched: Array<string> = []
      const entry = { refs: new Set(), scope: { locator: (selector: string) => (touched.push(selector), { selector }) } } as unknown as Surface
      const { locate } = snapshotOps(() => Effect.die("no page call"), Effect.succeed(undefined))
      const refused = yield* Effect.flip(locate(entry, "text=/(a+)+$/"))
      assert.strictEqual(refused._tag, "InvalidArgument")
      expect(refused.message).toContain("(a+)+$")
      // Our shorthands are expanded first: a quoted value is a string, not a regex.
      yield* locate(entry, "placeholder=/(a+)+$/")
      yield* locate(entry, "text=/^pong:a+$/")
      assert.deepStrictEqual(touched, ['internal:attr=[placeholder="/(a+)+$/"i]', "text=/^pong:a+$/"])
      // A target's selector is decided once and kept: asked again, the same rewritten selector; a refused one is refused again.
      touched.length = 0
      yield* locate(entry, "text=/.*Save/")
      yield* locate(entry, "text=/.*Save/")
      yield* locate(entry, "placeholder=/(a+)+$/")
      assert.strictEqual((yield* Effect.flip(locate(entry, "text=/(a+)+$/")))._tag, "InvalidArgument")
      assert.deepStrictEqual(touched, ["text=/Save/", "text=/Save/", 'internal:attr=[placeholder="/(a+)+$/"i]'])
    })
  )
})
