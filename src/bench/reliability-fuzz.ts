/**
 * The fuzz generator and oracle shared by the fuzz tests (test/fuzz/) and the reliability benchmark
 * (./reliability.ts). It depends on `effect` alone (Schema, Arbitrary and FastCheck), so `src/` carries
 * no test-only dependency.
 *
 * - Valid-shaped calls: `Arbitrary.make(tool.input)`, encoded with the tool's Schema, sometimes with a
 *   field swapped for an "interesting" value (empty, unicode, path tricks, boundary selectors, ...) as
 *   long as the call still decodes.
 * - Malformed calls: random JSON values (`FastCheck.jsonValue()`, `FastCheck.anything()` kept to what JSON
 *   can carry), a wrong type in one field, extra keys, strings over the schema's maxLength, deep
 *   nesting, a required field left out, and names that are not tools.
 * - The oracle (`checkResult`): a call resolves to a result; an error result carries a known
 *   `structuredContent.error.code`, its text starts with `CODE: `, and the code is never INTERNAL_ERROR
 *   (a defect).
 *
 * Generation is deterministic for a seed: the same seed gives the same calls, in the same order.
 */
import { Arbitrary, Either, FastCheck as fc, JSONSchema, Schema } from "effect"
import { ErrorCodes, isArgumentObject, type Tool } from "../index.js"

export type CallKind =
  | "valid"
  | "json-value"
  | "anything"
  | "wrong-type"
  | "extra-key"
  | "huge-string"
  | "deep-nesting"
  | "missing-required"
  | "bad-name"

export const MALFORMED_KINDS: ReadonlyArray<Exclude<CallKind, "valid">> = [
  "json-value",
  "anything",
  "wrong-type",
  "extra-key",
  "huge-string",
  "deep-nesting",
  "missing-required",
  "bad-name"
]

/** Short column names for the tables. */
export const KIND_LABEL: Record<CallKind, string> = {
  valid: "valid",
  "json-value": "json",
  anything: "any",
  "wrong-type": "wrongT",
  "extra-key": "extra",
  "huge-string": "huge",
  "deep-nesting": "deep",
  "missing-required": "missing",
  "bad-name": "name"
}

export interface FuzzCall {
  readonly kind: CallKind
  readonly tool: string
  readonly args: unknown
}

/** Tools that start or connect to real processes: never sent a call that would decode. */
export const PROCESS_TOOLS: ReadonlyArray<string> = ["electron_launch", "electron_attach"]

/** Names of first-party plugins (a tool name `electron_<plugin>_x` answers PLUGIN_NOT_LOADED). */
export const PLUGIN_NAMES: ReadonlyArray<string> = ["production", "ipc", "storage", "network", "a11y", "visual", "emulation", "native", "perf"]

export const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCodes))

// ---------------------------------------------------------------------------------------------
// Schema helpers

/**
 * Whether the Dispatcher's decoding would accept `args` for `tool`: the same Schema options, the same
 * `null -> {}` default, and its guard for tools without parameters (`Schema.Struct({})` alone accepts
 * any object). The Dispatcher's size and depth bounds are not mirrored: they only reject more.
 */
export const wouldDecode = (tool: Tool<any, any>, args: unknown): boolean => {
  if (!isArgumentObject(args)) return false
  if (fieldsOf(tool).length === 0 && args !== null && typeof args === "object" && Object.keys(args).length > 0) return false
  return Either.isRight(Schema.decodeUnknownEither(tool.input, { onExcessProperty: "error" })(args ?? {}))
}

/** `value` without own `__proto__` keys, at any depth: what the MCP SDK's request parsing leaves of them. */
export const withoutProtoKeys = (value: unknown, depth = 0): unknown => {
  if (depth > 50 || value === null || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map((v) => withoutProtoKeys(v, depth + 1))
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "__proto__").map(([k, v]) => [k, withoutProtoKeys(v, depth + 1)]))
}

/**
 * Whether `args` could decode on any path to the Dispatcher: as they are, after a JSON round trip
 * (undefined fields drop out), or after the MCP SDK drops `__proto__` keys. Used to keep every call
 * to a process tool from ever reaching its handler.
 */
export const mayDecode = (tool: Tool<any, any>, args: unknown): boolean => {
  if (wouldDecode(tool, args) || wouldDecode(tool, withoutProtoKeys(args))) return true
  try {
    const wire = JSON.parse(JSON.stringify(args) ?? "null") as unknown
    return wouldDecode(tool, wire) || wouldDecode(tool, withoutProtoKeys(wire))
  } catch {
    return false
  }
}

