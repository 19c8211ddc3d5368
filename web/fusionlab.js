// window.fusionlab: the page's JavaScript API, and the Emscripten Module that
// app.js (the compiled C++) picks up.
//
//   await fusionlab.ready                 resolves after the page's first full frame
//   fusionlab.analyze({demo: 2, tokens: 8192})
//                                         the object `fusionlab --demo 2 --json` prints;
//                                         keys: demo, d, heads, kv_heads, head_dim, ffn,
//                                         tokens, kv_len, matmul_tflops, other_tflops,
//                                         bandwidth_tbs, launch_us; throws Error if invalid
//   fusionlab.getState()                  {view, lang, model, tokens, ...} as in the URL
//   fusionlab.setState({view: "decode", kv_len: 8192})
//                                         applies all keys or, if one is invalid, none (throws)
(function () {
  "use strict";

  const FONT_URL = "fonts/ui-font.otf";

  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });

  // Fetched while the wasm downloads; main() waits for it (a run dependency).
  const fontBytes = fetch(FONT_URL)
    .then((r) => (r.ok ? r.arrayBuffer() : null))
    .catch(() => null);

  // The C++ side answers in JSON: {"result": ...} or {"error": "..."}.
  function call(name, argument) {
    if (!Module[name]) throw new Error("fusionlab: not ready yet (await fusionlab.ready)");
    const reply = JSON.parse(argument === undefined ? Module[name]() : Module[name](argument));
    if ("error" in reply) throw new Error(reply.error);
    return reply.result;
  }

  function showStatus(text) {
    const status = document.getElementById("status");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  window.fusionlab = {
    ready,
    analyze: (config) => call("analyzeJson", JSON.stringify(config ?? {})),
    getState: () => call("getStateJson"),
    setState: (state) => {
      call("setStateJson", JSON.stringify(state ?? {}));
    },
  };

  window.Module = {
    canvas: document.getElementById("canvas"),
    preRun: [
      () => {
        Module.addRunDependency("ui-font");
        fontBytes.then((buffer) => {
          if (buffer) Module.fontBytes = new Uint8Array(buffer);
          else console.warn(`Fusion Lab: ${FONT_URL} did not load; Chinese text cannot be shown`);
          Module.removeRunDependency("ui-font");
        });
      },
    ],
    onReady: () => {
      showStatus("");
      resolveReady(window.fusionlab);
    },
    onAbort: (what) => {
      showStatus("Fusion Lab stopped: " + what);
      rejectReady(new Error(String(what)));
    },
  };
})();
