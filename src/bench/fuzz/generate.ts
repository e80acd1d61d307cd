/** The fuzz generator: interesting values, valid-shaped and malformed arguments, bad names, the call plan. */
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { type Tool } from "../../index.js"
import {
  type CallKind,
  MALFORMED_KINDS,
  type FuzzCall,
  PROCESS_TOOLS,
  PLUGIN_NAMES,
  wouldDecode,
  mayDecode,
  fieldsOf,
  isJsonSerializable,
  nested
} from "./shapes.js"

/** Strings that often break parsers, paths and selectors. Each is used only where the call still decodes. */
export const INTERESTING_STRINGS: ReadonlyArray<string> = [
  "",
  " ",
  "\t\n",
  "e1",
  "e0",
  "e99999",
  "f1e2",
  "w1",
  "w0",
  "w99999999999999999999",
  "\u0000",
  "a\u0000b",
  "x/\u0000/y",
  "../../../etc/passwd",
  "/",
  ".",
  "..",
  "sub/dir/name",
  "%",
  "%E0%A4%A",
  "😀🚀",
  "\u202eevil",
  "\ud800",
  "<script>alert(1)</script>",
  "'\"`",
  "${process.exit()}",
  'role=button[name="',
  "role=",
  "text=",
  "css=",
  "xpath=//*[",
  "internal:",
  "nth=-1",
  ">>",
  "a >> b >> nth=99",
  "testid=",
  'label=""',
  "*",
  "body",
  ":has(:has(:has(*)))",
  "(a+)+$",
  "[",
  "(",
  "\\",
  ".*",
  "Enter",
  "Control+A",
  "Shift+Tab",
  "NoSuchKey",
  "() => 1",
  "() => {",
  "x => )",
  "async () => await new Promise(() => {})",
  "file:///",
  "about:blank",
  "javascript:%",
  "data:text/html,<h1>x</h1>"
]

/** Values of every JSON type, for wrong-type mutations. */
const TYPE_POOL: ReadonlyArray<unknown> = [0, -1, 1.5, 1e308, true, false, null, "", "str", [], [1, "a"], {}, { x: 1 }]

/** A tiny deterministic generator from a list of naturals (drawn by FastCheck, so seeds reproduce). */
export const chooser = (draws: ReadonlyArray<number>) => {
  let i = 0
  const next = () => draws[i++ % draws.length]! + i
  return {
    int: (n: number) => (n <= 0 ? 0 : next() % n),
    pick: <A>(items: ReadonlyArray<A>): A => items[next() % items.length]!,
    chance: (p: number) => (next() % 1000) / 1000 < p
  }
}
export type Chooser = ReturnType<typeof chooser>

const draws = fc.array(fc.nat(), { minLength: 16, maxLength: 16 })

// ---------------------------------------------------------------------------------------------
// Arbitraries

export interface ValidOptions {
  /** Probability of swapping one string field for an interesting string (kept only if it decodes). */
  readonly interesting?: number
  /**
   * A final adjustment (for example capping timeouts while an app runs). The result is used only when
   * it still decodes; otherwise the unadjusted call is used.
   */
  readonly tune?: (tool: Tool<any, any>, args: Record<string, unknown>, choose: Chooser) => Record<string, unknown>
}

/** Valid-shaped arguments for `tool`: derived from its input Schema, encoded for the wire. */
export const validArgs = (tool: Tool<any, any>, options: ValidOptions = {}): fc.Arbitrary<Record<string, unknown>> => {
  const encode = Schema.encodeSync(tool.input)
  const strings = fieldsOf(tool).filter((f) => f.isString)
  return fc.tuple(Arbitrary.make(tool.input), draws).map(([value, d]) => {
    const choose = chooser(d)
    let args = { ...(encode(value) as Record<string, unknown>) }
    if (strings.length > 0 && choose.chance(options.interesting ?? 0.3)) {
      const field = choose.pick(strings)
      const current = args[field.name]
      const candidate = {
        ...args,
        [field.name]: Array.isArray(current) ? [choose.pick(INTERESTING_STRINGS), ...current.slice(1)] : choose.pick(INTERESTING_STRINGS)
      }
      if (wouldDecode(tool, candidate)) args = candidate
    }
    if (options.tune) {
      const tuned = options.tune(tool, { ...args }, choose)
      if (wouldDecode(tool, tuned)) args = tuned
    }
    return args
  })
}

const jsonValueArb = fc.jsonValue({ maxDepth: 4 })
const anythingArb = fc.anything({ maxDepth: 4 }).filter((v) => isJsonSerializable(v))

/** Object-shaped random values whose keys are often the tool's own field names (so wrong values reach the decoder). */
const randomObject = (tool: Tool<any, any>, values: fc.Arbitrary<unknown>) => {
  const names = fieldsOf(tool).map((f) => f.name)
  const key = names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 })
  return fc.dictionary(key, values, { maxKeys: 5 }).filter((v) => isJsonSerializable(v))
}

