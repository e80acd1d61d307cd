/**
 * The console the command line prints through: help for people (the parser's stock sentences about each
 * option's type dropped: the description says it), plain when stdout is not a terminal or NO_COLOR is set,
 * and the parser's own error report as one line.
 */
import { Console, Effect } from "effect"

const ANSI = /\x1b\[[0-9;]*m/g

/** Sentences @effect/cli adds to every option's help whatever the option means. */
const FILLER = [
  /^A user-defined piece of text\.$/,
  /^A true or false value\.$/,
  /^An integer\.$/,
  /^A floating point number\.$/,
  /^One of the following: .*$/,
  /^This setting is optional\.$/,
  /^This option may be repeated zero or more times\.$/,
  /^This setting is a property argument which:$/,
  /^- May be specified (a single time|multiple times): .*$/
]

/** Help text without the filler sentences (and the blank lines they leave). */
export const forPeople = (text: string): string =>
  text
    .split("\n")
    .filter((line) => !FILLER.some((re) => re.test(line.replace(ANSI, "").trim())))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")

/** Colour only on a terminal and only without NO_COLOR (https://no-color.org). */
export const wantsColour = (stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean => stream.isTTY === true && (env.NO_COLOR ?? "") === ""

/** One line, no colour: the parser's error report. */
export const oneLine = (text: string): string =>
  text
    .replace(ANSI, "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ")

const render = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? a : String(a))).join(" ")

/** Runs `effect` with the command line's console. */
export const withCliConsole = <A, E, R>(effect: Effect.Effect<A, E, R>, env: NodeJS.ProcessEnv = process.env): Effect.Effect<A, E, R> =>
  Effect.consoleWith((base) => {
    const colour = wantsColour(process.stdout, env)
    const console: Console.Console = {
      ...base,
      log: (...args) => {
        const text = forPeople(render(args))
        return base.log(colour ? text : text.replace(ANSI, ""))
      },
      error: (...args) => {
        const line = oneLine(render(args))
        return base.error(line.startsWith("stagewright") ? line : `stagewright: ${line}`)
      }
    }
    return Effect.withConsole(effect, console)
  })
