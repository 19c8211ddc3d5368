#include "core/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

// nlohmann's own shortest round-trip formatting (Grisu2), so that numbers read
// exactly as dump() writes them.
#include <nlohmann/json.hpp>

namespace fl {

namespace {
// A byte written as it is inside a JSON string.
bool plain(char ch) { return static_cast<unsigned char>(ch) >= 0x20 && ch != '"' && ch != '\\'; }
}  // namespace

void JsonWriter::newline(size_t depth) {
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::element() {
  if (after_key_) {  // the value of the key just written
    after_key_ = false;
    return;
  }
  if (levels_.empty()) return;  // the top value
  Level& level = levels_.back();
  if (!level.empty) out_ += ',';
  level.empty = false;
  if (indent_ >= 0) newline(levels_.size());
}

void JsonWriter::open(char bracket, bool object) {
  element();
  out_ += bracket;
  levels_.push_back(Level{object, true, false, {}});
}

void JsonWriter::close(char bracket) {
  const bool empty = levels_.back().empty;
  levels_.pop_back();
  if (indent_ >= 0 && !empty) newline(levels_.size());
  out_ += bracket;
}

void JsonWriter::begin_object() { open('{', true); }
void JsonWriter::end_object() { close('}'); }
void JsonWriter::begin_array() { open('[', false); }
void JsonWriter::end_array() { close(']'); }

void JsonWriter::key(std::string_view k) {
  Level& level = levels_.back();
  if (!level.object) throw std::logic_error("JsonWriter: a key inside an array");
  if (level.has_key && k <= level.last_key)
    throw std::logic_error("JsonWriter: key \"" + std::string(k) + "\" after \"" + std::string(level.last_key) + "\"");
  level.has_key = true;
  level.last_key = k;
  element();
  after_key_ = true;
  // A key is a name: in one append when nothing in it needs escaping.
  char text[64];
  if (k.size() + 4 <= sizeof text && std::all_of(k.begin(), k.end(), plain)) {
    size_t n = 0;
    text[n++] = '"';
    for (char ch : k) text[n++] = ch;
    text[n++] = '"';
    text[n++] = ':';
    if (indent_ >= 0) text[n++] = ' ';
    out_.append(text, n);
    return;
  }
  quoted(k);
  out_.append(indent_ >= 0 ? ": " : ":");
}

void JsonWriter::value(std::string_view s) {
  element();
  quoted(s);
}

void JsonWriter::quoted(std::string_view s) {
  out_ += '"';
  for (size_t i = 0; i < s.size();) {
    size_t run = i;  // a run of bytes that need no escape, appended at once
    while (run < s.size() && plain(s[run])) ++run;
    out_.append(s.data() + i, run - i);
    if (run == s.size()) break;
    const char ch = s[run];
    i = run + 1;
    const auto byte = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': out_ += "\\\""; break;
      case '\\': out_ += "\\\\"; break;
      case '\b': out_ += "\\b"; break;
      case '\t': out_ += "\\t"; break;
      case '\n': out_ += "\\n"; break;
      case '\f': out_ += "\\f"; break;
      case '\r': out_ += "\\r"; break;
      default: {  // another control character (UTF-8 passes through, as dump() without ensure_ascii)
        static constexpr char kHex[] = "0123456789abcdef";
        out_ += "\\u00";
        out_ += kHex[byte >> 4];
        out_ += kHex[byte & 15];
      }
    }
  }
  out_ += '"';
}

void JsonWriter::value(bool b) {
  element();
  out_ += b ? "true" : "false";
}

void JsonWriter::null() {
  element();
  out_ += "null";
}

void JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();
  element();
  // A whole number under 1e15 (byte counts, sizes): dump() writes its digits
  // and ".0", which needs no search for the shortest digits. -0.0 is not one.
  if (std::fabs(d) < 1e15 && d == std::trunc(d) && !(d == 0 && std::signbit(d))) {
    char digits[24];
    out_.append(digits, static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, static_cast<int64_t>(d)).ptr - digits));
    out_.append(".0");
    return;
  }
  char buffer[64];
  const char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, d);
  out_.append(buffer, static_cast<size_t>(end - buffer));
}

void JsonWriter::signed_integer(int64_t n) {
  element();
  char buffer[24];
  out_.append(buffer, static_cast<size_t>(std::to_chars(buffer, buffer + sizeof buffer, n).ptr - buffer));
}

void JsonWriter::unsigned_integer(uint64_t n) {
  element();
  char buffer[24];
  out_.append(buffer, static_cast<size_t>(std::to_chars(buffer, buffer + sizeof buffer, n).ptr - buffer));
}

}  // namespace fl