/** Paths to every string, number, boolean or null inside a value, and to every object (for extra keys). */
const leaves = (
  value: unknown,
  path: ReadonlyArray<string | number> = [],
  out: { leaves: Array<Array<string | number>>; objects: Array<Array<string | number>> } = { leaves: [], objects: [] }
) => {
  if (Array.isArray(value)) value.forEach((item, i) => leaves(item, [...path, i], out))
  else if (value !== null && typeof value === "object") {
    out.objects.push([...path])
    for (const [key, item] of Object.entries(value)) leaves(item, [...path, key], out)
  } else if (path.length > 0) out.leaves.push([...path])
  return out
}

const setAt = (value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown => {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? setAt(item, rest, replacement) : item))
  const record = (value ?? {}) as Record<string, unknown>
  return { ...record, [head!]: setAt(record[head as string], rest, replacement) }
}

const getAt = (value: unknown, path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>((v, key) => (v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[key] : undefined), value)

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)

const HUGE_LENGTHS = [2_001, 10_001, 100_001, 1_000_001]
const DEPTHS = [8, 64, 512, 2_000, 10_000]

export interface MalformedOptions {
  /** Only object-shaped arguments (MCP's tools/call requires an object); top-level non-objects are left out. */
  readonly objectsOnly?: boolean
  /** Largest huge string (characters). */
  readonly maxHugeLength?: number
}

/** Malformed arguments of one kind for `tool` (most fail to decode; planCalls drops those that decode for a process tool). */
export const malformedArgs = (tool: Tool<any, any>, kind: Exclude<CallKind, "valid" | "bad-name">, options: MalformedOptions = {}): fc.Arbitrary<unknown> => {
  const fields = fieldsOf(tool)
  const base = validArgs(tool, { interesting: 0 })
  const maxHuge = options.maxHugeLength ?? 1_000_001
  let arb: fc.Arbitrary<unknown>
  switch (kind) {
    case "json-value":
      arb = options.objectsOnly ? randomObject(tool, jsonValueArb) : fc.oneof(jsonValueArb, randomObject(tool, jsonValueArb))
      break
    case "anything":
      arb = options.objectsOnly ? randomObject(tool, anythingArb) : fc.oneof(anythingArb, randomObject(tool, anythingArb))
      break
    case "wrong-type":
      arb = fc.tuple(base, draws).map(([args, d]) => {
        const choose = chooser(d)
        const found = leaves(args).leaves
        // A leaf inside the value, or a top-level field (present or not).
        const path = found.length > 0 && choose.chance(0.5) ? choose.pick(found) : fields.length > 0 ? [choose.pick(fields).name] : ["unexpected"]
        // A value of another type than the current one that makes the call invalid (an absent optional
        // field accepts its own type, so try the pool from a random point).
        const current = getAt(args, path)
        const others = TYPE_POOL.filter((v) => typeOf(v) !== typeOf(current))
        const offset = choose.int(others.length)
        const candidates = others.map((_, i) => setAt(args, path, others[(offset + i) % others.length]))
        return candidates.find((candidate) => !wouldDecode(tool, candidate)) ?? candidates[0]
      })
      break
    case "extra-key":
      arb = fc.tuple(base, fc.string({ minLength: 1, maxLength: 16 }), jsonValueArb, draws).map(([args, key, value, d]) => {
        const choose = chooser(d)
        const objects = leaves(args).objects
        const at = choose.pick(objects.length > 0 ? objects : [[]])
        const name = choose.pick([key, "__proto__", "constructor", "toString", "$schema", "_meta", `${key}_extra`])
        const target = (getAt(args, at) ?? {}) as Record<string, unknown>
        const withKey = { ...target }
        Object.defineProperty(withKey, name, { value, enumerable: true, writable: true, configurable: true })
        return at.length === 0 ? withKey : setAt(args, at, withKey)
      })
      break
    case "huge-string":
      arb = fc.tuple(base, draws).map(([args, d]) => {
        const choose = chooser(d)
        const stringFields = fields.filter((f) => f.isString)
        const stringLeaves = leaves(args).leaves.filter((p) => typeof getAt(args, p) === "string")
        const fill = choose.pick(["x", "é", "😀", "\u0000", " "])
        const sized = (n: number) => fill.repeat(Math.ceil(Math.min(n, maxHuge) / fill.length)).slice(0, Math.min(n, maxHuge))
        if (stringFields.length > 0 && choose.chance(0.6)) {
          // Just over the field's own bound (or a big one when it has none).
          const field = choose.pick(stringFields)
          const length = field.maxLength !== undefined ? field.maxLength + 1 + choose.pick([0, 0, 1, 1_000]) : choose.pick(HUGE_LENGTHS)
          const current = args[field.name]
          return { ...args, [field.name]: Array.isArray(current) || field.isArray ? [sized(length)] : sized(length) }
        }
        if (stringLeaves.length > 0) return setAt(args, choose.pick(stringLeaves), sized(choose.pick(HUGE_LENGTHS)))
        return { ...args, [choose.pick(["target", "text", "name", "x"])]: sized(choose.pick(HUGE_LENGTHS)) }
      })
      break
    case "deep-nesting":
      arb = fc.tuple(base, draws).map(([args, d]) => {
        const choose = chooser(d)
        const depth = choose.pick(DEPTHS)
        const value = nested(depth, choose.pick(["array", "object"] as const), choose.pick(["x", 1, null, {}]))
        const name = fields.length > 0 && choose.chance(0.8) ? choose.pick(fields).name : "nested"
        return { ...args, [name]: value }
      })
      break
    case "missing-required": {
      const required = fields.filter((f) => f.required)
      arb = fc.tuple(base, draws).map(([args, d]) => {
        const choose = chooser(d)
        if (required.length === 0) return {}
        const copy = { ...args }
        delete copy[choose.pick(required).name]
        return copy
      })
      break
    }
  }
  return arb
}

