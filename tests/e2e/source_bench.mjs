// One keystroke in the source view, in headless Chromium: the edited source
// given to the page (setState: read and checked, the configuration key
// `source`), then the next frame's recompute (the prefill compiled, costed and
// reported). Each of 11 edits is a new text (a comment added), so nothing is
// reused. Prints the medians. Usage: node source_bench.mjs [BASE_URL]
import fs from "node:fs";
import { launch } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const models = new URL("../../examples/models/", import.meta.url).pathname;
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(`${base}?view=source&lang=en`);
await page.evaluate(async () => { await window.fusionlab.ready; });
for (const file of ["gpt2.fl", "ungated-mlp.fl"]) {
  const source = fs.readFileSync(models + file, "utf8");
  const apply = [], recompute = [];
  for (let i = 0; i < 11; ++i) {
    apply.push(await page.evaluate((s) => {
      const t0 = performance.now();
      window.fusionlab.setState({ source: s });
      return performance.now() - t0;
    }, `${source}\n# edit ${i}\n`));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    recompute.push((await page.evaluate(() => window.fusionlab.getExplain())).recompute_ms);
  }
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const a = median(apply), r = median(recompute);
  console.log(`${file}: read and checked ${a.toFixed(2)} ms + compiled, costed, reported ${r.toFixed(2)} ms = ${(a + r).toFixed(2)} ms (target < 5 ms)`);
}
await browser.close();
