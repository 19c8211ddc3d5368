// The observations each demo makes are chosen by what the results show: a
// table of configurations and the claims (ids) expected of each.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "core/analysis.h"
#include "core/model.h"
#include "core/model_lang/model.h"
#include "core/settings.h"
#include "core/sweep.h"
#include "helpers.h"
#include "json_helpers.h"

using namespace fl;
using nlohmann::json;

namespace {

std::vector<std::string> ids(const std::vector<Setting>& settings) {
  AnalysisConfig c = config_from_settings(settings);
  c.lang = Lang::En;
  const json j = analyzed(c);
  std::vector<std::string> out;
  for (const json& o : j.at("observations")) {
    CHECK(!o.at("text").get<std::string>().empty());
    out.push_back(o.at("id").get<std::string>());
  }
  return out;
}

using Ids = std::vector<std::string>;

}  // namespace

TEST_CASE("decode observations follow what dominates the traffic and the time") {
  SECTION("the seed's decode: weights dominate, the partitions are alike, the kernel count sets the latency") {
    CHECK(ids({{"demo", "3"}}) == Ids{"decode_traffic_weights", "decode_partitions_alike", "decode_kernel_count_sets_latency",
                                       "decode_flash_saves_little", "memory_fits"});
  }
  SECTION("batch 64 at S = 131072: the KV cache dominates, the bytes set the latency") {
    // The scores (537 MB) are little beside 34 GB of KV cache; the decomposed softmax's passes over them are not.
    const Ids got = ids({{"demo", "3"}, {"batch", "64"}, {"kv_len", "131072"}});
    CHECK(got == Ids{"decode_traffic_kv_cache", "decode_partitions_differ", "decode_bytes_set_latency",
                     "decode_flash_saves_little", "memory_too_big"});
    CHECK(got != ids({{"demo", "3"}}));
  }
  SECTION("FP8 weights halve the weights' bytes, which still dominate") {
    CHECK(ids({{"demo", "3"}, {"weights_dtype", "fp8"}})[0] == "decode_traffic_weights");
  }
  SECTION("the whole Llama-3.1-405B on a B200 at batch 8: weights dominate; 810 GB of weights do not fit") {
    const Ids got = ids({{"demo", "3"}, {"model", "llama-3.1-405b"}, {"layers", "all"}, {"hardware", "b200"}, {"batch", "8"}});
    CHECK(got[0] == "decode_traffic_weights");
    CHECK(got[2] == "decode_kernel_count_matters");  // more than 10 % of the time, less than half
    CHECK(got.back() == "memory_too_big");
  }
  SECTION("the whole Llama-3.1-8B model at batch 1: what holds for one layer holds for 32") {
    const Ids got = ids({{"demo", "3"}, {"layers", "all"}});
    CHECK(got == Ids{"decode_traffic_weights", "decode_partitions_alike", "decode_kernel_count_sets_latency",
                     "decode_flash_saves_little", "memory_fits"});
  }
}

