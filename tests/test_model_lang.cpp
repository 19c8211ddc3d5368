// The model language: its parser's errors and formatting, and the built-in
// layer written in it, which traces the same graph as core/model.cpp.
#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "core/model.h"
#include "core/model_lang/llama_source.h"
#include "core/model_lang/model.h"
#include "core/model_lang/parser.h"
#include "core/partitions.h"
#include "core/presets.h"
#include "helpers.h"

using namespace fl;

namespace {

// The "line:col" an error of reading or tracing `source` names, or "" if none.
std::string error_at(const std::string& source) {
  try {
    const lang::Model m(source);
    TraceOptions o;
    o.source = std::make_shared<const lang::Model>(m);
    prefill_layer(m.layer(), 4, 0, ParamMode::shapes(), o);
  } catch (const lang::SourceError& e) {
    return std::to_string(e.at.line) + ":" + std::to_string(e.at.col);
  }
  return "";
}

const std::string kSizes = "d = 64\nheads = 4\nkv_heads = 2\nhead_dim = 16\nffn = 128\n";

}  // namespace

TEST_CASE("model language: the built-in layer as source traces the built-in layer's graph, node for node") {
  int compared = 0;
  for (const ModelPreset& m : model_presets()) {
    INFO(m.key);
    auto source = std::make_shared<const lang::Model>(lang::llama_source(m.layer, m.name));
    CHECK(source->layer() == m.layer);
    const bool small = m.layer.d <= 256;  // small enough to draw real weights: the same draws, in the same order
    const ParamMode params = small ? ParamMode::random(5) : ParamMode::shapes();
    for (AttentionForm form : kAttentionForms)
      for (int64_t layers : {0, 2}) {
        TraceOptions o;
        o.attention = form;
        o.layers = layers;
        o.vocab = 1000;
        o.batch = layers ? 2 : 1;
        TraceOptions from_source = o;
        from_source.source = source;
        INFO(attention_form_key(form) << ", layers " << layers);
        CHECK(prefill_layer(m.layer, 5, 3, params, o) == prefill_layer(m.layer, 5, 3, params, from_source));
        CHECK(decode_layer(m.layer, params, o) == decode_layer(m.layer, params, from_source));
        CHECK(prefill_layer_symbolic(m.layer, o) == prefill_layer_symbolic(m.layer, from_source));
        compared += 3;
      }
  }
  CHECK(compared >= 3 * 3 * 2 * 5);
}

TEST_CASE("model language: a changed layer traces a different graph") {
  // The MLP without its gate: a plain SiLU MLP, as a student might write it.
  std::string source = lang::llama_source(kSmallCfg, "small");
  const std::string gated = "    gated = gate * up\n";
  REQUIRE(source.find(gated) != std::string::npos);
  source.replace(source.find(gated), gated.size(), "    gated = silu(up)\n");
  TraceOptions o, edited;
  edited.source = std::make_shared<const lang::Model>(source);
  const Graph a = prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes(), o);
  const Graph b = prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes(), edited);
  CHECK_FALSE(a == b);
}

TEST_CASE("model language: formatting a program gives a source that reads back as the same program") {
  const std::string source = lang::llama_source(kLlama8B, "Llama-3.1-8B");
  const std::string once = lang::format(lang::parse(source));
  CHECK(lang::format(lang::parse(once)) == once);
  CHECK(lang::format(lang::parse("x = -(a + b) * c - (d - e) / f @ g\n")) == "x = -(a + b) * c - (d - e) / f @ g\n");
  CHECK(lang::format(lang::parse("x = a - (b - c)\ny = (a - b) - c\n")) == "x = a - (b - c)\ny = a - b - c\n");
}

TEST_CASE("model language: a source that cannot be read or traced names the line and column") {
  CHECK(error_at("d = 64\nheads = 4 $\n") == "2:11");                      // a character the language has not
  CHECK(error_at("d = (64\n") == "1:5");                                    // a bracket never closed
  CHECK(error_at("def f(x):\nreturn x\n") == "2:1");                        // a block not indented
  CHECK(error_at("def f(x):\n    a = x\n  b = x\n") == "3:3");              // an indent matching no block
  CHECK(error_at("d = 1e\n") == "1:7");                                     // an exponent without digits
  CHECK(error_at("d = 64\nx = \"open\n") == "2:5");                         // a string never closed
  CHECK(error_at("d = 64 64\n") == "1:8");                                  // two values in a row
  CHECK(error_at("d =\n") == "1:4");
  // Read, but not a layer: its sizes, then its function.
  CHECK(error_at("d = 64\n") == "1:1");
  CHECK(error_at(kSizes) == "1:1");
  // Traced: a name not defined, a step not known, a function given too few arguments.
  CHECK(error_at(kSizes + "def layer(x):\n    return x + y\n") == "7:16");
  CHECK(error_at(kSizes + "def layer(x):\n    step q_projection\n    return x\n") == "7:5");
  CHECK(error_at(kSizes + "def layer(x):\n    return rmsnorm(x)\n") == "7:12");
  CHECK(error_at(kSizes + "def f(x):\n    return f(x)\ndef layer(x):\n    return f(x)\n") == "7:12");  // calls without end
  CHECK(error_at(kSizes + "def layer(x):\n    y = x\n") == "6:1");                                      // no return
  // Deep nesting is refused, not overflowed.
  CHECK(error_at("d = " + std::string(500, '(') + "1" + std::string(500, ')') + "\n") != "");
  CHECK(error_at("d = 1" + std::string(600, '+').replace(0, 600, [] {
                   std::string s;
                   for (int i = 0; i < 300; ++i) s += " + 1";
                   return s;
                 }()) + "\n") != "");
  // The message reads "line:col: message".
  try {
    lang::parse("d = )\n");
    FAIL("parsed");
  } catch (const lang::SourceError& e) {
    CHECK(std::string(e.what()).rfind("1:5: ", 0) == 0);
  }
}

