/**
 * MCP logging: the server advertises it, accepts logging/setLevel, and reports a failed tool call as
 * notifications/message when the client's level admits it.
 */
import { describe, expect, it } from "@effect/vitest"
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { inMemoryClient } from "../support/mcp.js"

describe("logging", () => {
  it("a failed call is a warning message at level warning, and nothing at level error", async () => {
    const mcp = await inMemoryClient()
    try {
      expect(mcp.client.getServerCapabilities()?.logging).toEqual({})
      const messages: Array<{ level: string; data: any }> = []
      mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        messages.push(n.params as { level: string; data: any })
      })
      // Nothing before the client asks for messages.
      expect((await mcp.call("electron_click", { target: "e1" })).code).toBe("APP_NOT_RUNNING")
      expect(messages).toHaveLength(0)
      await mcp.client.setLoggingLevel("warning")
      const failed = await mcp.call("electron_click", { target: "e1" })
      expect(failed.code).toBe("APP_NOT_RUNNING")
      // The notification is sent before the result, on the same connection: it has arrived.
      expect(messages).toHaveLength(1)
      expect(messages[0]).toMatchObject({ level: "warning", data: { tool: "electron_click", code: "APP_NOT_RUNNING" } })
      expect((await mcp.call("electron_status")).isError).toBe(false)
      expect(messages).toHaveLength(1)
      await mcp.client.setLoggingLevel("error")
      await mcp.call("electron_click", { target: "e1" })
      expect(messages).toHaveLength(1)
    } finally {
      await mcp.close()
    }
  })
})
