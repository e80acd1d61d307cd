/**
 * certificate-error on webContents and app, in the fixture app test/fixtures/electron-standin-tests/certificates
 * (Electron's real API only), against an https server of this test whose self-signed certificate is made at
 * set-up by the `openssl` CLI (nothing committed). Electron's default denies the certificate; a listener that
 * calls `event.preventDefault()` and `callback(true)` lets the page load.
 */
import type { ElectronApplication } from "playwright-core"
import { execFileSync } from "node:child_process"
import { createHash, X509Certificate } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixture, launch, runtime } from "./helpers.js"

type Seen = Record<string, any> & { on: "webContents" | "app"; url: string }

describe(`certificate-error on ${runtime.kind}`, () => {
  let app: ElectronApplication
  let server: Server
  let dir: string
  let origin: string
  let pem: string
  const requests: Array<string> = []

  const loadURL = (url: string): Promise<string> =>
    app.evaluate(
      ({ BrowserWindow }, target) =>
        BrowserWindow.getAllWindows()[0]!
          .loadURL(target)
          .then(
            () => "loaded",
            (error: any) => `${error.code} ${error.errno}`
          ),
      url
    )
  const state = (): Promise<{ seen: Array<Seen>; failures: Array<Record<string, unknown>> }> => app.evaluate(() => (globalThis as any).certFixture)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "standin-cert-"))
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=stagewright-standin-test/O=Stagewright Tests",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem")
      ],
      { stdio: "ignore", timeout: 30_000 }
    )
    pem = readFileSync(join(dir, "cert.pem"), "utf8")
    server = createServer({ key: readFileSync(join(dir, "key.pem")), cert: pem }, (request, response) => {
      requests.push(request.url ?? "")
      response.setHeader("content-type", "text/html")
      response.end(`<title>secure ${request.url}</title><p>served</p>`)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    app = await launch(fixture("certificates"))
    const page = await app.firstWindow()
    await page.waitForLoadState("load")
  })

  afterAll(async () => {
    await app?.close()
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
    server?.closeAllConnections()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it("without a listener the certificate is denied: the load fails with Electron's -202 ERR_CERT_AUTHORITY_INVALID", async () => {
    await expect(loadURL(`${origin}/unlistened`)).resolves.toBe("ERR_CERT_AUTHORITY_INVALID -202")
    expect((await state()).failures).toEqual([{ code: -202, description: "ERR_CERT_AUTHORITY_INVALID", url: `${origin}/unlistened`, isMainFrame: true }])
    expect(requests).not.toContain("/unlistened")
  })

  it("emits on the webContents, then on app, with the URL, the net error, the certificate and isMainFrame; callback(false) denies", async () => {
    await app.evaluate(() => (globalThis as any).certFixture.listen("/trusted"))
    await expect(loadURL(`${origin}/denied`)).resolves.toBe("ERR_CERT_AUTHORITY_INVALID -202")
    const { seen } = await state()
    expect(seen.length).toBeGreaterThanOrEqual(2)
    const [fromContents, fromApp] = seen
    const x509 = new X509Certificate(pem)
    expect(fromContents).toEqual({
      on: "webContents",
      url: `${origin}/denied`,
      error: "net::ERR_CERT_AUTHORITY_INVALID",
      isMainFrame: true,
      subjectName: "stagewright-standin-test",
      issuerName: "stagewright-standin-test",
      fingerprint: `sha256/${createHash("sha256").update(x509.raw).digest("base64")}`,
      data: expect.stringContaining(pem.trim().split("\n")[1]!),
      serialNumber: expect.stringMatching(/^[0-9A-Fa-f]+$/),
      validStart: Math.floor(Date.parse(x509.validFrom) / 1000),
      validExpiry: Math.floor(Date.parse(x509.validTo) / 1000),
      callbackType: "function"
    })
    expect(fromApp).toEqual({
      on: "app",
      url: `${origin}/denied`,
      error: "net::ERR_CERT_AUTHORITY_INVALID",
      isMainFrame: true,
      sameContents: true,
      trusted: false
    })
    expect(requests).not.toContain("/denied")
  })

  it("event.preventDefault() + callback(true) trusts the certificate: the page loads from the server", async () => {
    await expect(loadURL(`${origin}/trusted`)).resolves.toBe("loaded")
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getTitle())).toBe("secure /trusted")
    expect(requests).toContain("/trusted")
    expect((await state()).seen.filter((entry) => entry.on === "app" && entry.url === `${origin}/trusted`).every((entry) => entry.trusted)).toBe(true)
  })
})
