/**
 * The sample apps' activity log (src/samples.ts `readActivity`) as the tests read it: instead of an echo in the
 * page, what the app did with a native outcome (the button that closed its About box, a URL handed to the
 * browser, a download saved, a menu item chosen).
 */
import { readActivity } from "../../src/samples.js"

/** The activity log as `<kind> <detail>` lines (for expect.poll), optionally only the kinds given. */
export const activityLines = (userData: string, ...kinds: ReadonlyArray<string>): Array<string> =>
  readActivity(userData)
    .filter((a) => kinds.length === 0 || kinds.includes(a.kind))
    .map((a) => `${a.kind} ${a.detail}`)
