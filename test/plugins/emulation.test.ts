/**
 * The emulation plugin end to end over MCP: the theme of `tasks` (its indicator follows
 * prefers-color-scheme) and of `framework` (React, body[data-theme]), media features, zoom, time zone and
 * locale, each read back from the app.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { inMemoryClient, type TestClient } from "../support/mcp.js"
import { launchApp, textUntil } from "./support.js"

let mcp: TestClient

beforeAll(async () => {
  mcp = await inMemoryClient({ toolProfile: "full", plugins: ["emulation"] })
  await launchApp(mcp)
}, 120_000)

afterAll(async () => {
  await mcp?.close()
})

describe("emulation plugin on tasks", () => {
  it("electron_emulation_theme sets nativeTheme.themeSource; the window's scheme and the app's indicator follow", async () => {
    const dark = await mcp.call("electron_emulation_theme", { theme: "dark" })
    expect(dark.isError, dark.text).toBe(false)
    expect(dark.structured).toMatchObject({ themeSource: "dark", shouldUseDarkColors: true, windows: [{ window: "w1", colorScheme: "dark" }] })
    expect(await textUntil(mcp, "theme-indicator", (t) => t === "Theme: dark")).toBe("Theme: dark")
    const light = await mcp.call("electron_emulation_theme", { theme: "light" })
    expect(light.structured).toMatchObject({ themeSource: "light", shouldUseDarkColors: false, windows: [{ colorScheme: "light" }] })
    expect(await textUntil(mcp, "theme-indicator", (t) => t === "Theme: light")).toBe("Theme: light")
    const read = await mcp.call("electron_emulation_theme")
    expect(read.text).toContain("themeSource=light")
    const bad = await mcp.call("electron_emulation_theme", { theme: "blue" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
  })

  it("electron_emulation_reduced_motion emulates media features in the page without touching the theme", async () => {
    expect((await mcp.call("electron_emulation_theme", { theme: "dark" })).isError).toBe(false)
    const reduced = await mcp.call("electron_emulation_reduced_motion", { reducedMotion: "reduce", contrast: "more" })
    expect(reduced.isError, reduced.text).toBe(false)
    expect(reduced.structured.windows[0]).toMatchObject({ window: "w1", reducedMotion: "reduce", contrast: "more", forcedColors: "none" })
    const theme = await mcp.call("electron_emulation_theme")
    expect(theme.structured.windows[0].colorScheme).toBe("dark")
    const back = await mcp.call("electron_emulation_reduced_motion", { reducedMotion: "default", contrast: "default" })
    expect(back.structured.windows[0]).toMatchObject({ reducedMotion: "no-preference", contrast: "no-preference" })
    expect(back.structured.overrides).toEqual({})
    const bad = await mcp.call("electron_emulation_reduced_motion", { reducedMotion: "slow" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_emulation_theme", { theme: "system" })).isError).toBe(false)
  })

  it("electron_emulation_zoom sets the window's zoom factor and reads it back from webContents", async () => {
    const zoomed = await mcp.call("electron_emulation_zoom", { factor: 1.5 })
    expect(zoomed.isError, zoomed.text).toBe(false)
    expect(zoomed.structured).toMatchObject({ window: "w1", zoomFactor: 1.5 })
    expect((await mcp.call("electron_emulation_zoom")).structured.zoomFactor).toBe(1.5)
    expect((await mcp.call("electron_emulation_zoom", { factor: 1 })).structured.zoomFactor).toBe(1)
    expect((await mcp.call("electron_emulation_zoom", { factor: 10 })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_emulation_zoom", { window: "w99" })).code).toBe("WINDOW_NOT_FOUND")
  })

  it("electron_emulation_timezone changes the time zone the page's Intl and Date report", async () => {
    const tokyo = await mcp.call("electron_emulation_timezone", { timezone: "Asia/Tokyo" })
    expect(tokyo.isError, tokyo.text).toBe(false)
    expect(tokyo.structured.windows[0]).toEqual({ window: "w1", timeZone: "Asia/Tokyo", utcOffsetMinutes: 540 })
    // A window opened afterwards gets the override too (and the same media overrides).
    expect((await mcp.call("electron_click", { target: "testid=open-settings" })).isError).toBe(false)
    const settings = await mcp.call("electron_wait_for_window", { title: "Settings", select: false })
    expect(settings.isError, settings.text).toBe(false)
    let both = await mcp.call("electron_emulation_timezone")
    for (let i = 0; i < 30 && both.structured.windows.some((w: any) => w.timeZone !== "Asia/Tokyo"); i++) {
      await new Promise((r) => setTimeout(r, 100))
      both = await mcp.call("electron_emulation_timezone")
    }
    expect(both.structured.windows.map((w: any) => [w.window, w.timeZone])).toEqual([
      ["w1", "Asia/Tokyo"],
      [settings.structured.window.id, "Asia/Tokyo"]
    ])
    expect((await mcp.call("electron_window_close", { window: settings.structured.window.id })).isError).toBe(false)
    const reset = await mcp.call("electron_emulation_timezone", { timezone: "system" })
    expect(reset.structured.windows[0].timeZone).not.toBe("Asia/Tokyo")
    const bad = await mcp.call("electron_emulation_timezone", { timezone: "Mars/Olympus" })
    expect(bad.code).toBe("INVALID_ARGUMENT")
    expect(bad.text).toContain("timezone")
  })

  it("electron_emulation_locale reads the locale, says a new one applies at the next launch, and relaunches with it", async () => {
    const read = await mcp.call("electron_emulation_locale")
    expect(read.isError, read.text).toBe(false)
    const before = read.structured.appLocale
    const pending = await mcp.call("electron_emulation_locale", { locale: "fr" })
    expect(pending.text).toContain("Not applied")
    expect(pending.structured.appLocale).toBe(before)
    const relaunched = await mcp.call("electron_emulation_locale", { locale: "fr", relaunch: true })
    expect(relaunched.isError, relaunched.text).toBe(false)
    expect(relaunched.structured).toMatchObject({ appLocale: "fr", language: "fr", applied: true })
    expect((await mcp.call("electron_emulation_locale", { locale: "not a locale!" })).code).toBe("INVALID_ARGUMENT")
    expect((await mcp.call("electron_emulation_locale", { relaunch: true })).code).toBe("INVALID_ARGUMENT")
  })
})

describe("emulation plugin on framework", () => {
  it("electron_launch takes locale; the React app's theme follows electron_emulation_theme", async () => {
    await launchApp(mcp, "framework", { locale: "de" })
    const locale = await mcp.call("electron_emulation_locale")
    expect(locale.structured).toMatchObject({ appLocale: "de", language: "de" })
    const dark = await mcp.call("electron_emulation_theme", { theme: "dark" })
    expect(dark.structured.windows[0].colorScheme).toBe("dark")
    const body = await mcp.call("electron_wait_for", { target: 'css=body[data-theme="dark"]' })
    expect(body.isError, body.text).toBe(false)
    const light = await mcp.call("electron_emulation_theme", { theme: "light" })
    expect(light.structured.windows[0].colorScheme).toBe("light")
    expect((await mcp.call("electron_wait_for", { target: 'css=body[data-theme="light"]' })).isError).toBe(false)
    const badLaunch = await mcp.call("electron_launch", { app: "x", locale: "??" })
    expect(badLaunch.code).toBe("INVALID_ARGUMENT")
  })
})
