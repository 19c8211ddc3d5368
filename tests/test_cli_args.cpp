// The command line's options: --help names every configuration key.
#include <catch2/catch.hpp>

#include "cli/args.h"
#include "core/config_keys.h"

using namespace fl;

TEST_CASE("--help lists every configuration key as an option") {
  const std::string help = cli::usage();
  for (const ConfigKey& k : config_keys()) {
    const std::string flag = cli_flag(k.key);
    INFO(flag);
    const std::string line = "  " + flag + " ";
    const size_t at = help.find(line);
    CHECK(at != std::string::npos);
    CHECK(help.find(line, at + 1) == std::string::npos);  // declared once, listed once
  }
}

TEST_CASE("every configuration key says what it takes: a number its range, a name its choices") {
  for (const ConfigKey& k : config_keys()) {
    INFO(k.key);
    CHECK(!k.usage.empty());
    if (k.number()) {
      CHECK(k.range.key == k.key);
      CHECK(find_number_range(k.key) == &k.range);
      CHECK(key_choices(k.key).empty());
    }
  }
  CHECK(key_choices("model").find("llama-3.1-405b") != std::string::npos);
  CHECK(key_choices("hardware").find("h200") != std::string::npos);
  CHECK(cli_flag("graph_launch_us") == "--graph-launch-us");
}

TEST_CASE("every configuration key given as an option reaches the configuration") {
  const cli::Options o = cli::parse_args({"--model-layers", "40", "--vocab", "32000", "--tied-embeddings", "1",
                                          "--graph-launch-us", "2"});
  const AnalysisConfig c = o.config_for(2);
  CHECK(c.layers == 40);
  CHECK(c.vocab == 32000);
  CHECK(c.tied_embeddings);
  CHECK(c.hw.graph_launch == Approx(2e-6));
}
