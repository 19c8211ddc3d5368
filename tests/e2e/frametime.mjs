// Frame times of the page's views in headless Chromium, idle and while the
// graph view is dragged (panned), as medians over N frames each: the time
// between animation frames, and the main thread's time in the page's frame
// (getExplain().frame_cpu_ms) and, within it, building the UI (ui_ms: panels,
// layout, chart geometry, without ImGui's GL submission, where a software
// renderer makes the main thread wait).
// Usage: node frametime.mjs [BASE_URL] [FRAMES]
// Headless Chromium draws WebGL in software (SwiftShader) on a machine
// without a GPU: compare the views with each other, not with a real browser.
import { launch, openPage } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const frames = Number(process.argv[3] || 60);
const cases = [
  { name: "partition table (demo 1)", query: "view=kernels&lang=en" },
  { name: "prefill, one Llama-3.1-8B layer", query: "view=prefill&lang=en" },
  { name: "prefill, whole Llama-3.1-405B", query: "view=prefill&lang=en&model=llama-3.1-405b&layers=all" },
  { name: "graph view, one Llama-3.1-8B layer (decompose)", query: "view=passes&lang=en&stage=decompose&model=llama-3.1-8b", pan: true },
  { name: "graph view, whole Llama-3.1-405B (decompose)", query: "view=passes&lang=en&stage=decompose&model=llama-3.1-405b&layers=all", pan: true },
  { name: "roofline with arrows, whole Llama-3.1-405B", query: "view=roofline&lang=en&partition=2&arrows=1&model=llama-3.1-405b&layers=all" },
  { name: "timeline, whole Llama-3.1-405B", query: "view=timeline&lang=en&model=llama-3.1-405b&layers=all" },
];

// Median time between animation frames over `n` frames; with `pan`, the
// mouse drags across the graph meanwhile.
async function measure(page, n, pan) {
  const timing = page.evaluate((count) => new Promise((resolve) => {
    const out = [];
    let last = performance.now();
    const step = (now) => {
      out.push(now - last);
      last = now;
      if (out.length < count) requestAnimationFrame(step);
      else resolve(out);
    };
    requestAnimationFrame(step);
  }), n);
  if (pan) {
    const [x, y, w, h] = (await page.evaluate(() => fusionlab.getExplain())).widgets.graph;
    await page.mouse.move(x + w / 2, y + h / 2);
    await page.mouse.down();
    for (let i = 0; i < n; ++i) await page.mouse.move(x + w / 2 + 100 * Math.sin(i / 8), y + h / 2 + 60 * Math.cos(i / 8));
    await page.mouse.up();
  }
  const deltas = (await timing).sort((a, b) => a - b);
  const e = await page.evaluate(() => fusionlab.getExplain());
  return [deltas[deltas.length >> 1], e.frame_cpu_ms, e.ui_ms];
}

const browser = await launch();
const rows = [];
for (const c of cases) {
  const page = await openPage(browser, `${base}?${c.query}`, { width: 1280, height: 720 });
  const row = { view: c.name };
  [row.idle_frame_ms, row.idle_cpu_ms, row.idle_ui_ms] = await measure(page, frames, false);
  if (c.pan) [row.panning_frame_ms, row.panning_cpu_ms, row.panning_ui_ms] = await measure(page, frames, true);
  rows.push(row);
  await page.close();
}
await browser.close();
for (const r of rows) for (const k of Object.keys(r)) if (typeof r[k] === "number") r[k] = Number(r[k].toFixed(1));
console.table(rows);
