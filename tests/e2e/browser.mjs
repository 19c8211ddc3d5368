// Headless Chromium (Debian's) for the end-to-end tests and screenshots.
import { chromium } from "playwright-core";

// WebGL2 renders in software (SwiftShader) on machines without a GPU.
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
];

export function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

// Opens `url`, waits for window.fusionlab.ready and a few more frames.
// Console errors and page errors are collected into `errors`.
// Every request the page makes goes into `requests` (URLs); CSP violations
// are collected into window.__cspViolations and reported as errors.
export async function openPage(browser, url, { width, height, deviceScaleFactor = 1, errors = [], requests = [] } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor });
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => requests.push(r.url()));
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`);
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  await page.evaluate(() => window.fusionlab.ready);
  await afterFrames(page, 4);
  return page;
}

export function afterFrames(page, n) {
  return page.evaluate((count) => new Promise((resolve) => {
    const step = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(count);
  }), n);
}
