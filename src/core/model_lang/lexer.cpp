#include "core/model_lang/lexer.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

namespace fl::lang {

SourceError::SourceError(Position p, std::string msg)
    : std::runtime_error(std::to_string(p.line) + ":" + std::to_string(p.col) + ": " + msg), at(p), message(std::move(msg)) {}

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    if (s_.size() > kMaxSourceBytes)
      throw SourceError({1, 1}, "the source is longer than " + std::to_string(kMaxSourceBytes) + " bytes");
    while (i_ < s_.size()) {
      if (at_line_start_ && depth_ == 0) {
        if (!indent()) continue;  // a blank or comment line
      }
      const char c = s_[i_];
      if (c == '\n') {
        newline();
      } else if (c == ' ' || c == '\r') {
        advance();
      } else if (c == '\t') {
        throw SourceError(here(), "a tab: indent and separate with spaces");
      } else if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') advance();
      } else if (name_start(c)) {
        name();
      } else if (digit(c) || (c == '.' && i_ + 1 < s_.size() && digit(s_[i_ + 1]))) {
        number();
      } else if (c == '"') {
        string();
      } else {
        op();
      }
    }
    if (depth_ > 0) throw SourceError(open_.back(), "a bracket that is never closed");
    if (!tokens_.empty() && tokens_.back().kind != Token::Kind::Newline) push(Token::Kind::Newline, "");
    for (; indents_.size() > 1; indents_.pop_back()) push(Token::Kind::Dedent, "");
    push(Token::Kind::End, "");
    return std::move(tokens_);
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
  Position pos_;
  bool at_line_start_ = true;
  int depth_ = 0;  // open brackets: newlines inside them join lines
  std::vector<int> indents_{0};
  std::vector<Position> open_;  // where each open bracket is
  std::vector<Token> tokens_;

  Position here() const { return pos_; }
  void advance() {
    if (s_[i_] == '\n') {
      ++pos_.line;
      pos_.col = 1;
    } else {
      ++pos_.col;
    }
    ++i_;
  }
  void push(Token::Kind k, std::string text, Position at) { tokens_.push_back({k, at, std::move(text), 0}); }
  void push(Token::Kind k, std::string text) { push(k, std::move(text), here()); }

  // The indent of a line: INDENT or DEDENTs against the enclosing blocks.
  // False for a line with nothing on it (consumed, newline included).
  bool indent() {
    int width = 0;
    const Position start = here();
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\r')) {
      width += s_[i_] == ' ';
      advance();
    }
    if (i_ < s_.size() && s_[i_] == '\t') throw SourceError(here(), "a tab: indent and separate with spaces");
    if (i_ == s_.size() || s_[i_] == '\n' || s_[i_] == '#') {
      while (i_ < s_.size() && s_[i_] != '\n') advance();
      if (i_ < s_.size()) advance();
      return false;
    }
    at_line_start_ = false;
    if (width > indents_.back()) {
      if (static_cast<int>(indents_.size()) > kMaxNesting) throw SourceError(here(), "blocks nested too deep");
      indents_.push_back(width);
      push(Token::Kind::Indent, "", start);
    }
    while (width < indents_.back()) {
      indents_.pop_back();
      push(Token::Kind::Dedent, "", here());
    }
    if (width != indents_.back()) throw SourceError(here(), "this line's indent matches no enclosing block");
    return true;
  }

  void newline() {
    if (depth_ == 0) {
      push(Token::Kind::Newline, "");
      at_line_start_ = true;
    }
    advance();
  }

  void name() {
    const Position at = here();
    const size_t b = i_;
    while (i_ < s_.size() && name_char(s_[i_])) advance();
    push(Token::Kind::Name, std::string(s_.substr(b, i_ - b)), at);
  }

  void number() {
    const Position at = here();
    const size_t b = i_;
    while (i_ < s_.size() && digit(s_[i_])) advance();
    if (i_ < s_.size() && s_[i_] == '.') {
      advance();
      while (i_ < s_.size() && digit(s_[i_])) advance();
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      advance();
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) advance();
      if (i_ == s_.size() || !digit(s_[i_])) throw SourceError(here(), "a number's exponent needs digits");
      while (i_ < s_.size() && digit(s_[i_])) advance();
    }
    if (i_ < s_.size() && name_char(s_[i_])) throw SourceError(here(), "a name cannot begin with a digit");
    const std::string text(s_.substr(b, i_ - b));
    push(Token::Kind::Number, text, at);
    tokens_.back().number = std::strtod(text.c_str(), nullptr);
  }

  void string() {
    const Position at = here();
    advance();
    const size_t b = i_;
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n') advance();
    if (i_ == s_.size() || s_[i_] != '"') throw SourceError(at, "a string without its closing \"");
    push(Token::Kind::String, std::string(s_.substr(b, i_ - b)), at);
    advance();
  }

  void op() {
    const Position at = here();
    const char c = s_[i_];
    if ((c == '=' || c == '!') && i_ + 1 < s_.size() && s_[i_ + 1] == '=') {
      advance();
      advance();
      push(Token::Kind::Op, c == '=' ? "==" : "!=", at);
      return;
    }
    static constexpr std::string_view kOps = "+-*/@()[],=:";
    if (kOps.find(c) == std::string_view::npos) {
      const auto byte = static_cast<unsigned char>(c);
      throw SourceError(at, byte < 0x20 || byte >= 0x7f ? "an unexpected byte"
                                                        : std::string("an unexpected character '") + c + "'");
    }
    if (c == '(' || c == '[') {
      if (++depth_ > kMaxNesting) throw SourceError(at, "brackets nested too deep");
      open_.push_back(at);
    } else if (c == ')' || c == ']') {
      if (depth_ == 0) throw SourceError(at, std::string("a '") + c + "' that closes nothing");
      --depth_;
      open_.pop_back();
    }
    advance();
    push(Token::Kind::Op, std::string(1, c), at);
  }
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) {
  Lexer lexer(source);
  return lexer.run();
}

}  // namespace fl::lang
