/**
 * The one way a tool answer is put together: text for the agent and structured content that says the same,
 * lists bounded with a marker that says how many were left out (and how to see them), and long values cut
 * with a mark. Core tool groups and plugins use it instead of building `{ text, structured }` and their own
 * truncations by hand.
 */
import type { ToolImage, ToolResult } from "./Tool.js"

/** A value cut to at most `max` characters, the cut marked with "…". */
export const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text)

/** The first `max` items of a list, with how many there were. */
export interface Bounded<T> {
  readonly shown: ReadonlyArray<T>
  readonly total: number
  /** How many were left out (0 when all are shown). */
  readonly omitted: number
}

export const bounded = <T>(items: ReadonlyArray<T>, max: number): Bounded<T> => {
  const shown = items.length > max ? items.slice(0, Math.max(0, max)) : items
  return { shown, total: items.length, omitted: items.length - shown.length }
}

/** The line that says a list was cut: "… 12 more (how to see them)"; undefined when nothing was left out. */
export const moreLine = (list: Pick<Bounded<unknown>, "omitted">, how?: string): string | undefined =>
  list.omitted > 0 ? `… ${list.omitted} more${how !== undefined ? ` (${how})` : ""}` : undefined

/** A tool answer: the text's lines (an absent one is left out), the structured content, images. */
export const answer = (
  lines: string | ReadonlyArray<string | undefined | false>,
  structured?: Record<string, unknown>,
  images?: ReadonlyArray<ToolImage>
): ToolResult => ({
  text: typeof lines === "string" ? lines : lines.filter((line): line is string => typeof line === "string").join("\n"),
  ...(structured !== undefined ? { structured } : {}),
  ...(images !== undefined && images.length > 0 ? { images } : {})
})

export interface ListAnswer<T> {
  /** The first line ("3 windows:"); given the list, so it can say how many. */
  readonly heading: (list: Bounded<T>) => string
  readonly items: ReadonlyArray<T>
  readonly max: number
  /** One item's line of text. */
  readonly line: (item: T) => string
  /** The name of the list in the structured content ("windows"). */
  readonly key: string
  /** One item as structured content (default: the item). */
  readonly structuredItem?: (item: T) => unknown
  /** Said in the marker when items were left out ("pass limit: N to see more"). */
  readonly how?: string
  /** Lines after the list. */
  readonly footer?: ReadonlyArray<string | undefined | false>
  /** More structured fields beside the list. */
  readonly extra?: Record<string, unknown>
}

/**
 * A bounded list as an answer: heading, one line an item, the "more" marker; structured content with the
 * shown items, the total and (when cut) how many were left out, so both say the same.
 */
export const listAnswer = <T>(options: ListAnswer<T>): ToolResult => {
  const list = bounded(options.items, options.max)
  const toStructured = options.structuredItem ?? ((item: T) => item)
  return answer([options.heading(list), ...list.shown.map(options.line), moreLine(list, options.how), ...(options.footer ?? [])], {
    ...options.extra,
    [options.key]: list.shown.map(toStructured),
    total: list.total,
    ...(list.omitted > 0 ? { omitted: list.omitted } : {})
  })
}

/** What is added to an answer: text before and after its own (joined as given), structured fields beside its own. */
export interface Addition {
  readonly before?: string
  readonly after?: string
  readonly structured?: Record<string, unknown>
}

/** An answer with more said (the modal rows before it, the new errors after it); its images are kept. */
export const amended = (result: ToolResult, more: Addition): ToolResult => ({
  ...result,
  text: `${more.before ?? ""}${result.text}${more.after ?? ""}`,
  ...(more.structured !== undefined ? { structured: { ...result.structured, ...more.structured } } : {})
})