interface JsonSchemaNode {
  readonly type?: string | ReadonlyArray<string>
  readonly maxLength?: number
  readonly minLength?: number
  readonly properties?: Record<string, JsonSchemaNode>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchemaNode
  readonly anyOf?: ReadonlyArray<JsonSchemaNode>
}

export interface FieldInfo {
  readonly name: string
  readonly required: boolean
  /** maxLength of the field's string form, when it has one (directly, as array items or in a union). */
  readonly maxLength: number | undefined
  readonly isString: boolean
  readonly isArray: boolean
}

const stringNode = (node: JsonSchemaNode | undefined): JsonSchemaNode | undefined => {
  if (node === undefined) return undefined
  if (node.type === "string") return node
  if (node.type === "array") return stringNode(node.items)
  for (const alternative of node.anyOf ?? []) {
    const found = stringNode(alternative)
    if (found) return found
  }
  return undefined
}

const jsonSchemas = new WeakMap<Tool, JsonSchemaNode>()
const jsonSchemaOf = (tool: Tool<any, any>): JsonSchemaNode => {
  let schema = jsonSchemas.get(tool)
  if (schema === undefined) {
    schema = JSONSchema.make(tool.input) as JsonSchemaNode
    jsonSchemas.set(tool, schema)
  }
  return schema
}

/** The top-level fields of a tool's input, read from its JSON Schema. */
export const fieldsOf = (tool: Tool<any, any>): ReadonlyArray<FieldInfo> => {
  const schema = jsonSchemaOf(tool)
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties ?? {}).map(([name, node]) => {
    const str = stringNode(node)
    return { name, required: required.has(name), maxLength: str?.maxLength, isString: str !== undefined, isArray: node.type === "array" }
  })
}

// ---------------------------------------------------------------------------------------------
// Values

/** A value JSON carries unchanged: null, booleans, finite numbers (not -0), strings, dense arrays, plain objects. */
export const isJsonSerializable = (value: unknown, depth = 0): boolean => {
  if (depth > 200) return false
  if (value === null || typeof value === "boolean" || typeof value === "string") return true
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0)
  if (Array.isArray(value)) {
    if (Object.keys(value).length !== value.length) return false
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isJsonSerializable(value[i], depth + 1)) return false
    return true
  }
  if (typeof value === "object") {
    if (Object.getPrototypeOf(value) !== Object.prototype) return false
    if (Object.getOwnPropertySymbols(value).length > 0) return false
    return Object.entries(value as Record<string, unknown>).every(([key, v]) => key !== "__proto__" && isJsonSerializable(v, depth + 1))
  }
  return false
}

/** `value` nested `depth` times in arrays or objects. Built iteratively (a recursive builder would overflow first). */
export const nested = (depth: number, shape: "array" | "object", leaf: unknown = "x"): unknown => {
  let value = leaf
  for (let i = 0; i < depth; i++) value = shape === "array" ? [value] : { a: value }
  return value
}

/** A bounded, cycle- and depth-safe preview of a value for failure messages. */
export const preview = (value: unknown, max = 300): string => {
  const walk = (v: unknown, depth: number): string => {
    if (depth > 6) return "…"
    if (typeof v === "string") return JSON.stringify(v.length > 80 ? `${v.slice(0, 60)}…(${v.length} chars)` : v)
    if (v === undefined) return "undefined"
    if (typeof v === "bigint") return `${v}n`
    if (v === null || typeof v !== "object") return String(v)
    if (Array.isArray(v)) return `[${v.slice(0, 5).map((x) => walk(x, depth + 1)).join(",")}${v.length > 5 ? `,…${v.length}` : ""}]`
    const entries = Object.entries(v as Record<string, unknown>)
    return `{${entries.slice(0, 8).map(([k, x]) => `${JSON.stringify(k)}:${walk(x, depth + 1)}`).join(",")}${entries.length > 8 ? ",…" : ""}}`
  }
  const text = walk(value, 0)
  return text.length > max ? `${text.slice(0, max)}…` : text
}

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
  "role=button[name=\"",
  "role=",
  "text=",
  "css=",
  "xpath=//*[",
  "internal:",
  "nth=-1",
  ">>",
  "a >> b >> nth=99",
  "testid=",
  "label=\"\"",
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
      const candidate = { ...args, [field.name]: Array.isArray(current) ? [choose.pick(INTERESTING_STRINGS), ...current.slice(1)] : choose.pick(INTERESTING_STRINGS) }
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
const leaves = (value: unknown, path: ReadonlyArray<string | number> = [], out: { leaves: Array<Array<string | number>>; objects: Array<Array<string | number>> } = { leaves: [], objects: [] }) => {
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
    const args = fc.sample(jsonValueArb.filter((v) => v !== null && typeof v === "object" && !Array.isArray(v)), { seed: options.seed | 0, numRuns: options.badNames })
    groups.push(names.filter((n) => !tools.some((t) => t.name === n)).map((name, i) => ({ kind: "bad-name" as const, tool: name, args: args[i] ?? {} })))
  }
  // Round-robin over the groups so a long run mixes tools and kinds from the start.
  const out: Array<FuzzCall> = []
  for (let i = 0; out.length < groups.reduce((n, g) => n + g.length, 0); i++) for (const group of groups) if (i < group.length) out.push(group[i]!)
  return out
}

