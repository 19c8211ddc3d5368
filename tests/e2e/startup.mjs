// Time from navigation start to the page's first full frame (window.fusionlab.ready),
// each run in a fresh browser context, so nothing is cached between runs.
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
  for (let i = 0; i < runs; ++i) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await page.goto(url);
    // The page marks its first full frame; marks count from the navigation's start.
    times.push(await page.evaluate(async () => {
      await window.fusionlab.ready;
      return performance.getEntriesByName("fusionlab-ready")[0].startTime;
    }));
    await context.close();
  }
  times.sort((a, b) => a - b);
  rows.push({ name, runs, median_ms: Math.round(times[times.length >> 1]), min_ms: Math.round(times[0]),
              max_ms: Math.round(times[times.length - 1]) });
}
await browser.close();
console.table(rows);
for (const r of rows) console.log(`first full frame, ${r.name}, median of ${r.runs}: ${r.median_ms} ms (target < 600 ms)`);
