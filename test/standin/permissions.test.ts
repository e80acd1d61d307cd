/**
 * Permission requests and checks of a page are decided by session.setPermissionRequestHandler /
 * setPermissionCheckHandler (granted without a handler, as in Electron). The fixture app
 * (test/fixtures/electron-standin-tests/permissions) uses only Electron's real API; the tests pick its handlers.
 */
import type { ElectronApplication, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, loadedFirstWindow, runtime } from "./helpers.js"

type Mode = "none" | "allow" | "deny"
type Call = {
  kind: "request" | "check"
  sameWindow: boolean
  permission: string
  requestingOrigin?: string
  details: Record<string, unknown>
}

describe(`permission handlers on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let page: Page

  const use = (modes: { request?: Mode; check?: Mode }): Promise<void> => app.evaluate((_electron, m) => (globalThis as any).permissionFixture.use(m), modes)
  const calls = (): Promise<Array<Call>> => app.evaluate(() => (globalThis as any).permissionFixture.calls)
  const requestNotifications = (): Promise<string> => page.evaluate(() => Notification.requestPermission())

  beforeAll(async () => {
    app = await launch(fixture("permissions"))
    page = await loadedFirstWindow(app, /index\.html$/)
  })

  afterAll(async () => {
    await app?.close()
  })

  it("without a request handler, Notification.requestPermission() resolves 'granted' (Electron's default)", async () => {
    await use({})
    expect(await requestNotifications()).toBe("granted")
    expect(await calls()).toEqual([])
  })

  it("the request handler gets the window's webContents, 'notifications' and details; callback(false) -> 'denied'", async () => {
    await use({ request: "deny" })
    expect(await requestNotifications()).toBe("denied")
    expect(await calls()).toEqual([
      { kind: "request", sameWindow: true, permission: "notifications", details: expect.objectContaining({ requestingUrl: page.url(), isMainFrame: true }) }
    ])
  })

  it("callback(true) -> 'granted', also for the deprecated callback argument", async () => {
    await use({ request: "allow" })
    expect(await requestNotifications()).toBe("granted")
    expect(await page.evaluate(() => new Promise((resolve) => void Notification.requestPermission(resolve)))).toBe("granted")
    expect((await calls()).map((call) => [call.kind, call.permission])).toEqual([
      ["request", "notifications"],
      ["request", "notifications"]
    ])
    await use({})
  })

  it("geolocation asks the handler ('geolocation'); denied, the page gets PERMISSION_DENIED", async () => {
    await use({ request: "deny" })
    const error = await page.evaluate(
      () =>
        new Promise((resolve) =>
          navigator.geolocation.getCurrentPosition(
            () => resolve("position"),
            (e) => resolve({ code: e.code, denied: e.code === e.PERMISSION_DENIED })
          )
        )
    )
    expect(error).toEqual({ code: 1, denied: true })
    expect((await calls()).map((call) => [call.kind, call.sameWindow, call.permission])).toEqual([["request", true, "geolocation"]])
    await use({})
  })

  it("getUserMedia asks the handler ('media' with mediaTypes): denied -> NotAllowedError, allowed -> a stream", async () => {
    const getUserMedia = () =>
      page.evaluate(() =>
        navigator.mediaDevices.getUserMedia({ audio: true, video: true }).then(
          (stream) => {
            const kinds = stream
              .getTracks()
              .map((track) => track.kind)
              .sort()
            stream.getTracks().forEach((track) => track.stop())
            return kinds.join(",")
          },
          (e: Error) => e.name
        )
      )
    await use({ request: "deny" })
    expect(await getUserMedia()).toBe("NotAllowedError")
    const [call] = await calls()
    expect(call).toMatchObject({ kind: "request", sameWindow: true, permission: "media", details: { isMainFrame: true, requestingUrl: page.url() } })
    expect([...(call!.details.mediaTypes as Array<string>)].sort()).toEqual(["audio", "video"])

    await use({ request: "allow" })
    expect(await getUserMedia()).toBe("audio,video")
    expect((await calls()).map((c) => c.permission)).toEqual(["media"])
    await use({})
  })

  it("without a check handler, navigator.permissions.query and Notification.permission answer 'granted'", async () => {
    await use({})
    const states = await page.evaluate(async () => ({
      notification: Notification.permission,
      notifications: (await navigator.permissions.query({ name: "notifications" })).state,
      geolocation: (await navigator.permissions.query({ name: "geolocation" })).state
    }))
    expect(states).toEqual({ notification: "granted", notifications: "granted", geolocation: "granted" })
  })

  it("the check handler answers navigator.permissions.query and Notification.permission", async () => {
    const read = () =>
      page.evaluate(async () => ({
        notification: Notification.permission,
        notifications: (await navigator.permissions.query({ name: "notifications" })).state,
        camera: (await navigator.permissions.query({ name: "camera" as PermissionName })).state
      }))
    // Notification.permission follows the check handler through a permission the main process sets in
    // Chromium over its own connection: read until it lands.
    await use({ check: "deny" })
    await expect.poll(read, { timeout: 10_000 }).toEqual({ notification: "denied", notifications: "denied", camera: "denied" })
    const checks = await calls()
    expect(
      checks.filter((call) => call.permission === "notifications" || call.permission === "media").every((call) => call.kind === "check" && call.sameWindow)
    ).toBe(true)
    expect(checks.find((call) => call.permission === "media")).toMatchObject({
      requestingOrigin: expect.stringMatching(/^file:/),
      details: { mediaType: "video", isMainFrame: true }
    })
    expect(checks.map((call) => call.permission)).toEqual(expect.arrayContaining(["notifications", "media"]))

    await use({ check: "allow" })
    await expect.poll(read, { timeout: 10_000 }).toEqual({ notification: "granted", notifications: "granted", camera: "granted" })
    await use({})
  })
})
