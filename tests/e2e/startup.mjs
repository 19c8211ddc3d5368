// Time from navigation start to the page's first full frame (window.fusionlab.ready),
// each run in a fresh browser context, so nothing is cached between runs, and
// the medians of the steps on the way (marks "fusionlab-<step>", src/web/main.cpp):
// app.wasm downloaded, main() entered, the WebGL context made, the state read
// from the URL and computed, the first frame laid out, the second drawn (ready).
// Usage: node startup.mjs [BASE_URL] [RUNS]
import { launch } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const runs = Number(process.argv[3] || 11);
const pages = [
  { name: "course page, 1280x720", url: base, width: 1280, height: 720 },
  { name: "embedded view, 800x450", url: `${base}?embed=1&view=decode`, width: 800, height: 450 },
];

const browser = await launch();
const rows = [];
for (const { name, url, width, height } of pages) {
  const times = [];
  const steps = {};  // step -> its times
  for (let i = 0; i < runs; ++i) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await page.goto(url);
    // The page marks its steps; marks count from the navigation's start.
    const marks = await page.evaluate(async () => {
      await window.fusionlab.ready;
      const out = { wasm: performance.getEntriesByType("resource").find((e) => e.name.endsWith("app.wasm"))?.responseEnd };
      for (const m of performance.getEntriesByType("mark"))
        if (m.name.startsWith("fusionlab-")) out[m.name.slice("fusionlab-".length)] = m.startTime;
      return out;
    });
    times.push(marks.ready);
    for (const [step, t] of Object.entries(marks)) (steps[step] ??= []).push(t);
    await context.close();
  }
  const median = (v) => Math.round([...v].sort((a, b) => a - b)[v.length >> 1]);
  times.sort((a, b) => a - b);
  rows.push({ name, runs, median_ms: Math.round(times[times.length >> 1]), min_ms: Math.round(times[0]),
              max_ms: Math.round(times[times.length - 1]),
              steps: Object.entries(steps).map(([step, v]) => `${step} ${median(v)}`).join(", ") });
}
await browser.close();
console.table(rows.map(({ steps, ...r }) => r));
for (const r of rows) {
  console.log(`first full frame, ${r.name}, median of ${r.runs}: ${r.median_ms} ms (target < 600 ms)`);
  console.log(`  medians of the steps (ms from navigation): ${r.steps}`);
}