TEST_CASE("prefill observations follow where the time goes") {
  SECTION("the seed's prefill at T = 2048") {
    // The seed says fusion saves mostly pointwise intermediates; its own byte counts put
    // about 70 % of the saving in the decomposed softmax's passes over the scores.
    CHECK(ids({{"demo", "2"}}) == Ids{"prefill_decomposed_slower", "prefill_fusion_saves_scores",
                                       "prefill_flash_leaves_matmuls", "prefill_compute_bound"});
  }
  SECTION("T = 1: every matmul is bandwidth-bound, and fusion barely changes the bytes") {
    const Ids got = ids({{"demo", "2"}, {"tokens", "1"}});
    CHECK(got[0] == "prefill_decomposed_slower_launches");  // the tensors are tiny: decomposing costs launches
    CHECK(got[1] == "prefill_fusion_barely_cuts_traffic");
    CHECK(got[3] == "prefill_matmuls_memory_bound");
  }
  SECTION("T = 256: the scores are small; fusion saves mostly pointwise intermediates; matmuls are bandwidth-bound") {
    const Ids got = ids({{"demo", "2"}, {"tokens", "256"}});
    CHECK(got[0] == "prefill_decomposed_slower_launches");  // 68 % of the slowdown is the 18 more launches
    CHECK(got[1] == "prefill_fusion_saves_pointwise");
    CHECK(got[3] == "prefill_matmuls_memory_bound");
  }
  SECTION("T = 512: decomposing is slower mostly for its traffic now (the launches are 47 % of the slowdown)") {
    CHECK(ids({{"demo", "2"}, {"tokens", "512"}})[0] == "prefill_decomposed_slower");
  }
  SECTION("T = 512: compute-bound, yet the fixed cost is 10 % or more of the total") {
    CHECK(ids({{"demo", "2"}, {"tokens", "512"}})[3] == "prefill_compute_bound_overhead_matters");
  }
  SECTION("the whole Llama-3.1-405B at T = 8192 does not fit one B200") {
    const Ids got = ids({{"demo", "2"}, {"model", "llama-3.1-405b"}, {"layers", "all"}, {"hardware", "b200"}, {"tokens", "8192"}});
    CHECK(got.back() == "memory_too_big");
  }
}

TEST_CASE("attention written as PyTorch code does, or as one SDPA call: the claims about FlashAttention follow the layer") {
  SECTION("math: nothing is matched, the scores still go to memory, in float32") {
    CHECK(ids({{"demo", "2"}, {"attention", "math"}}) ==
          Ids{"prefill_decomposed_slower", "prefill_fusion_leaves_scores_unmatched", "prefill_attention_not_matched",
              "prefill_matmuls_partly_compute_bound"});
    const Ids decode = ids({{"demo", "3"}, {"attention", "math"}});
    CHECK(decode.at(3) == "decode_attention_not_matched");
    // At batch 64 and S = 131072 the partitions differ by the scores, which no partition keeps on chip.
    CHECK(ids({{"demo", "3"}, {"attention", "math"}, {"batch", "64"}, {"kv_len", "131072"}}).at(1) == "decode_partitions_differ");
  }
  SECTION("sdpa: attention is one kernel in every partition, with no score matrix anywhere") {
    CHECK(ids({{"demo", "2"}, {"attention", "sdpa"}}) ==
          Ids{"prefill_decomposed_slower_no_softmax", "prefill_fusion_attention_one_op", "prefill_attention_one_op",
              "prefill_compute_bound"});
    // Batch 256 at S = 16: the activations' intermediates make the partitions differ, outside attention.
    const Ids decode = ids({{"demo", "3"}, {"attention", "sdpa"}, {"batch", "256"}, {"kv_len", "16"}});
    CHECK(decode.at(1) == "decode_partitions_differ_outside_attention");
    CHECK(decode.at(3) == "decode_attention_one_op");
  }
  SECTION("the partitions are named for what they hold in each form") {
    auto names = [](const char* form) {
      AnalysisConfig c = config_from_settings({{"demo", "2"}, {"attention", form}});
      c.lang = Lang::En;
      std::vector<std::string> out;
      const json j = analyzed(c);
      for (const json& p : j.at("partitions")) out.push_back(p.at("name").get<std::string>());
      return out;
    };
    CHECK(names("sdpa").front().find("softmax") == std::string::npos);
    CHECK(names("math").back().find("does not match") != std::string::npos);
    CHECK(names("lecture").back() == "decomposed + fused + attention as FlashAttention");
  }
  SECTION("demos 1 and 4 keep the lecture's layer, and say so in their configuration") {
    AnalysisConfig c = config_from_settings({{"demo", "4"}, {"attention", "math"}});
    CHECK(c.attention == AttentionForm::Math);
    CHECK(c.traced_attention() == AttentionForm::Lecture);
    CHECK(config_from_settings({{"demo", "2"}, {"attention", "sdpa"}}).traced_attention() == AttentionForm::Sdpa);
  }
}

