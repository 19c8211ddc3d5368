// The number formats the page and the CLI print.
#include <catch2/catch.hpp>

#include "core/units.h"

using namespace fl;

TEST_CASE("log axis ticks read as numbers: no 1e-1 beside 1") {
  CHECK(fmt_decade(-3) == "0.001");
  CHECK(fmt_decade(-2) == "0.01");
  CHECK(fmt_decade(-1) == "0.1");
  CHECK(fmt_decade(0) == "1");
  CHECK(fmt_decade(2) == "100");
  CHECK(fmt_decade(4) == "10k");
  CHECK(fmt_decade(6) == "1M");
  CHECK(fmt_decade(20) == "100E");
  CHECK(fmt_decade(-4) == "1e-4");
  CHECK(fmt_decade(21) == "1e21");
}

TEST_CASE("large counts are grouped by thousands from five digits on") {
  CHECK(fmt_count(16) == "16");
  CHECK(fmt_count(2048) == "2048");
  CHECK(fmt_count(17900) == "17,900");
  CHECK(fmt_count(131072) == "131,072");
  CHECK(fmt_count(1048576) == "1,048,576");
  CHECK(fmt_count(-288000) == "-288,000");
}

TEST_CASE("GFLOPs: three significant digits below 100, never a zero for a small prefill") {
  CHECK(fmt_gflops(0.437e9) == "0.437");
  CHECK(fmt_gflops(7.254e9) == "7.25");
  CHECK(fmt_gflops(11.34e9) == "11.3");
  CHECK(fmt_gflops(113.2e9) == "113");
  CHECK(fmt_gflops(88875347e9) == "88,875,347");
  CHECK(fmt_gflops(0.0005e9) == "0.000500");
  CHECK(fmt_gflops(0) == "0");
}

TEST_CASE("times and sizes keep three significant digits") {
  CHECK(fmt_time(1.05e-3) == "1.05 ms");
  CHECK(fmt_time(136e-6) == "136 µs");
  CHECK(fmt_bytes(16.8e6) == "16.8 MB");
}
