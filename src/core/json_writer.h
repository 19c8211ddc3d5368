// JSON text written as it is produced, with no document tree in between: a
// whole model's report is megabytes, and a tree of it costs ten times its text
// to build and to walk. The text is what nlohmann::json's dump() gives for the
// same values (compact, or indented), so the two agree byte for byte: objects
// list their keys in sorted order, numbers in nlohmann's shortest round-trip form.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

class JsonWriter {
 public:
  // `indent` < 0: compact, as dump(); else as dump(indent).
  explicit JsonWriter(std::string& out, int indent = -1) : out_(out), indent_(indent) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  template <class Fill>
  void object(Fill&& fill) {
    begin_object();
    fill();
    end_object();
  }
  template <class Fill>
  void array(Fill&& fill) {
    begin_array();
    fill();
    end_array();
  }

  // An object's keys come in byte order, as a sorted map holds them: a key out
  // of order throws std::logic_error (a serializer's mistake, found by the
  // tests). The key's text must live until its object ends (names, literals).
  void key(std::string_view k);

  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(bool b);
  void value(double d);  // NaN and infinities as null, as dump() writes them
  void value(std::nullptr_t) { null(); }
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  void value(T n) {
    if constexpr (std::is_signed_v<T>) signed_integer(n);
    else unsigned_integer(n);
  }
  template <class T>
  void value(const std::optional<T>& v) {
    if (v) value(*v);
    else null();
  }
  template <class T>
  void value(const std::vector<T>& items) {
    array([&] {
      for (const T& item : items) value(item);
    });
  }
  void null();

  template <class T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  struct Level {
    bool object = false;
    bool empty = true;
    bool has_key = false;
    std::string_view last_key;
  };
  void signed_integer(int64_t n);
  void unsigned_integer(uint64_t n);
  void open(char bracket, bool object);
  void close(char bracket);
  void element();  // the separator before an array element or a key
  void newline(size_t depth);
  void quoted(std::string_view s);  // escaped as dump() escapes

  std::string& out_;
  int indent_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

// The compact text of `r`, through `write_json(JsonWriter&, const R&)`.
template <class R>
std::string json_text(const R& r, int indent = -1) {
  std::string out;
  JsonWriter w(out, indent);
  write_json(w, r);
  return out;
}

}  // namespace fl