TEST_CASE("the small layer's kernels and the ablation name their claims") {
  CHECK(ids({{"demo", "1"}}) == Ids{"kernels_rmsnorm_one_kernel", "kernels_matmul_epilogues", "kernels_attention_and_views"});
  const Ids ablation = ids({{"demo", "4"}});
  CHECK(ablation.front() == "ablation_unfused_slower_than_eager");
  CHECK(ablation.back() == "ablation_ours_same_shape");
}

TEST_CASE("an observation's id does not depend on the language") {
  AnalysisConfig zh = AnalysisConfig::for_demo(3), en = zh;
  en.lang = Lang::En;
  const json a = analyzed(zh)["observations"], b = analyzed(en)["observations"];
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i]["id"] == b[i]["id"]);
    CHECK(a[i]["text"] != b[i]["text"]);
  }
}

TEST_CASE("sentences group numbers of five digits or more, in both languages") {
  // "S = 131,072" and "32 heads × 8,192 × 8,192" read at a glance; "131072" does not.
  const std::regex ungrouped("[0-9]{5,}");
  const std::vector<std::vector<Setting>> configs = {
      {{"demo", "2"}, {"tokens", "16384"}},
      {{"demo", "3"}, {"batch", "64"}, {"kv_len", "131072"}},
      {{"demo", "4"}, {"tokens", "32768"}, {"kv_len", "65536"}},
  };
  for (const auto& settings : configs)
    for (Lang lang : {Lang::En, Lang::Zh}) {
      AnalysisConfig c = config_from_settings(settings);
      c.lang = lang;
      const json j = analyzed(c);
      std::vector<std::string> sentences{j.at("title").get<std::string>()};
      for (const json& o : j.at("observations")) sentences.push_back(o.at("text").get<std::string>());
      if (j.contains("memory")) sentences.push_back(j["memory"].at("text").get<std::string>());
      if (j.contains("ours")) sentences.push_back(j["ours"].at("title").get<std::string>());
      for (const std::string& s : sentences) {
        INFO(s);
        CHECK_FALSE(std::regex_search(s, ungrouped));
      }
    }
}

TEST_CASE("the score matrix counts one head as one head") {
  for (const char* attention : {"lecture", "math"})
    for (const char* heads : {"1", "32"}) {
      AnalysisConfig c = config_from_settings({{"demo", "2"}, {"heads", heads}, {"kv_heads", "1"}, {"attention", attention}});
      c.lang = Lang::En;
      const std::string text = analyzed(c).at("observations").dump();
      INFO(attention << " " << heads << ": " << text);
      CHECK(text.find(std::string(heads) == "1" ? "(one head × 2048 × 2048" : "(32 heads × 2048 × 2048") != std::string::npos);
      CHECK(text.find("1 heads") == std::string::npos);
    }
}

