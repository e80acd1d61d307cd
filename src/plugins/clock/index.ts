/**
 * clock: fake time for the app, in every window (playwright-core's clock, new windows too) and in the
 * main process (its Date and timers), so that what happens in an hour or a day (an overdue label, a
 * reminder a main-process setTimeout fires) can be seen now. One tool; it runs no caller code.
 *
 * What it cannot fake, said in the install answer:
 * - windows: timers a page set before install keep real time until the page reloads; playwright-core has no
 *   uninstall, so "uninstall" gives the windows real time back and the fake stays until the app restarts;
 *   while paused, page timers and animation frames wait (a tool that waits for a frame waits too).
 * - main process: timers set before install; setImmediate and process.nextTick (not time); performance.now,
 *   process.hrtime and process.uptime; functions taken from require('timers') or node:timers/promises;
 *   Electron's and Chromium's native timers; Intl's own now. Other code of the main process that reads
 *   Date.now (other plugins' hooks timestamping what they record) sees the fake time too.
 */
import { definePlugin } from "../Plugin.js"
import { clockControl } from "./tool.js"

export default definePlugin({
  name: "clock",
  purpose: "Fake time in the windows and the main process: install, set, advance, run, pause, resume.",
  stagewright: ">=0.1.0 <1",
  tools: [clockControl]
})
