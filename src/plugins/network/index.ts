/**
 * network: mock, delay, fail, throttle and take offline the requests of every window of the app; capture
 * the traffic's content (windows' and the main process's requests, headers redacted, bodies bounded);
 * record / replay it as HAR. Routes, captures and settings live in the app's Playwright context and in
 * state held by the session (sessionLocal): they last as long as the session. The main-process recorder
 * (main-hook.ts) is installed at every launch and records only while a capture runs.
 */
import { definePlugin } from "../Plugin.js"
import { capture } from "./capture.js"
import { offline, throttle } from "./conditions.js"
import { NetworkConfig } from "./config.js"
import { harRecord, harReplay } from "./har.js"
import { installNetRecorder } from "./main-hook.js"
import { route, unroute } from "./routes.js"

export default definePlugin({
  name: "network",
  purpose: "Mock, delay, fail, throttle or take offline the app's requests; capture their content; record and replay HAR.",
  stagewright: ">=0.1.0 <1",
  config: NetworkConfig,
  mainHooks: [{ name: "network-capture", install: installNetRecorder }],
  tools: [route, unroute, capture, offline, throttle, harRecord, harReplay]
})