namespace {

// Demo `demo` of the layer in examples/models/`file`, as `fusionlab --model-file` runs it.
json analyzed_example(const std::string& file, const char* demo, Lang lang) {
  const std::string path = std::string(FUSIONLAB_SOURCE_DIR) + "/examples/models/" + file;
  AnalysisConfig c = config_from_settings({{"demo", demo}});
  c.source = std::make_shared<const lang::Model>(test::file_text(path), file);
  c.model = c.source->layer();
  c.model_key = "custom";
  c.lang = lang;
  return analyzed(c);
}

std::vector<std::string> ids_of(const json& j) {
  std::vector<std::string> out;
  for (const json& o : j.at("observations")) out.push_back(o.at("id").get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("observations of a layer from source say what its graph holds, not what Llama's does") {
  SECTION("a layer without attention: no score matrix, no KV cache, nothing for FlashAttention") {
    const json prefill = analyzed_example("mlp-only.fl", "2", Lang::En);
    CHECK(ids_of(prefill) == Ids{"prefill_decomposed_slower_launches", "prefill_fusion_no_attention", "prefill_no_attention",
                                 "prefill_matmuls_memory_bound"});
    const json decode = analyzed_example("mlp-only.fl", "3", Lang::En);
    CHECK(decode.at("kv_cache_bytes") == 0);
    CHECK(decode.at("memory").at("kv_cache") == 0);
    const std::vector<std::string> got = ids_of(decode);
    CHECK(got.at(0) == "decode_traffic_weights");
    CHECK(got.at(3) == "decode_no_attention");
    for (Lang lang : {Lang::En, Lang::Zh})
      for (const char* demo : {"2", "3"}) {
        const std::string text = analyzed_example("mlp-only.fl", demo, lang).at("observations").dump();
        INFO(text);
        // No sentence sizes a score matrix or speaks of a softmax or a mask.
        for (const char* claim : {"score matrix (", "scores,", "分数矩阵（", "分数（", "masked_fill", "float32", "softmax"})
          CHECK(text.find(claim) == std::string::npos);
      }
  }
  SECTION("GPT-2's block: eager's one-kernel ops are its own (LayerNorm, softmax, GELU), its attention is matched") {
    const json prefill = analyzed_example("gpt2.fl", "2", Lang::En);
    const std::string decomposed = prefill.at("observations").at(0).at("text");
    CHECK(prefill.at("observations").at(0).at("id") == "prefill_decomposed_slower");
    CHECK(decomposed.find("LayerNorm, softmax and GELU") != std::string::npos);
    CHECK(prefill.at("observations").dump().find("RMSNorm") == std::string::npos);
    CHECK(ids_of(prefill).at(2) == "prefill_flash_leaves_matmuls");
    // Its caches: keys and values of 12 heads of 64 at S = 4096, in bf16.
    CHECK(analyzed_example("gpt2.fl", "3", Lang::En).at("kv_cache_bytes") == 2LL * 12 * 4096 * 64 * 2);
  }
}

TEST_CASE("demo 1 of a layer from source names its own norm, epilogues and attention") {
  const json gpt2 = analyzed_example("gpt2.fl", "1", Lang::En);
  CHECK(ids_of(gpt2) == Ids{"kernels_layernorm_one_kernel", "kernels_matmul_epilogues", "kernels_attention_and_views"});
  const std::string said = gpt2.at("observations").dump();
  INFO(said);
  CHECK(said.find("RoPE") == std::string::npos);       // GPT-2 has none
  CHECK(said.find("GQA") == std::string::npos);        // every head has its own keys and values
  CHECK(said.find("6 of the 6 matmul kernels") != std::string::npos);  // each takes its bias add
  const std::string mlp = analyzed_example("mlp-only.fl", "1", Lang::En).at("observations").dump();
  INFO(mlp);
  CHECK(mlp.find("FlashAttention") == std::string::npos);
  CHECK(mlp.find("This layer has no attention.") != std::string::npos);
}

TEST_CASE("a sweep names the fourth partition of a layer without attention for what it holds") {
  const std::string path = std::string(FUSIONLAB_SOURCE_DIR) + "/examples/models/";
  for (const char* file : {"mlp-only.fl", "gpt2.fl"}) {
    AnalysisConfig c = config_from_settings({{"demo", "2"}});
    c.source = std::make_shared<const lang::Model>(test::file_text(path + file), file);
    c.model = c.source->layer();
    const Sweep s = empty_sweep(c, SweepKey::Tokens);
    const bool matched = std::string(file) == "gpt2.fl";
    CHECK(sweep_partition_text(s, PartitionId::FusedFlash) == (matched ? Text::PartFlash : Text::PartFlashNothingMatched));
  }
}

TEST_CASE("the KV cache a traced decode layer updates is the closed form's, for every attention form and batch") {
  for (AttentionForm form : kAttentionForms)
    for (int64_t batch : {1, 3}) {
      TraceOptions o;
      o.attention = form;
      o.batch = batch;
      const Graph g = decode_layer(kLlama8B, ParamMode::shapes(), o);
      CHECK(cache_bytes(g, {{"S", 4096}}) == kv_cache_bytes(kLlama8B, 1, batch, 4096, o));
      CHECK(cache_bytes(g, {{"S", 4096}}) == 2 * batch * kLlama8B.G * 4096 * kLlama8B.dh * 2);
    }
}
