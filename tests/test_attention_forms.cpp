// The layer's attention written three ways (model.h's AttentionForm): the
// lecture's, as PyTorch users write it (math) and as one SDPA call. All three
// compute the same layer, and every pass keeps each one's meaning.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/passes/passes.h"
#include "core/pipeline.h"
#include "helpers.h"

using namespace fl;
using namespace fl::test;

namespace {

TraceOptions form(AttentionForm f) {
  TraceOptions o;
  o.attention = f;
  return o;
}

int count(const Graph& g, Op op) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(), [op](const Node& n) { return n.op == op; }));
}

}  // namespace

TEST_CASE("the math and SDPA forms of attention compute the lecture's layer, prefill and decode", "[attention]") {
  const int64_t T = 6, S = 8;
  const Graph lecture = prefill_layer(kSmallCfg, T, 0, ParamMode::random(3));
  const Feeds prefill = with_causal_mask(prefill_feeds(kSmallCfg, T), T, T, 0);
  const auto expected = run(lecture, prefill);
  const Graph decode_lecture = decode_layer(kSmallCfg, ParamMode::random(5));
  for (AttentionForm f : {AttentionForm::Math, AttentionForm::Sdpa}) {
    INFO(attention_form_key(f));
    CHECK(relative_difference(expected, run(prefill_layer(kSmallCfg, T, 0, ParamMode::random(3), form(f)), prefill)) < 1e-5);
    for (int64_t P : {0, 5}) {
      const Feeds decode = with_causal_mask(decode_feeds(kSmallCfg, S), 1, S, P);
      const Binding b{{"S", S}, {"P", P}};
      CHECK(relative_difference(run(decode_lecture, decode, b),
                                run(decode_layer(kSmallCfg, ParamMode::random(5), form(f)), decode, b)) < 1e-5);
    }
  }
}

TEST_CASE("the comparison of attention forms can fail: a mask that hides one more key is detected", "[attention]") {
  const int64_t T = 6;
  const Graph lecture = prefill_layer(kSmallCfg, T, 0, ParamMode::random(3));
  const Graph math = prefill_layer(kSmallCfg, T, 0, ParamMode::random(3), form(AttentionForm::Math));
  Feeds shifted = with_causal_mask(prefill_feeds(kSmallCfg, T), T, T, 0);
  shifted["mask"].data[static_cast<size_t>(T * T - 2)] = 0;  // the last query no longer sees the key before it
  CHECK(relative_difference(run(lecture, shifted), run(math, shifted)) > 1e-3);
}

TEST_CASE("at decode SDPA reads its boolean mask (attn_mask): a hidden key changes the result", "[attention]") {
  const int64_t S = 8, P = 5;
  const Graph sdpa = decode_layer(kSmallCfg, ParamMode::random(5), form(AttentionForm::Sdpa));
  const Feeds all = with_causal_mask(decode_feeds(kSmallCfg, S), 1, S, P);
  Feeds hidden = all;
  hidden["mask"].data[2] = 0;  // key 2 hidden from the new token
  const Binding b{{"S", S}, {"P", P}};
  CHECK(relative_difference(run(sdpa, all, b), run(sdpa, hidden, b)) > 1e-3);
}

TEST_CASE("every pass keeps the meaning of the math and SDPA forms", "[attention]") {
  for (AttentionForm f : {AttentionForm::Math, AttentionForm::Sdpa}) {
    INFO(attention_form_key(f));
    check_all_stages(prefill_layer(kSmallCfg, 8, 0, ParamMode::random(3), form(f)),
                     with_causal_mask(prefill_feeds(kSmallCfg, 8), 8, 8, 0), {});
    check_all_stages(decode_layer(kSmallCfg, ParamMode::random(5), form(f)),
                     with_causal_mask(decode_feeds(kSmallCfg, 8), 1, 8, 5), {{"S", 8}, {"P", 5}});
  }
}

TEST_CASE("the math form holds what PyTorch's graph holds, and SDPA is one attention op", "[attention]") {
  const Graph math = prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes(), form(AttentionForm::Math));
  CHECK(count(math, Op::RepeatKV) == 2);  // GQA: k and v repeated to the query heads
  CHECK(count(math, Op::MaskedFill) == 1);
  CHECK(count(math, Op::LogicalNot) == 1);
  CHECK(count(math, Op::Cast) == 2);  // to float32 before the softmax, back after it
  CHECK(count(math, Op::CausalMask) == 0);
  const auto mask = std::find_if(math.nodes().begin(), math.nodes().end(), [](const Node& n) { return n.attrs.name == "mask"; });
  REQUIRE(mask != math.nodes().end());
  CHECK(mask->dtype == DType::Bool);
  const auto softmax = std::find_if(math.nodes().begin(), math.nodes().end(), [](const Node& n) { return n.op == Op::Softmax; });
  REQUIRE(softmax != math.nodes().end());
  CHECK(softmax->dtype == DType::FP32);

  const Graph sdpa = prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes(), form(AttentionForm::Sdpa));
  CHECK(count(sdpa, Op::Attention) == 1);
  CHECK(count(sdpa, Op::Softmax) == 0);
  CHECK(count(sdpa, Op::MatMul) == count(prefill_layer(kSmallCfg, 4, 0, ParamMode::shapes()), Op::MatMul) - 2);
}
