/**
 * The ipc plugin (`--plugin ipc`): the app's IPC surface from the main process — handlers and listeners
 * by channel, a bounded traffic log in both directions, invoking a channel as a renderer would, mocking
 * a handler's answer, and sending a message to a window.
 */
import { definePlugin } from "../Plugin.js"
import { clearMocksTool, invokeTool, mockTool, sendTool } from "./actions.js"
import { handlersTool, logTool } from "./inspect.js"
import { installIpcRecorder } from "./recorder.js"

export default definePlugin({
  name: "ipc",
  purpose: "The app's IPC: handlers and listeners by channel, a traffic log, invoke, mock and send.",
  stagewright: ">=0.1.0 <1",
  mainHooks: [{ name: "ipc-recorder", install: installIpcRecorder }],
  tools: [handlersTool, logTool, invokeTool, mockTool, clearMocksTool, sendTool]
})
