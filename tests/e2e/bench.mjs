// Median time of window.fusionlab.analyze() in headless Chromium: Llama-3.1-8B
// prefill (demo 2) at several T, and the other demos. analyze() keeps the
// graphs of the last model it compiled (compile once, cost many), so calls
// that change only T, S or the batch measure, cost and write JSON; a call
// that changes what the trace depends on (here the FFN width) compiles anew.
// Usage: node bench.mjs [BASE_URL] [RUNS] [WHOLE_RUNS]
import { afterFrames, launch, openPage } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const runs = Number(process.argv[3] || 41);
const batch = 10;  // calls timed together: performance.now() here counts in steps of 0.1 ms
const configs = [
  { name: "demo 2, T = 16", calls: [{ demo: 2, tokens: 16 }] },
  { name: "demo 2, T = 2048", calls: [{ demo: 2, tokens: 2048 }] },
  { name: "demo 2, T = 8192", calls: [{ demo: 2, tokens: 8192 }] },
  { name: "demo 2, T alternating 16 / 8192", calls: [{ demo: 2, tokens: 16 }, { demo: 2, tokens: 8192 }] },
  { name: "demo 2, FFN alternating 14336 / 14464: traced, optimised and fused at each call",
    calls: [{ demo: 2, ffn: 14336 }, { demo: 2, ffn: 14464 }] },
  { name: "demo 1", calls: [{ demo: 1 }] },
  { name: "demo 3", calls: [{ demo: 3 }] },
  { name: "demo 4", calls: [{ demo: 4 }] },
];

const browser = await launch();
const page = await openPage(browser, base, { width: 1280, height: 720 });
const results = await page.evaluate(({ configs, runs, batch }) => configs.map(({ name, calls }) => {
  fusionlab.analyze(calls[0]);  // warm-up: the first call compiles the hot paths
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const t0 = performance.now();
    for (let j = 0; j < batch; ++j) fusionlab.analyze(calls[(i * batch + j) % calls.length]);
    times.push((performance.now() - t0) / batch);
  }
  times.sort((a, b) => a - b);
  return { name, median_ms: times[times.length >> 1], min_ms: times[0] };
}), { configs, runs, batch });
// Whole models: ~20 runs each (the 405B takes a while).
const wholeRuns = Number(process.argv[4] || 20);
const whole = [
  { name: "Llama-3.1-405B, whole model (126 layers), demo 2, graphs kept from the first call", config: { demo: 2, model: "llama-3.1-405b", layers: "all" } },
  { name: "Llama-3.1-8B, one layer, demo 2, graphs kept from the first call", config: { demo: 2, model: "llama-3.1-8b", layers: "one" } },
];
const wholeResults = await page.evaluate(({ whole, runs }) => whole.map(({ name, config }) => {
  fusionlab.analyze(config);
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const t0 = performance.now();
    fusionlab.analyze(config);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { name, runs, median_ms: times[times.length >> 1], min_ms: times[0], max_ms: times[times.length - 1] };
}), { whole, runs: wholeRuns });
// A 64-point sweep of one Llama-3.1-8B layer (fusionlab.sweep: the sweep
// chart's computation, and its JSON), over T and over S.
const sweeps = await page.evaluate(({ runs }) => [{ demo: 2, sweep: "tokens" }, { demo: 3, sweep: "kv_len" }].map((config) => {
  fusionlab.sweep(config);
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const t0 = performance.now();
    fusionlab.sweep(config);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { name: `sweep() ${JSON.stringify(config)}, 64 points`, runs, median_ms: times[times.length >> 1], min_ms: times[0] };
}), { runs });
// The page's own recompute after an edit (prefill and decode, all four
// partitions each, parsed for the views): setState, then the next frames.
const recomputeRuns = Math.max(5, Math.min(wholeRuns, 11));
const recompute = [];
for (const [name, base, values] of [
  ["page recompute, one Llama-3.1-8B layer, T alternating 16 / 8192", { view: "prefill", model: "llama-3.1-8b", layers: "one" }, [16, 8192]],
  ["page recompute, whole Llama-3.1-405B, T alternating 2048 / 4096", { view: "prefill", model: "llama-3.1-405b", layers: "all" }, [2048, 4096]],
]) {
  const times = [];
  for (let i = 0; i <= recomputeRuns; ++i) {
    await page.evaluate((state) => window.fusionlab.setState(state), { ...base, tokens: values[i % 2] });
    await afterFrames(page, 2);
    if (i > 0) times.push((await page.evaluate(() => window.fusionlab.getExplain())).recompute_ms);  // 0: warm-up
  }
  times.sort((a, b) => a - b);
  recompute.push({ name, runs: times.length, median_ms: times[times.length >> 1], min_ms: times[0], max_ms: times[times.length - 1] });
}
await browser.close();
console.table(results);
console.table(recompute);
console.table(wholeResults);
for (const r of sweeps) console.log(`${r.name}, median of ${r.runs}: ${r.median_ms.toFixed(2)} ms`);
for (const r of recompute) console.log(`${r.name}, median of ${r.runs}: ${r.median_ms.toFixed(1)} ms`);
for (const r of wholeResults) console.log(`analyze() ${r.name}, median of ${r.runs}: ${r.median_ms.toFixed(2)} ms`);
for (const r of results) console.log(`analyze() Llama-3.1-8B ${r.name}, median of ${runs} x ${batch} calls: ${r.median_ms.toFixed(3)} ms`);
