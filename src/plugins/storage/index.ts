/**
 * The storage plugin (`--plugin storage`): what the app keeps — local and session storage per origin,
 * cookies, IndexedDB, the userData folder, a snapshot of an origin in one call — and a reset so the next launch starts fresh.
 */
import { definePlugin } from "../Plugin.js"
import { resetTool } from "./reset.js"
import { cookiesTool } from "./session.js"
import { userDataTool } from "./userdata.js"
import { indexedDbTool } from "./indexeddb.js"
import { snapshotTool } from "./snapshot.js"
import { localTool } from "./web.js"

export default definePlugin({
  name: "storage",
  purpose: "What the app stores: local/session storage, cookies, IndexedDB (read and write), an origin snapshot, userData files, and a reset.",
  stagewright: ">=0.1.0 <1",
  tools: [localTool, cookiesTool, indexedDbTool, snapshotTool, userDataTool, resetTool]
})
