/**
 * The command line before @effect/cli parses it: the bare command is `serve` whatever its options' values
 * (`stagewright --plugin production`), an unknown option or command is a one-line usage error with a
 * suggestion, and every option of `serve` can also come from an environment variable, STAGEWRIGHT_ and
 * the option's name in capitals (`--app-root` from STAGEWRIGHT_APP_ROOT); the command line wins.
 *
 * The options are read from the commands' own usage (Command.getUsage), so a flag added to `serve` is
 * accepted bare and from the environment without a change here.
 */
import type { Usage } from "@effect/cli"

/** One option of a command, as its usage declares it. */
export interface Flag {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  /** Takes a value (`--plugin NAME`); a boolean flag takes none. */
  readonly takesValue: boolean
  readonly repeated: boolean
  /** What the value must be, when the parser checks it: a whole number or one of a list. */
  readonly values?: "integer" | ReadonlyArray<string>
}

/** Options every command has (@effect/cli's built-ins). */
const BUILT_IN: ReadonlyArray<Flag> = [
  { name: "--help", aliases: ["-h"], takesValue: false, repeated: false },
  { name: "--version", aliases: [], takesValue: false, repeated: false }
]

/** The pseudo names (Options.withPseudoName) of whole-number options, and the parser's own. */
const INTEGER_NAMES = new Set(["integer", "N", "MS", "PORT"])

const valuesOf = (accepted: string): Flag["values"] =>
  INTEGER_NAMES.has(accepted) ? "integer" : accepted.includes(" | ") ? accepted.split(" | ").map((v) => v.trim()) : undefined

/**
 * Environment variables Stagewright already reads with a meaning of their own: no option may map onto
 * one (test/cli/argv.test.ts checks every command's options).
 */
export const RESERVED_ENV = ["STAGEWRIGHT_ELECTRON", "STAGEWRIGHT_CHROMIUM", "STAGEWRIGHT_COMPILE_CACHE", "STAGEWRIGHT_MODULE_LOG"] as const

/** A repeatable option's variable holds its values separated by commas; these hold one value a line (JSON has commas). */
const ONE_A_LINE = new Set(["--plugin-config"])

/** The options a usage declares (the command's own name, a Named usage without dashes, is left out). */
export const flagsOf = (usage: Usage.Usage): ReadonlyArray<Flag> => {
  const out: Array<Flag> = []
  const walk = (u: Usage.Usage, repeated: boolean): void => {
    switch (u._tag) {
      case "Named": {
        const [name, ...aliases] = [...u.names].sort((a, b) => b.length - a.length)
        if (!name?.startsWith("--")) return
        const values = u.acceptedValues._tag === "Some" ? valuesOf(u.acceptedValues.value) : undefined
        out.push({ name, aliases, takesValue: u.acceptedValues._tag === "Some", repeated, ...(values !== undefined ? { values } : {}) })
        return
      }
      case "Optional":
        return walk(u.usage, repeated)
      case "Repeated":
        return walk(u.usage, true)
      case "Alternation":
      case "Concat":
        walk(u.left, repeated)
        return walk(u.right, repeated)
      default:
        return
    }
  }
  walk(usage, false)
  return out
}

/** The environment variable of an option: `--app-root` → STAGEWRIGHT_APP_ROOT. */
export const envName = (flag: string) => `STAGEWRIGHT_${flag.replace(/^--/, "").replace(/-/g, "_").toUpperCase()}`

export interface Commands {
  /** Subcommand names → their options (null: a command of subcommands, left to the parser); `serve` is the bare command. */
  readonly commands: ReadonlyMap<string, ReadonlyArray<Flag> | null>
  /** Commands whose options also come from the environment (those that are options of `serve` too). */
  readonly fromEnv: ReadonlySet<string>
}

export type Prepared = { readonly _tag: "Args"; readonly args: ReadonlyArray<string> } | { readonly _tag: "UsageError"; readonly message: string }

const usageError = (message: string): Prepared => ({ _tag: "UsageError", message })

/** Levenshtein distance, for "did you mean". */
const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}

/** The closest of `candidates` to `word`, when it is close enough to be a misspelling. */
export const suggest = (word: string, candidates: Iterable<string>): string | undefined => {
  let best: { readonly name: string; readonly d: number } | undefined
  for (const name of candidates) {
    const d = distance(word, name)
    if (best === undefined || d < best.d) best = { name, d }
  }
  return best !== undefined && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined
}

/** Why `value` cannot be the value of `flag`, for the values the parser checks. */
const checkValue = (flag: Flag, value: string): string | undefined => {
  if (flag.values === "integer") return /^-?\d+$/.test(value) ? undefined : `${flag.name} ${value}: expected a whole number`
  if (flag.values === undefined || flag.values.includes(value)) return undefined
  const close = suggest(value, flag.values)
  return `${flag.name} ${value}: expected one of ${flag.values.join(", ")}${close !== undefined ? ` (did you mean ${close}?)` : ""}`
}