// ---------------------------------------------------------------------------------------------
// Oracle and tally

export interface Checked {
  /** "OK", an error code, or REJECTED (the call threw or its promise rejected). */
  readonly code: string
  readonly problems: ReadonlyArray<string>
  readonly textChars: number
}

/** Checks one tools/call result against the contract. */
export const checkResult = (result: unknown): Checked => {
  const problems: Array<string> = []
  if (result === null || typeof result !== "object") return { code: "MALFORMED_RESULT", problems: [`the result is ${preview(result)}`], textChars: 0 }
  const r = result as { content?: unknown; isError?: unknown; structuredContent?: { error?: { code?: unknown } } }
  const content = Array.isArray(r.content) ? (r.content as Array<{ type?: unknown; text?: unknown }>) : undefined
  if (content === undefined || content.length === 0) problems.push("the result has no content")
  const first = content?.[0]
  const text = first?.type === "text" && typeof first.text === "string" ? first.text : undefined
  if (text === undefined) problems.push("the first content item is not text")
  const textChars = (content ?? []).reduce((n, c) => n + (typeof c.text === "string" ? c.text.length : 0), 0)
  if (r.isError === true) {
    const code = r.structuredContent?.error?.code
    if (typeof code !== "string") return { code: "NO_CODE", problems: [...problems, `isError without structuredContent.error.code: ${preview(text?.split("\n")[0] ?? "", 200)}`], textChars }
    if (!KNOWN_CODES.has(code)) problems.push(`unknown code ${code}`)
    if (text !== undefined && !text.startsWith(`${code}: `)) problems.push(`text does not start with "${code}: ": ${preview(text.slice(0, 80))}`)
    if (code === ErrorCodes.InternalError) problems.push(`INTERNAL_ERROR (a defect): ${text?.split("\n")[0]?.slice(0, 240)}`)
    return { code, problems, textChars }
  }
  if (r.isError !== undefined && r.isError !== false) problems.push(`isError is ${preview(r.isError)}`)
  if (r.structuredContent?.error !== undefined) problems.push("a success result carries structuredContent.error")
  return { code: "OK", problems, textChars }
}

export interface Violation {
  readonly index: number
  readonly kind: CallKind
  readonly tool: string
  readonly args: string
  readonly code: string
  readonly problem: string
}

export interface TallySummary {
  readonly calls: number
  readonly byCode: Record<string, number>
  readonly byKind: Record<string, Record<string, number>>
  readonly byTool: Record<string, Record<string, number>>
  readonly violations: number
  readonly distinctViolations: ReadonlyArray<Violation & { readonly count: number }>
  readonly largestTextChars: { readonly chars: number; readonly tool: string; readonly kind: CallKind; readonly code: string }
  readonly slowest: { readonly ms: number; readonly tool: string; readonly kind: CallKind; readonly code: string; readonly args: string }
}

/** Counts of outcomes by code, kind and tool, and the contract violations. */
export class FuzzTally {
  calls = 0
  readonly byCode = new Map<string, number>()
  readonly byKind = new Map<CallKind, Map<string, number>>()
  readonly byTool = new Map<string, Map<string, number>>()
  readonly violations: Array<Violation> = []
  largest = { chars: 0, tool: "", kind: "valid" as CallKind, code: "" }
  slowest = { ms: 0, tool: "", kind: "valid" as CallKind, code: "", args: "" }

