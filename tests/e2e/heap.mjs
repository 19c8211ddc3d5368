// Memory use over repeated analyses: the wasm heap's size after the first
// analyze() of the whole Llama-3.1-405B model and after N more. A leak would
// make the heap grow (wasm memory never shrinks, so any growth shows).
// Usage: node heap.mjs [BASE_URL] [N]
import { launch, openPage } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const runs = Number(process.argv[3] || 1000);
const config = { demo: 2, model: "llama-3.1-405b", layers: "all" };

const browser = await launch();
const page = await openPage(browser, base, { width: 1280, height: 720 });
const result = await page.evaluate(({ config, runs }) => {
  const heap = () => Module.HEAP8.length;
  const before = heap();
  fusionlab.analyze(config);
  const afterFirst = heap();
  const checkpoints = [];
  const t0 = performance.now();
  for (let i = 1; i <= runs; ++i) {
    fusionlab.analyze(config);
    if (i % (runs / 10) === 0) checkpoints.push(heap());
  }
  return { before, afterFirst, checkpoints, seconds: (performance.now() - t0) / 1000 };
}, { config, runs });
await browser.close();
const mb = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;
console.log(`wasm heap before: ${mb(result.before)}, after the first analysis: ${mb(result.afterFirst)}`);
console.log(`after each tenth of ${runs} more: ${result.checkpoints.map(mb).join(", ")}`);
console.log(`${runs} analyses in ${result.seconds.toFixed(1)} s`);
const grew = result.checkpoints[result.checkpoints.length - 1] - result.afterFirst;
console.log(grew === 0 ? "the heap did not grow after the first analysis" : `the heap grew by ${mb(grew)}`);
process.exit(grew === 0 ? 0 : 1);