const TRUE = new Set(["1", "true", "yes", "on"])
const FALSE = new Set(["", "0", "false", "no", "off"])

/** Arguments for the options of `flags` set in the environment and not given on the command line. */
const fromEnvironment = (flags: ReadonlyArray<Flag>, given: ReadonlySet<string>, env: NodeJS.ProcessEnv): Prepared => {
  const args: Array<string> = []
  for (const flag of flags) {
    const name = envName(flag.name)
    const value = env[name]
    if (value === undefined || given.has(flag.name)) continue
    if (!flag.takesValue) {
      const word = value.trim().toLowerCase()
      if (TRUE.has(word)) args.push(flag.name)
      else if (!FALSE.has(word)) return usageError(`${name}=${value}: expected 1/true or 0/false (it sets ${flag.name})`)
      continue
    }
    const values = ONE_A_LINE.has(flag.name) ? value.split("\n") : flag.repeated ? value.split(",") : [value]
    const kept = values.map((v) => v.trim()).filter((v) => v !== "")
    if (kept.length === 0) continue
    for (const v of kept) {
      const bad = checkValue(flag, v)
      if (bad !== undefined) return usageError(`${name}=${value}: ${bad}`)
    }
    if (ONE_A_LINE.has(flag.name)) args.push(flag.name, ...kept)
    else for (const v of kept) args.push(flag.name, v)
  }
  return { _tag: "Args", args }
}

/**
 * `argv` (node, script, …) made ready for the parser: `serve` put first when no command is named, every
 * option checked against the command's own (a misspelled one is a usage error naming the closest), and
 * the environment's options appended for a command that takes them.
 */
export const prepareArgv = (argv: ReadonlyArray<string>, commands: Commands, env: NodeJS.ProcessEnv): Prepared => {
  const [runtime = "node", script = "stagewright", ...rest] = argv
  const first = rest[0]
  const rootOnly = first === undefined ? false : ["--help", "-h", "--version", "--wizard"].includes(first) || first.startsWith("--completions")
  if (rootOnly) return { _tag: "Args", args: argv }
  let command = "serve"
  let tail = rest
  if (first !== undefined && !first.startsWith("-")) {
    if (!commands.commands.has(first)) {
      const close = suggest(first, commands.commands.keys())
      return usageError(
        `unknown command ${first}${close !== undefined ? ` (did you mean ${close}?)` : ""}; commands: ${[...commands.commands.keys()].join(", ")} (serve when none is named)`
      )
    }
    command = first
    tail = rest.slice(1)
  }
  const own = commands.commands.get(command)
  if (own === null) return { _tag: "Args", args: [runtime, script, ...rest] }
  const flags = [...(own ?? []), ...BUILT_IN]
  const byName = new Map<string, Flag>()
  for (const flag of flags) for (const name of [flag.name, ...flag.aliases]) byName.set(name, flag)
  const given = new Set<string>()
  const serveFlags = new Set((commands.commands.get("serve") ?? []).map((f) => f.name))
  for (let i = 0; i < tail.length; i++) {
    const arg = tail[i]!
    if (arg === "--") break
    if (!arg.startsWith("-") || arg === "-") continue
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg
    const flag = byName.get(name)
    if (flag === undefined) {
      const close = suggest(
        name,
        flags.map((f) => f.name)
      )
      return usageError(`unknown option ${name} for ${command}${close !== undefined ? ` (did you mean ${close}?)` : ""}; see stagewright ${command} --help`)
    }
    given.add(flag.name)
    if (flag.name === "--help") return { _tag: "Args", args: [runtime, script, command, ...tail] }
    if (flag.takesValue) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : tail[i + 1]
      if (value === undefined) return usageError(`${name} needs a value; see stagewright ${command} --help`)
      const bad = checkValue(flag, value)
      if (bad !== undefined) return usageError(bad)
      if (!arg.includes("=")) i++
      // A keyValueMap option takes every key=value that follows it.
      if (ONE_A_LINE.has(flag.name)) while (tail[i + 1] !== undefined && !tail[i + 1]!.startsWith("-") && tail[i + 1]!.includes("=")) i++
    }
  }
  const fromEnv = commands.fromEnv.has(command)
    ? fromEnvironment(
        (own ?? []).filter((f) => serveFlags.has(f.name)),
        given,
        env
      )
    : ({ _tag: "Args", args: [] } as const)
  if (fromEnv._tag === "UsageError") return fromEnv
  return { _tag: "Args", args: [runtime, script, command, ...tail, ...fromEnv.args] }
}
