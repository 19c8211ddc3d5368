// The command line's options: --help names every configuration key.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cli/args.h"

using namespace fl;

TEST_CASE("--help lists every configuration key as an option") {
  const std::string help = cli::usage();
  for (std::string_view key : setting_keys()) {
    std::string flag = "--" + std::string(key);
    std::replace(flag.begin(), flag.end(), '_', '-');
    INFO(flag);
    CHECK(help.find(flag + " ") != std::string::npos);
  }
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
