// Screenshots of every view, in Chinese and English, at 1280×720, in an
// 800×450 embed and on a phone (390×844, 844×390), into artifacts/. Usage: node screenshots.mjs [BASE_URL]
import { mkdirSync } from "node:fs";
import { launch, openPage } from "./browser.mjs";

const base = process.argv[2] || "http://127.0.0.1:8000/";
const out = new URL("./artifacts/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const views = ["kernels", "prefill", "decode", "ablation", "passes", "roofline", "timeline", "sweep", "reality", "compilers", "source"];
const shots = [];
for (const lang of ["zh", "en"])
  for (const view of views) {
    shots.push({ name: `${view}-${lang}-1280x720`, query: `view=${view}&lang=${lang}`, width: 1280, height: 720 });
    shots.push({ name: `${view}-${lang}-embed-800x450`, query: `view=${view}&lang=${lang}&embed=1`, width: 800, height: 450 });
    shots.push({ name: `${view}-${lang}-phone-390x844`, query: `view=${view}&lang=${lang}`, width: 390, height: 844 });
    shots.push({ name: `${view}-${lang}-phone-844x390`, query: `view=${view}&lang=${lang}`, width: 844, height: 390 });
  }
for (const lang of ["zh", "en"])
  shots.push({ name: `prefill-405b-${lang}-1280x720`, query: `view=prefill&model=llama-3.1-405b&layers=all&hardware=b200&lang=${lang}`, width: 1280, height: 720 });
for (const lang of ["zh", "en"])
  shots.push({ name: `prefill-inductor-${lang}-1280x720`, query: `view=prefill&attention=math&compiler=inductor&hardware=h200&partition=inductor&lang=${lang}`, width: 1280, height: 720 });
shots.push({ name: "embed-example", path: "embed-example.html", width: 900, height: 1100 });

const browser = await launch();
const errors = [];
for (const s of shots) {
  const url = s.path ? base + s.path : `${base}?${s.query}`;
  const page = s.path
    ? await browser.newPage({ viewport: { width: s.width, height: s.height } })
    : await openPage(browser, url, { width: s.width, height: s.height, errors });
  if (s.path) {
    await page.goto(url);
    await page.waitForTimeout(3000);
  }
  await page.screenshot({ path: `${out}${s.name}.png` });
  await page.close();
  console.log(`${s.name}.png`);
}
await browser.close();
if (errors.length) {
  console.error("console errors:\n" + errors.join("\n"));
  process.exit(1);
}
