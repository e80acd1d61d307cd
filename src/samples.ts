/**
 * The repository's sample apps (test/fixtures/apps/), for the tests, the demo (`npm start`) and the
 * benchmarks. They stay in the repository: the installed package has no test/ folder (package.json
 * `files`), so nothing the server runs may import this module (deps:check: only src/demo.ts and
 * src/bench/ do, besides the tests).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { packageRoot } from "./layers/driver/electron-runtime.js"

export type SampleApp = "tasks" | "framework" | "hardened" | "insecure"

/** The folder of a sample app in this repository. */
export const sampleAppPath = (name: SampleApp): string => join(packageRoot(), "test", "fixtures", "apps", name)

/**
 * One entry of a sample app's own activity log (`<userData>/activity.jsonl`, one JSON object a line): what the app
 * did with a native outcome it does not show in its page, and how the user got something done (menu, context-menu,
 * tray, shortcut, notification-click, message-box, open-external, page:<kind>, …).
 */
export interface Activity {
  readonly at: string
  readonly kind: string
  readonly detail: string
}

/** Every entry of the app's activity log, oldest first; none while the app has written nothing (a log that cannot be read throws). */
export const readActivity = (userData: string): Array<Activity> => {
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