/** Names that are not callable tools: near misses of real names, plugin tools not loaded, random and huge names. */
export const badNames = (realNames: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...realNames), draws).map(([name, d]) => {
      const choose = chooser(d)
      const i = choose.int(name.length)
      return choose.pick([
        name.slice(0, i) + name.slice(i + 1),
        name.toUpperCase(),
        `${name}_`,
        ` ${name}`,
        name.replace("electron_", ""),
        name.replace("_", "-"),
        `${name}\u0000`
      ])
    }),
    fc.tuple(fc.constantFrom(...PLUGIN_NAMES), fc.stringMatching(/^[a-z_]{1,12}$/)).map(([plugin, rest]) => `electron_${plugin}_${rest}`),
    fc.string({ maxLength: 40 }),
    fc.constantFrom("", "electron_", "__proto__", "constructor", "toString", "electron_" + "x".repeat(20_000))
  )

// ---------------------------------------------------------------------------------------------
// Plans

/** A stable 32-bit hash, to derive one seed per tool and kind from the run's seed. */
export const hash = (text: string): number => {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}

export interface PlanOptions {
  readonly seed: number
  /** Valid-shaped calls per tool (process tools never get any). */
  readonly validPerTool: number
  /** Malformed calls per tool and kind. */
  readonly malformedPerTool: number
  /** Calls with names that are not tools. */
  readonly badNames: number
  readonly valid?: ValidOptions
  readonly malformed?: MalformedOptions
  /** Tools to leave out of the valid-shaped set (process tools always are). */
  readonly excludeValid?: ReadonlyArray<string>
  /** Malformed kinds to use (default: all). */
  readonly kinds?: ReadonlyArray<Exclude<CallKind, "valid">>
}

/** The calls of one run: deterministic for the seed, interleaved so that tools and kinds alternate. */
export const planCalls = (tools: ReadonlyArray<Tool<any, any>>, options: PlanOptions): ReadonlyArray<FuzzCall> => {
  const groups: Array<ReadonlyArray<FuzzCall>> = []
  const kinds = options.kinds ?? MALFORMED_KINDS
  for (const tool of tools) {
    const excluded = PROCESS_TOOLS.includes(tool.name) || (options.excludeValid ?? []).includes(tool.name)
    if (!excluded && options.validPerTool > 0) {
      const args = fc.sample(validArgs(tool, options.valid), { seed: (options.seed ^ hash(`${tool.name}:valid`)) | 0, numRuns: options.validPerTool })
      groups.push(args.map((a) => ({ kind: "valid" as const, tool: tool.name, args: a })))
    }
    const hasRequired = fieldsOf(tool).some((f) => f.required)
    for (const kind of kinds) {
      if (kind === "bad-name" || options.malformedPerTool <= 0) continue
      // Without a required field there is nothing to leave out (and `{}` would decode).
      if (kind === "missing-required" && !hasRequired) continue
      // A process tool never gets a call that would decode (it would start or attach to a process):
      // draw more and keep only those that fail to decode (a kind may yield fewer, or none).
      const isProcessTool = PROCESS_TOOLS.includes(tool.name)
      const drawn = fc.sample(malformedArgs(tool, kind, options.malformed), {
        seed: (options.seed ^ hash(`${tool.name}:${kind}`)) | 0,
        numRuns: isProcessTool ? options.malformedPerTool * 4 : options.malformedPerTool
      })
      const args = isProcessTool ? drawn.filter((a) => !mayDecode(tool, a)).slice(0, options.malformedPerTool) : drawn
      groups.push(args.map((a) => ({ kind, tool: tool.name, args: a })))
    }
  }
  if (kinds.includes("bad-name") && options.badNames > 0) {
    const names = fc.sample(badNames(tools.map((t) => t.name)), { seed: (options.seed ^ hash("bad-name")) | 0, numRuns: options.badNames })
    const args = fc.sample(
      jsonValueArb.filter((v) => v !== null && typeof v === "object" && !Array.isArray(v)),
      { seed: options.seed | 0, numRuns: options.badNames }
    )
    groups.push(names.filter((n) => !tools.some((t) => t.name === n)).map((name, i) => ({ kind: "bad-name" as const, tool: name, args: args[i] ?? {} })))
  }
  // Round-robin over the groups so a long run mixes tools and kinds from the start.
  const out: Array<FuzzCall> = []
  for (let i = 0; out.length < groups.reduce((n, g) => n + g.length, 0); i++) for (const group of groups) if (i < group.length) out.push(group[i]!)
  return out
}
