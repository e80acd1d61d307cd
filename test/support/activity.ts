/**
 * The sample apps' own activity log (`<userData>/activity.jsonl`, one JSON object a line: `{ at, kind, detail }`):
 * what the app did with a native outcome it does not show in its page (the button that closed its About box, a
 * URL handed to the browser, a download saved, a menu item chosen). Tests read it instead of an echo in the page.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

export interface Activity {
  readonly at: string
  readonly kind: string
  readonly detail: string
}

/** Every entry of the app's activity log, oldest first; none while the app has written nothing. */
export const activityOf = (userData: string): Array<Activity> => {
  let text: string
  try {
    text = readFileSync(join(userData, "activity.jsonl"), "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
    throw error
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Activity)
}

/** The activity log as `<kind> <detail>` lines (for expect.poll), optionally only the kinds given. */
export const activityLines = (userData: string, ...kinds: ReadonlyArray<string>): Array<string> =>
  activityOf(userData)
    .filter((a) => kinds.length === 0 || kinds.includes(a.kind))
    .map((a) => `${a.kind} ${a.detail}`)
