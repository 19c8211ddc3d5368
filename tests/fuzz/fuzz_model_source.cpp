// fuzz_model_source: bytes → a model's source (core/model_lang) → read, then
// traced in prefill and decode and partitioned as the lab partitions any
// layer. Whatever the bytes, the source is refused with a SourceError whose
// message begins with its "line:col: " (or, for sizes out of the lab's
// ranges, a ConfigError), or it traces a graph that verifies and partitions.
// Anything else (a crash, a sanitizer report, a hang, another exception, a
// refusal without a position) aborts.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/config.h"
#include "core/graph.h"
#include "core/model.h"
#include "core/model_lang/model.h"
#include "core/partitions.h"
#include "fuzz_common.h"

using namespace fl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<const lang::Model> model;
  try {
    model = std::make_shared<const lang::Model>(source);
  } catch (const lang::SourceError& e) {
    const std::string where = std::to_string(e.at.line) + ":" + std::to_string(e.at.col) + ": ";
    FL_FUZZ_CHECK(std::string(e.what()).rfind(where, 0) == 0 && !e.message.empty(), "a refusal without its place: " << e.what());
    FL_FUZZ_CHECK(e.at.line >= 1 && e.at.col >= 1, e.what());
    return 0;
  }
  for (const AttentionForm form : kAttentionForms)
    for (const bool decode : {false, true}) {
      TraceOptions o;
      o.attention = form;
      o.source = model;
      try {
        validate(model->layer());
        const Graph g = decode ? decode_layer(model->layer(), ParamMode::shapes(), o)
                               : prefill_layer(model->layer(), 3, 0, ParamMode::shapes(), o);
        verify(g);
        four_partitions(g, {{"S", 8}, {"P", 7}}, kH100);
      } catch (const lang::SourceError& e) {
        FL_FUZZ_CHECK(!e.message.empty(), "an empty refusal");
      } catch (const ConfigError&) {
        // the layer's sizes out of the lab's ranges: refused before tracing
      }
    }
  return 0;
}
