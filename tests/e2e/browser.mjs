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
export async function openPage(browser, url, { width, height, deviceScaleFactor = 1, hasTouch = false, errors = [], requests = [] } = {}) {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor, hasTouch });
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

// Pixel statistics of a screenshot, decoded by the browser itself: distinct
// colours, luminance spread, how many pixels have the chart bars' blue, and
// the image's size.
export async function pixelStats(page, png) {
  return page.evaluate(async (dataUrl) => {
    const img = new Image();
    img.src = dataUrl;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const colors = new Set();
    let sum = 0, sumSq = 0, barBlue = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      const y = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += y;
      sumSq += y * y;
      colors.add((r << 16) | (g << 8) | b);
      if (Math.abs(r - 52) < 8 && Math.abs(g - 101) < 8 && Math.abs(b - 164) < 8) ++barBlue;
    }
    const n = data.length / 4;
    return { colors: colors.size, mean: sum / n, stddev: Math.sqrt(sumSq / n - (sum / n) ** 2), barBlue, width: c.width, height: c.height };
  }, "data:image/png;base64," + png.toString("base64"));
}

// WCAG's contrast ratio between a control's outline and the panel around it:
// the widget's left square (a radio button's circle, a checkbox), or for an
// input its left edge only (`edgeOnly`: no text), with a 3 px margin; the
// margin's corner is the panel, the pixel that differs most from it (darker
// on a light theme, lighter on a dark one) the outline.
export async function outlineContrast(page, rect, { edgeOnly = false } = {}) {
  const [x, y, , h] = rect;
  const png = await page.screenshot({ clip: { x: x - 3, y: y - 3, width: edgeOnly ? 6 : h + 6, height: h + 6 } });
  return page.evaluate(async (dataUrl) => {
    const img = new Image();
    img.src = dataUrl;
    await img.decode();
    const c = document.createElement("canvas");
    [c.width, c.height] = [img.width, img.height];
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    const linear = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    const lum = (i) => 0.2126 * linear(data[i]) + 0.7152 * linear(data[i + 1]) + 0.0722 * linear(data[i + 2]);
    const panel = lum(0);
    let ratio = 1;
    for (let i = 0; i < data.length; i += 4) {
      const l = lum(i);
      ratio = Math.max(ratio, (Math.max(l, panel) + 0.05) / (Math.min(l, panel) + 0.05));
    }
    return ratio;
  }, "data:image/png;base64," + png.toString("base64"));
}

// ImGui takes one key change per frame (a key's down and up, a character, the
// next key: up to four frames for "6" then Enter), and applies a field the
// frame after it loses focus: frames to wait after typing.
export const kKeyFrames = 8;

// Clicks the sidebar's input for `key` until the page reports it active
// (a click can land before the canvas takes input), then types `text`
// (the click selects the whole number, so `text` replaces it) and, unless
// `enter` is false, presses Enter. Returns whether the field became active.
// Clicks the sidebar's input for `key` until it holds the keyboard (a click
// can land before the page's first frames have laid the sidebar out).
// Returns false when the page has no such input or it never took focus.
export async function focusInput(page, key) {
  const explain = () => page.evaluate(() => window.fusionlab.getExplain());
  for (let attempt = 0; attempt < 5; attempt++) {
    const r = (await explain()).widgets[`input.${key}`];
    if (!r) return false;
    await page.mouse.click(r[0] + r[2] / 2, r[1] + r[3] / 2);
    await afterFrames(page, 3);
    if ((await explain()).active_input === key) return true;
  }
  return false;
}

export async function typeIntoInput(page, key, text, { enter = true } = {}) {
  if (!(await focusInput(page, key))) return false;
  await page.keyboard.press("Control+A");  // replace the text, whatever the activation selected
  await page.keyboard.type(text);
  if (enter) {
    await page.keyboard.press("Enter");
    await afterFrames(page, kKeyFrames);
  }
  return true;
}

// Drags the sidebar's input for `key` sideways by `dx` CSS px in `steps`
// moves, a frame apart (Shift held if `shift`); calls `during(state)` after
// each move. Returns false when the page has no such input.
export async function dragInput(page, key, dx, { steps = 8, shift = false, during = async () => {} } = {}) {
  const r = (await page.evaluate(() => window.fusionlab.getExplain())).widgets[`input.${key}`];
  if (!r) return false;
  const [x, y] = centreOf(r);
  await page.mouse.move(x, y);
  if (shift) await page.keyboard.down("Shift");
  await page.mouse.down();
  // A hand's press lasts a frame or more before it moves. (A press and a move read in one
  // slow frame measure the drag from the moved point: seen once in CI, open.)
  await afterFrames(page, 2);
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x + (dx * i) / steps, y);
    await afterFrames(page, 2);
    await during(await page.evaluate(() => window.fusionlab.getState()));
  }
  await page.mouse.up();
  if (shift) await page.keyboard.up("Shift");
  await afterFrames(page, 3);
  return true;
}

// The centre of a recorded widget rectangle [x, y, width, height].
export const centreOf = (r) => [r[0] + r[2] / 2, r[1] + r[3] / 2];

// A finger (Chromium's touch input, as a phone sends it) pressed at `from`,
// moved to `to` in `steps` and lifted; a frame or two between each.
export async function touchDrag(page, from, to = from, { steps = 8 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const at = ([x, y]) => ({ touchPoints: [{ x, y }] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", ...at(from) });
  await afterFrames(page, 2);
  for (let i = 1; i <= steps && (to[0] !== from[0] || to[1] !== from[1]); i++) {
    const t = i / steps;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", ...at([from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t]) });
    await afterFrames(page, 2);
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await afterFrames(page, 3);
  await cdp.detach();
}

// The page's state once `ok(state)` holds, polled for up to `ms` (software
// WebGL on a busy machine can take hundreds of ms a frame); the last state if never.
export async function stateWhen(page, ok, ms = 8000) {
  const until = Date.now() + ms;
  for (;;) {
    const state = await page.evaluate(() => fusionlab.getState());
    if (ok(state) || Date.now() > until) return state;
    await afterFrames(page, 1);
  }
}
