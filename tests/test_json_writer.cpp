// The streaming writer against nlohmann::json's dump(): the reports' text must
// not move when they stop building a document tree.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/json_writer.h"

using namespace fl;

namespace {

// The same values written both ways, in sorted key order.
void write_sample(JsonWriter& w) {
  w.object([&] {
    w.key("array");
    w.array([&] {
      for (double d : {0.0, -0.0, 1.0, 0.1, 1e-7, 123456789012345680.0, 1e21, 2.5e-300, -3.75, 1.0 / 3.0}) w.value(d);
    });
    w.field("bool", true);
    w.key("empty_array");
    w.array([] {});
    w.key("empty_object");
    w.object([] {});
    w.field("int", int64_t{-9007199254740993});
    w.field("nan", std::nan(""));
    w.key("nested");
    w.object([&] {
      w.field("list", std::vector<int>{1, 2, 3});
      w.field("some", std::optional<double>(0.5));
    });
    w.field("none", std::optional<double>{});
    w.field("null", nullptr);
    w.field("text", "quote \" backslash \\ tab \t newline \n bell \x07 del \x7f 中文 ✓");
    w.field("unsigned", std::numeric_limits<uint64_t>::max());
  });
}

nlohmann::json sample_tree() {
  return {{"array", {0.0, -0.0, 1.0, 0.1, 1e-7, 123456789012345680.0, 1e21, 2.5e-300, -3.75, 1.0 / 3.0}},
          {"bool", true},
          {"empty_array", nlohmann::json::array()},
          {"empty_object", nlohmann::json::object()},
          {"int", int64_t{-9007199254740993}},
          {"nan", std::nan("")},
          {"none", nullptr},
          {"nested", {{"list", {1, 2, 3}}, {"some", 0.5}}},
          {"null", nullptr},
          {"text", "quote \" backslash \\ tab \t newline \n bell \x07 del \x7f 中文 ✓"},
          {"unsigned", std::numeric_limits<uint64_t>::max()}};
}

}  // namespace

TEST_CASE("JsonWriter writes what dump() writes, compact and indented") {
  for (int indent : {-1, 2, 4}) {
    std::string text;
    JsonWriter w(text, indent);
    write_sample(w);
    CHECK(text == sample_tree().dump(indent));
  }
}

TEST_CASE("JsonWriter refuses keys out of order and keys in an array") {
  std::string text;
  JsonWriter w(text);
  w.begin_object();
  w.field("b", 1);
  CHECK_THROWS_AS(w.key("a"), std::logic_error);
  CHECK_THROWS_AS(w.key("b"), std::logic_error);  // twice
  w.key("c");
  w.begin_array();
  CHECK_THROWS_AS(w.key("d"), std::logic_error);
}

TEST_CASE("JsonWriter writes whole numbers as dump() does, at every magnitude") {
  std::vector<double> values{0.0, -0.0, 1.0, -1.0, 12.0, 4096.0, 3.35e12, 9.89e14, 999999999999999.0, -999999999999999.0,
                             1e15, 1e15 + 1, 1234567890123456.0, 9007199254740992.0, 1e21, 0.5, 1e15 - 0.5};
  uint64_t state = 7;  // splitmix64: whole numbers of 1 to 17 digits, both signs
  for (int i = 0; i < 3000; ++i) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double magnitude = std::pow(10.0, static_cast<double>(z % 17));
    const double v = std::floor(static_cast<double>(z >> 11) * 0x1.0p-53 * magnitude * 10);
    values.push_back(z & 1 ? -v : v);
  }
  for (double d : values) {
    std::string text;
    JsonWriter w(text, -1);
    w.value(d);
    INFO(d);
    CHECK(text == nlohmann::json(d).dump());
  }
}
