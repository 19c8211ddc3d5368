// window.fusionlab: the page's JavaScript API, and the Emscripten Module that
// app.js (the compiled C++) picks up.
//
//   await fusionlab.ready                 resolves after the page's first full frame
//   fusionlab.analyze({demo: 2, model: "llama-3.1-405b", layers: "all"})
//                                         the object `fusionlab --demo 2 --json ...` prints.
//                                         Keys: the CLI's options with underscores: demo, lang,
//                                         model, hardware, d, heads, kv_heads, head_dim, ffn,
//                                         layers (one|all|N), tokens, kv_len, batch, dtype,
//                                         weights_dtype, attention, matmul_tflops, other_tflops,
//                                         bandwidth_tbs, launch_us, graph_launch_us, memory_gb.
//                                         Throws an Error (with .field, the key) if invalid.
//                                         Keeps the last model's compiled graphs: calls that change
//                                         only tokens, kv_len, batch or the GPU trace and fuse once.
//   fusionlab.sweep({demo: 2, sweep: "tokens", points: 64, from: 1, to: 131072, ...config})
//                                         the object `fusionlab --sweep tokens --json ...` prints:
//                                         the four partitions at each point, and where the picture
//                                         changes. sweep: tokens (prefill), kv_len (decode) or batch.
//   fusionlab.getState()                  {view, lang, model, tokens, ...} as in the URL
//   fusionlab.setState({view: "decode", kv_len: 8192})
//                                         applies all keys or, if one is invalid, none (throws)
//   fusionlab.messages()                  {url_warning, error, field}: what the page shows
(function () {
  "use strict";

  const FONT_URL = "fonts/ui-font.otf";
  const CALLS = {
    analyze: "apiAnalyze", sweep: "apiSweep", getState: "apiGetState", setState: "apiSetState",
    throwNextFrame: "apiThrowNextFrame", messages: "apiMessages", typeNumber: "apiTypeNumber",
  };

  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  // Fetched while the wasm downloads; main() waits for it (a run dependency).
  const fontBytes = fetch(FONT_URL)
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);

  // The C++ side (src/web/bindings.cpp, embind) takes JSON text and answers
  // {"result": ...} or {"error": "...", "field": "..."}.
  function call(name, argument) {
    const fn = Module[CALLS[name]];
    if (!fn || !Module.calledRun) throw new Error("fusionlab: not ready yet (await fusionlab.ready)");
    const reply = JSON.parse(fn(argument === undefined ? "" : JSON.stringify(argument)));
    if ("error" in reply) {
      const error = new Error(reply.error);
      if (reply.field) error.field = reply.field;
      throw error;
    }
    return reply.result;
  }

  function showStatus(text) {
    const status = document.getElementById("status");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  // A C++ exception that escaped a frame (src/web/main.cpp): its message.
  function showError(message) {
    const panel = document.getElementById("error-panel");
    if (!panel) return;
    document.getElementById("error-message").textContent = message;
    panel.hidden = false;
  }

  // [SECTION] Touch. Emscripten's GLFW reads no position from a touch: it
  // presses at the last mouse position, and the browser then sends mouse
  // events of its own after the finger lifts, so a tap would press twice, the
  // first time where the previous tap was. The canvas's touches are taken here
  // (no native scrolling or zoom either) and replayed as one mouse at the
  // first finger; Module.flTouch tells the C++ side that the press is a
  // finger's, whose drag scrolls (src/web/touch_scroll.cpp).
  function replayTouches(canvas) {
    let finger = null;  // the identifier of the finger that drives the mouse
    let downAt = null;  // where it came down: a tap lifts within the armed field's tapSlopPx
    const send = (type, touch, buttons) => canvas.dispatchEvent(new MouseEvent(type, {
      clientX: touch.clientX, clientY: touch.clientY, button: 0, buttons, bubbles: true, cancelable: true,
    }));
    const ours = (event) => [...event.changedTouches].find((t) => t.identifier === finger);
    const handlers = {
      touchstart: (event) => {
        if (finger !== null) return;  // a second finger: ignored
        const touch = event.changedTouches[0];
        finger = touch.identifier;
        downAt = [touch.clientX, touch.clientY];
        Module.flTouch = 1;
        Module.flArmedField = null;
        closeNumberInput();  // a touch on the canvas leaves the text box (its text applied)
        send("mousemove", touch, 0);
        send("mousedown", touch, 1);
      },
      touchmove: (event) => {
        const touch = ours(event);
        if (touch) send("mousemove", touch, 1);
      },
      touchend: (event) => {
        const touch = ours(event);
        if (!touch) return;
        finger = null;
        send("mouseup", touch, 0);
        // A tap on a number: its text box opens now, while the finger is
        // still the page's (the soft keyboard needs that).
        const armed = Module.flArmedField;
        if (armed && event.type === "touchend" &&
            Math.hypot(touch.clientX - downAt[0], touch.clientY - downAt[1]) < armed.tapSlopPx) openNumberInput(armed);
        Module.flArmedField = null;
      },
    };
    handlers.touchcancel = handlers.touchend;
    for (const [type, handle] of Object.entries(handlers)) {
      window.addEventListener(type, (event) => {
        if (event.target !== canvas) return;
        event.preventDefault();
        event.stopPropagation();  // GLFW's own touch handlers on the canvas never see it
        handle(event);
      }, { capture: true, passive: false });
    }
    // A real mouse (or pen) press is no finger's.
    window.addEventListener("mousedown", (event) => { if (event.isTrusted) Module.flTouch = 0; }, true);
  }

  // Keys typed into the page's own text boxes (the number box, the copy
  // dialog) are theirs: GLFW's window-wide key handlers, registered later,
  // would also send them to the canvas and keep Tab and Backspace from them.
  // Stopped here, before they reach the box, so the box's keys are handled here too.
  for (const type of ["keydown", "keypress", "keyup"]) {
    window.addEventListener(type, (event) => {
      if (!(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement)) return;
      event.stopImmediatePropagation();
      if (type === "keydown" && event.target === numberInput) numberInput.onKey(event.key);
    }, true);
  }

  // The text box over a number field for a finger (src/web/platform.h,
  // SoftInputField): a real <input>, so a phone opens its soft keyboard.
  // Its text is applied as typed into the field (typeNumber) after a pause,
  // on Enter and when it closes; a refused text stays, marked, with the
  // canvas saying why under the field. Escape closes it unapplied.
  const kApplyPauseMs = 1000;
  let numberInput = null;
  function openNumberInput(field) {
    if (numberInput && numberInput.dataset.key === field.key) return;
    closeNumberInput();
    const box = document.createElement("input");
    Object.assign(box, { type: "text", inputMode: "decimal", value: field.value, id: "number-input" });
    box.dataset.key = field.key;
    box.setAttribute("aria-label", field.key);
    box.autocomplete = "off";
    Object.assign(box.style, {
      left: `${field.x}px`, top: `${field.y}px`, width: `${field.width}px`, height: `${field.height}px`,
      fontSize: `${Math.max(16, field.fontPx)}px`,  // under 16 px a phone zooms the page in
    });
    let applied = field.value, timer = 0;
    const apply = () => {
      clearTimeout(timer);
      if (box.value === applied) return;
      applied = box.value;
      Module.flInput = 1;
      const { error } = call("typeNumber", { key: field.key, text: box.value });
      box.setAttribute("aria-invalid", error ? "true" : "false");
      box.title = error;
    };
    box.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(apply, kApplyPauseMs);
    });
    box.onKey = (key) => {
      if (key === "Enter") { apply(); closeNumberInput(); }
      if (key === "Escape") { applied = box.value; closeNumberInput(); }
    };
    box.addEventListener("blur", () => { apply(); if (numberInput === box) closeNumberInput(); });
    box.close = () => { clearTimeout(timer); box.remove(); };
    numberInput = box;
    document.body.appendChild(box);
    box.focus();
    box.select();
  }
  function closeNumberInput() {
    const box = numberInput;
    numberInput = null;
    if (box) { box.blur(); box.close(); }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const canvas = document.getElementById("canvas");
    replayTouches(canvas);
    canvas.addEventListener("contextmenu", (event) => event.preventDefault());
    const dismiss = document.getElementById("error-dismiss");
    if (dismiss) dismiss.addEventListener("click", () => { document.getElementById("error-panel").hidden = true; });
  });

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

  window.fusionlab = {
    ready,
    analyze: (config) => {
      if (config !== undefined && !isObject(config)) throw new TypeError("fusionlab.analyze(config): config must be an object");
      return call("analyze", config ?? {});
    },
    sweep: (config) => {
      if (config !== undefined && !isObject(config)) throw new TypeError("fusionlab.sweep(config): config must be an object");
      return call("sweep", config ?? {});
    },
    getState: () => call("getState"),
    setState: (state) => {
      if (!isObject(state)) throw new TypeError("fusionlab.setState(state): state must be an object");
      Module.flInput = 1;  // the page draws the new state (idle frames are skipped)
      call("setState", state);
    },
    // The messages the page shows: {url_warning, error, field} (the refused input's).
    messages: () => call("messages"),
    // For tests: the next frame throws `message` as a C++ exception.
    debug: {
      throwNextFrame: (message) => {
        Module.flInput = 1;
        call("throwNextFrame", String(message ?? ""));
      },
    },
  };

  // [SECTION] The explain views (src/web/explain.cpp): their state, and the
  // export helpers the C++ side calls (a file download, a PNG from a chart's
  // RGBA pixels, the page's link on the clipboard).
  function explainCall(name, argument) {
    if (!Module[name]) throw new Error("fusionlab: not ready yet (await fusionlab.ready)");
    const reply = JSON.parse(argument === undefined ? Module[name]() : Module[name](argument));
    if ("error" in reply) throw new Error(reply.error);
    return reply.result;
  }
  window.fusionlab.getExplain = () => explainCall("explainStateJson");
  window.fusionlab.setExplain = (state) => {
    Module.flInput = 1;
    explainCall("setExplainJson", JSON.stringify(state ?? {}));
  };
  window.fusionlab.saveBlob = (name, blob) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  };
  // A chart's pixels under a title line naming what it shows (model, size, GPU).
  window.fusionlab.savePixels = (name, width, height, rgba, title) => {
    const band = Math.round(26 * title.scale);
    const c = document.createElement("canvas");
    c.width = width;
    c.height = height + band;
    const ctx = c.getContext("2d");
    ctx.fillStyle = title.background;
    ctx.fillRect(0, 0, width, band);
    ctx.fillStyle = title.ink;
    ctx.font = `${Math.round(14 * title.scale)}px "Fusion Lab UI", system-ui, sans-serif`;
    ctx.textBaseline = "middle";
    ctx.fillText(title.text, Math.round(6 * title.scale), band / 2, width - Math.round(12 * title.scale));
    ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), width, height), 0, band);
    c.toBlob((blob) => window.fusionlab.saveBlob(name, blob), "image/png");
  };
  // Copies `text`, then says so for a moment; where the clipboard is refused
  // (an iframe without allow="clipboard-write", an old browser) shows the
  // text selected, to copy by hand. `said` holds the page's words for both.
  // fusionlab.lastCopy: {text, copied} for tests.
  const copyText = async (text, said) => {
    let copied = false;
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch (_) { /* refused or no clipboard: shown to copy by hand */ }
    window.fusionlab.lastCopy = { text, copied };
    if (copied) {
      const toast = document.getElementById("toast");
      toast.textContent = said.copied;
      toast.hidden = false;
      clearTimeout(copyText.timer);
      copyText.timer = setTimeout(() => { toast.hidden = true; }, 2000);
      return;
    }
    const dialog = document.getElementById("copy-dialog");
    dialog.querySelector("p").textContent = said.byHand;
    dialog.querySelector("button").textContent = said.close;
    const box = dialog.querySelector("textarea");
    box.value = text;
    dialog.hidden = false;
    box.focus();
    box.select();
  };
  document.getElementById("copy-dialog-close").addEventListener("click", () => {
    document.getElementById("copy-dialog").hidden = true;
    document.getElementById("canvas").focus();
  });
  // The canvas's accessible name and the view's tables as DOM tables (a11y.cpp).
  window.fusionlab.setAccessibleView = ({ name, tables }) => {
    document.getElementById("canvas").setAttribute("aria-label", name);
    const box = document.getElementById("a11y");
    box.replaceChildren(...tables.map((t) => {
      const table = document.createElement("table");
      table.createCaption().textContent = t.caption;
      const head = table.createTHead().insertRow();
      for (const h of t.headers) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = h;
        head.appendChild(th);
      }
      const body = table.createTBody();
      for (const r of t.rows) {
        const row = body.insertRow();
        for (const cell of r) row.insertCell().textContent = cell;
      }
      return table;
    }));
  };
  // The page's link; the <iframe> snippet of the same state, as one view alone.
  window.fusionlab.copyLink = (said) => {
    window.fusionlab.lastCopiedLink = window.location.href;
    return copyText(window.location.href, said);
  };
  window.fusionlab.copyEmbed = (said) => {
    const url = new URL(window.location.href);
    url.searchParams.set("embed", "1");
    const src = url.href.replaceAll("&", "&amp;");
    return copyText(`<iframe src="${src}" width="960" height="540" style="border:0" ` +
                    `allow="clipboard-write" title="Fusion Lab"></iframe>`, said);
  };

  window.Module = {
    canvas: document.getElementById("canvas"),
    showError,
    openNumberInput,  // src/web/platform.cpp: OpenSoftInput
    preRun: [
      () => {
        Module.addRunDependency("ui-font");
        fontBytes.then((buffer) => {
          if (buffer) {
            // The same font for the title line of exported PNGs (Chinese included).
            new FontFace("Fusion Lab UI", buffer.slice(0)).load().then((face) => document.fonts.add(face), () => {});
            Module.fontBytes = new Uint8Array(buffer);
          }
          else console.warn(`Fusion Lab: ${FONT_URL} did not load; Chinese text cannot be shown`);
          Module.removeRunDependency("ui-font");
        });
      },
    ],
    onReady: () => {
      performance.mark("fusionlab-ready");  // time to first full frame, for tests/e2e/startup.mjs
      showStatus("");
      resolveReady(window.fusionlab);
    },
    onAbort: (what) => {
      showStatus("Fusion Lab stopped: " + what);
      rejectReady(new Error(String(what)));
    },
  };
})();
