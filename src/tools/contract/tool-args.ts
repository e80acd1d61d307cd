/**
 * Argument paths, as tools declare their element targets and file names (Tool.targets, Tool.files):
 * `target`, `paths[]` (each item of a list), `fields[].target`, `rules[].answer.filePath`. A path is
 * read in a decoded input; what it names is given with the argument's own name (`fields[2].target`),
 * so an answer says which argument it means.
 */

export interface NamedArgument {
  /** The argument as an answer names it: `source`, `fields[2].target`. */
  readonly name: string
  readonly value: string
  /** Whether it is an item of a list (`paths[]`). */
  readonly inList: boolean
}

const walk = (value: unknown, segments: ReadonlyArray<string>, name: string, inList: boolean, out: Array<NamedArgument>): void => {
  if (segments.length === 0) {
    if (typeof value === "string") out.push({ name, value, inList })
    return
  }
  const [segment, ...rest] = segments as [string, ...Array<string>]
  const list = segment.endsWith("[]")
  const key = list ? segment.slice(0, -2) : segment
  if (value === null || typeof value !== "object") return
  const field = (value as Record<string, unknown>)[key]
  const at = name === "" ? key : `${name}.${key}`
  if (!list) return walk(field, rest, at, inList, out)
  if (!Array.isArray(field)) return
  field.forEach((item, i) => walk(item, rest, `${at}[${i}]`, true, out))
}

/** The string values at `paths` in `input`, in the order of the paths and of the lists. */
export const argumentsAt = (input: unknown, paths: ReadonlyArray<string>): ReadonlyArray<NamedArgument> => {
  const out: Array<NamedArgument> = []
  for (const path of paths) walk(input, path.split("."), "", false, out)
  return out
}
