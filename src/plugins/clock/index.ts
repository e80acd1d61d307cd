/**
 * clock: fake time for the app, in every window (playwright-core's clock, new windows too) and in the
 * main process (its Date and timers), so that what happens in an hour or a day (an overdue label, a
 * reminder a main-process setTimeout fires) can be seen now. One tool; it runs no caller code.
 */
import { definePlugin } from "../Plugin.js"
import { clockControl } from "./tool.js"

export default definePlugin({
  name: "clock",
  purpose: "Fake time in the windows and the main process: install, set, advance, run, pause, resume.",
  stagewright: ">=0.1.0 <1",
  tools: [clockControl]
})
