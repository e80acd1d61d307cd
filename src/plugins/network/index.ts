/**
 * network: mock, fail, throttle and take offline the requests of every window of the app, and record /
 * replay its traffic as HAR. Routes and settings live in the app's Playwright context and in state
 * held by the session (sessionLocal): they last as long as the session.
 */
import { definePlugin } from "../Plugin.js"
import { offline, throttle } from "./conditions.js"
import { harRecord, harReplay } from "./har.js"
import { route, unroute } from "./routes.js"

export default definePlugin({
  name: "network",
  purpose: "Mock, fail, throttle or take offline the app's requests; record and replay HAR files.",
  stagewright: ">=0.1.0 <1",
  tools: [route, unroute, offline, throttle, harRecord, harReplay]
})