TEST_CASE("model language: a traced source is a working layer of the given sizes") {
  // A layer that is only its MLP, with its own parameter names.
  const std::string source = kSizes +
                             "param norm[d]\nparam up_w[d, ffn]\nparam down_w[ffn, d]\n"
                             "def layer(x):\n    step mlp_norm\n    h = rmsnorm(x, norm)\n    step up_proj\n"
                             "    u = silu(h @ up_w)\n    step down_proj\n    return x + u @ down_w\n";
  TraceOptions o;
  o.source = std::make_shared<const lang::Model>(source);
  const Graph g = prefill_layer(o.source->layer(), 8, 0, ParamMode::shapes(), o);
  CHECK(test::count_ops(g, Op::Param) == 3);
  CHECK(test::count_ops(g, Op::MatMul) == 2);
  // What the tracer made for a layer with attention (RoPE's tables) and this one leaves unread is gone:
  // eager runs the norm, two matmuls, SiLU and the residual add, nothing more.
  CHECK(test::count_ops(g, Op::Cos) + test::count_ops(g, Op::Sin) == 0);
  CHECK(make_partition(PartitionId::Eager, g, {}, kH100).kernels.size() == 5);
  CHECK(parameter_bytes(g) == (64 + 2 * 64 * 128) * 2);
  CHECK(g.node(g.outputs()[0]).shape == Shape{8, 64});
}

namespace {

std::string example(const std::string& name) { return test::file_text(std::string(FUSIONLAB_SOURCE_DIR) + "/examples/models/" + name); }

}  // namespace

TEST_CASE("model language: GPT-2's block, from its published configuration") {
  const auto gpt2 = std::make_shared<const lang::Model>(example("gpt2.fl"));
  CHECK(gpt2->layer() == LayerCfg{768, 12, 12, 64, 3072});
  TraceOptions o;
  o.source = gpt2;
  const Graph g = prefill_layer(gpt2->layer(), 16, 0, ParamMode::shapes(), o);
  // openai-community/gpt2: a block holds 12 d^2 + 13 d parameters (c_attn, c_proj, c_fc, the MLP's
  // c_proj, their biases, two LayerNorms' weights and biases), here in bf16.
  const int64_t d = 768;
  CHECK(parameter_bytes(g) == 2 * (12 * d * d + 13 * d));
  CHECK(test::count_ops(g, Op::LayerNorm) == 2);
  CHECK(test::count_ops(g, Op::Gelu) == 1);
  // A whole 12-block model counts the source's own parameters, plus the
  // (tied) token embedding and the final norm.
  o.layers = 2;
  o.vocab = 1000;
  o.tied_embeddings = true;
  CHECK(model_parameter_bytes(gpt2->layer(), 2, 1000, true, o) == parameter_bytes(prefill_layer(gpt2->layer(), 4, 0, ParamMode::shapes(), o)));
}

TEST_CASE("model language: every pass keeps the meaning of a GPT-2-style block (LayerNorm, GELU, biases)") {
  // GPT-2's file at small sizes, with real weights: each stage computes what the traced block does.
  std::string source = example("gpt2.fl");
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"d = 768", "d = 64"}, {"heads = 12", "heads = 4"}, {"kv_heads = 12", "kv_heads = 4"},
           {"head_dim = 64", "head_dim = 16"}, {"ffn = 3072", "ffn = 128"}}) {
    REQUIRE(source.find(from) != std::string::npos);
    source.replace(source.find(from), from.size(), to);
  }
  TraceOptions o;
  o.source = std::make_shared<const lang::Model>(source);
  const LayerCfg c = o.source->layer();
  test::check_all_stages(prefill_layer(c, 6, 0, ParamMode::random(8), o), test::prefill_feeds(c, 6), {});
  test::check_all_stages(decode_layer(c, ParamMode::random(9), o), test::decode_feeds(c, 8), {{"S", 8}, {"P", 5}});
}