  record(call: FuzzCall, checked: Checked, ms: number): void {
    const index = this.calls++
    const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)
    bump(this.byCode, checked.code)
    if (!this.byKind.has(call.kind)) this.byKind.set(call.kind, new Map())
    bump(this.byKind.get(call.kind)!, checked.code)
    const toolKey = call.kind === "bad-name" ? "(bad name)" : call.tool
    if (!this.byTool.has(toolKey)) this.byTool.set(toolKey, new Map())
    bump(this.byTool.get(toolKey)!, checked.code)
    if (checked.textChars > this.largest.chars) this.largest = { chars: checked.textChars, tool: call.tool.slice(0, 60), kind: call.kind, code: checked.code }
    if (ms > this.slowest.ms) this.slowest = { ms: Math.round(ms), tool: call.tool.slice(0, 60), kind: call.kind, code: checked.code, args: preview(call.args, 160) }
    for (const problem of checked.problems) {
      this.violations.push({ index, kind: call.kind, tool: call.tool.slice(0, 80), args: preview(call.args), code: checked.code, problem })
    }
  }

  /** One entry per (tool, code, problem shape), with how often it happened. */
  distinct(): ReadonlyArray<Violation & { readonly count: number }> {
    const groups = new Map<string, Violation & { count: number }>()
    for (const v of this.violations) {
      const key = `${v.tool}|${v.code}|${v.problem.replace(/\d+/g, "#").slice(0, 120)}`
      const seen = groups.get(key)
      if (seen) seen.count++
      else groups.set(key, { ...v, count: 1 })
    }
    return [...groups.values()].sort((a, b) => b.count - a.count)
  }

  summary(): TallySummary {
    const obj = (map: Map<string, number>) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]))
    return {
      calls: this.calls,
      byCode: obj(this.byCode),
      byKind: Object.fromEntries([...this.byKind].map(([k, m]) => [k, obj(m)])),
      byTool: Object.fromEntries([...this.byTool].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, m]) => [k, obj(m)])),
      violations: this.violations.length,
      distinctViolations: this.distinct(),
      largestTextChars: this.largest,
      slowest: this.slowest
    }
  }

  /** A compact table: one row per result code, one column per kind of call. */
  table(title: string): string {
    const kinds = [...this.byKind.keys()].sort((a, b) => (a === "valid" ? -1 : b === "valid" ? 1 : MALFORMED_KINDS.indexOf(a as never) - MALFORMED_KINDS.indexOf(b as never)))
    const codes = [...this.byCode].sort((a, b) => b[1] - a[1]).map(([code]) => code)
    const width = Math.max(18, ...codes.map((c) => c.length + 1))
    const cell = (value: string | number, w = 8) => String(value).padStart(w)
    const lines = [
      `${title}: ${this.calls} calls, ${this.violations.length} contract violations`,
      `${"code".padEnd(width)}${kinds.map((k) => cell(KIND_LABEL[k])).join("")}${cell("total")}`
    ]
    for (const code of codes) {
      lines.push(`${code.padEnd(width)}${kinds.map((k) => cell(this.byKind.get(k)?.get(code) ?? "·")).join("")}${cell(this.byCode.get(code) ?? 0)}`)
    }
    lines.push(`${"total".padEnd(width)}${kinds.map((k) => cell([...(this.byKind.get(k)?.values() ?? [])].reduce((a, b) => a + b, 0))).join("")}${cell(this.calls)}`)
    lines.push(`largest result text: ${this.largest.chars} chars (${this.largest.tool}, ${this.largest.kind}, ${this.largest.code}); slowest call: ${this.slowest.ms} ms (${this.slowest.tool}, ${this.slowest.kind}, ${this.slowest.code})`)
    return lines.join("\n")
  }

  /** The distinct violations, readable, for a failing assertion. */
  report(seed: number, max = 15): string {
    const distinct = this.distinct()
    if (distinct.length === 0) return "no violations"
    return [
      `${this.violations.length} violations in ${distinct.length} groups (seed ${seed}; rerun with FUZZ_SEED=${seed}):`,
      ...distinct.slice(0, max).map((v) => `  [${v.count}x] ${v.tool} (${v.kind}) #${v.index}: ${v.problem}\n       args: ${v.args}`)
    ].join("\n")
  }
}

/** Calls `invoke` for each call (in order, or by `concurrency` workers), checking each result; a rejection or throw is recorded as REJECTED. */
export const runCalls = async (
  calls: ReadonlyArray<FuzzCall>,
  invoke: (call: FuzzCall) => Promise<unknown>,
  tally: FuzzTally,
  options: { readonly concurrency?: number; readonly onProgress?: (done: number) => void } = {}
): Promise<FuzzTally> => {
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < calls.length) {
      const call = calls[next++]!
      const started = performance.now()
      let checked: Checked
      try {
        checked = checkResult(await invoke(call))
      } catch (error) {
        checked = { code: "REJECTED", problems: [`the call rejected: ${error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]?.slice(0, 200)}` : preview(error)}`], textChars: 0 }
      }
      tally.record(call, checked, performance.now() - started)
      if (options.onProgress && ++done % 500 === 0) options.onProgress(done)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker))
  return tally
}

/** The seed of a run: FUZZ_SEED when set, else a fixed default (so runs reproduce unless asked otherwise). */
export const fuzzSeed = (fallback: number): number => {
  const raw = process.env.FUZZ_SEED
  const parsed = raw === undefined ? Number.NaN : Number(raw)
  return Number.isInteger(parsed) ? parsed : fallback
}
