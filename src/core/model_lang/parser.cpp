#include "core/model_lang/parser.h"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace fl::lang {

namespace {

constexpr std::array<std::string_view, 6> kKeywords = {"param", "def", "if", "else", "return", "step"};
bool keyword(std::string_view s) {
  for (std::string_view k : kKeywords)
    if (k == s) return true;
  return false;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Program program() {
    Program p;
    while (!at(Token::Kind::End)) {
      if (accept(Token::Kind::Newline)) continue;
      p.stmts.push_back(statement());
    }
    return p;
  }

 private:
  std::vector<Token> t_;
  size_t i_ = 0;
  int nesting_ = 0;

  const Token& peek() const { return t_[i_]; }
  bool at(Token::Kind k) const { return peek().kind == k; }
  bool at_op(std::string_view op) const { return at(Token::Kind::Op) && peek().text == op; }
  bool at_name(std::string_view name) const { return at(Token::Kind::Name) && peek().text == name; }
  const Token& next() { return t_[i_ < t_.size() - 1 ? i_++ : i_]; }
  bool accept(Token::Kind k) {
    if (!at(k)) return false;
    next();
    return true;
  }
  bool accept_op(std::string_view op) {
    if (!at_op(op)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(const std::string& expected) const {
    const Token& t = peek();
    std::string found;
    switch (t.kind) {
      case Token::Kind::Name: found = "'" + t.text + "'"; break;
      case Token::Kind::Number: found = t.text; break;
      case Token::Kind::String: found = "a string"; break;
      case Token::Kind::Op: found = "'" + t.text + "'"; break;
      case Token::Kind::Newline: found = "the end of the line"; break;
      case Token::Kind::Indent: found = "an indented line"; break;
      case Token::Kind::Dedent: found = "the end of the block"; break;
      case Token::Kind::End: found = "the end of the source"; break;
    }
    throw SourceError(t.at, "expected " + expected + ", found " + found);
  }
  void expect_op(std::string_view op) {
    if (!accept_op(op)) fail("'" + std::string(op) + "'");
  }
  std::string expect_name(const std::string& what) {
    if (!at(Token::Kind::Name) || keyword(peek().text)) fail(what);
    return next().text;
  }
  void end_of_line() {
    if (!accept(Token::Kind::Newline)) fail("the end of the line");
  }
  // Counts what is nested in what, so that no input runs the parser out of stack.
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.nesting_ > kMaxNesting) throw SourceError(p.peek().at, "nested too deep");
    }
    ~Nest() { --p.nesting_; }
  };

  std::vector<Stmt> block() {
    const Nest nest(*this);
    expect_op(":");
    if (!accept(Token::Kind::Newline)) fail("the end of the line (a block begins on the next line, indented)");
    if (!accept(Token::Kind::Indent)) fail("an indented line");
    std::vector<Stmt> body;
    while (!accept(Token::Kind::Dedent)) {
      if (accept(Token::Kind::Newline)) continue;
      if (at(Token::Kind::End)) fail("the end of the block");
      body.push_back(statement());
    }
    return body;
  }

  Stmt statement() {
    Stmt s;
    s.at = peek().at;
    if (at_name("param")) {
      next();
      s.kind = Stmt::Kind::Param;
      s.name = expect_name("the parameter's name");
      if (!at_op("[")) fail("'[' and the parameter's shape");
      s.value = primary();
      end_of_line();
    } else if (at_name("def")) {
      next();
      s.kind = Stmt::Kind::Def;
      s.name = expect_name("the function's name");
      expect_op("(");
      if (!at_op(")")) {
        do s.params.push_back(expect_name("a parameter's name"));
        while (accept_op(","));
      }
      expect_op(")");
      s.body = block();
    } else if (at_name("if")) {
      next();
      s.kind = Stmt::Kind::If;
      s.value = expression();
      s.body = block();
      if (at_name("else")) {
        next();
        s.orelse = block();
      }
    } else if (at_name("return")) {
      next();
      s.kind = Stmt::Kind::Return;
      s.value = expression();
      end_of_line();
    } else if (at_name("step")) {
      next();
      s.kind = Stmt::Kind::Step;
      s.name = expect_name("the step's key (attn_norm, q_proj, ...)");
      end_of_line();
    } else if (at(Token::Kind::Name) && !keyword(peek().text)) {
      s.kind = Stmt::Kind::Assign;
      s.name = next().text;
      expect_op("=");
      s.value = expression();
      end_of_line();
    } else {
      fail("a statement (name = value, param, def, if, return or step)");
    }
    return s;
  }

  ExprPtr node(Expr::Kind k, Position at, std::string text = {}) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->at = at;
    e->text = std::move(text);
    return e;
  }
  ExprPtr binary(std::string op, ExprPtr lhs, ExprPtr rhs) {
    ExprPtr e = node(Expr::Kind::Binary, lhs->at, std::move(op));
    e->items.push_back(std::move(lhs));
    e->items.push_back(std::move(rhs));
    return e;
  }

  // expression := sum [("==" | "!=") sum]
  ExprPtr expression() {
    const Nest nest(*this);
    ExprPtr lhs = sum();
    for (const char* op : {"==", "!="})
      if (accept_op(op)) return binary(op, std::move(lhs), sum());
    return lhs;
  }
  // sum := product {("+" | "-") product}
  ExprPtr sum() { return chain({"+", "-"}, &Parser::product); }
  // product := unary {("*" | "/" | "@") unary}
  ExprPtr product() { return chain({"*", "/", "@"}, &Parser::unary); }
  // operand {op operand}, left to right. Each operator nests its left side
  // one deeper: counted, so that no tree is too deep to walk.
  ExprPtr chain(std::initializer_list<std::string_view> ops, ExprPtr (Parser::*operand)()) {
    auto at_one = [&] { return std::any_of(ops.begin(), ops.end(), [&](std::string_view op) { return at_op(op); }); };
    ExprPtr e = (this->*operand)();
    const int before = nesting_;
    while (at_one()) {
      if (++nesting_ > kMaxNesting) throw SourceError(peek().at, "nested too deep (too many operators in one expression)");
      std::string op = next().text;
      e = binary(std::move(op), std::move(e), (this->*operand)());
    }
    nesting_ = before;
    return e;
  }
  // unary := "-" unary | call
  ExprPtr unary() {
    const Nest nest(*this);
    if (at_op("-")) {
      ExprPtr e = node(Expr::Kind::Unary, next().at, "-");
      e->items.push_back(unary());
      return e;
    }
    return call();
  }
  // call := primary ["(" [expression {"," expression}] ")"], only after a name
  ExprPtr call() {
    ExprPtr e = primary();
    if (e->kind != Expr::Kind::Name || !at_op("(")) return e;
    e->kind = Expr::Kind::Call;
    next();
    if (!at_op(")")) {
      do e->items.push_back(expression());
      while (accept_op(","));
    }
    expect_op(")");
    return e;
  }
  // primary := number | string | name | "(" expression ")" | "[" [expression {"," expression}] "]"
  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Token::Kind::Number: {
        ExprPtr e = node(Expr::Kind::Number, t.at, t.text);
        e->number = t.number;
        next();
        return e;
      }
      case Token::Kind::String: {
        ExprPtr e = node(Expr::Kind::String, t.at, t.text);
        next();
        return e;
      }
      case Token::Kind::Name:
        if (keyword(t.text)) fail("a value");
        return node(Expr::Kind::Name, next().at, t.text);
      default: break;
    }
    if (accept_op("(")) {
      ExprPtr e = expression();
      expect_op(")");
      return e;
    }
    if (at_op("[")) {
      ExprPtr e = node(Expr::Kind::List, next().at);
      if (!at_op("]")) {
        do e->items.push_back(expression());
        while (accept_op(","));
      }
      expect_op("]");
      return e;
    }
    fail("a value (a number, a name, a call, a list or a bracketed expression)");
  }
};

// Operator precedence, for brackets in format: higher binds tighter.
int precedence(const Expr& e) {
  if (e.kind == Expr::Kind::Binary) {
    if (e.text == "==" || e.text == "!=") return 1;
    if (e.text == "+" || e.text == "-") return 2;
    return 3;  // * / @
  }
  if (e.kind == Expr::Kind::Unary) return 4;
  return 5;
}

void format_expr(const Expr& e, std::string& out) {
  switch (e.kind) {
    case Expr::Kind::Number: out += e.text; return;
    case Expr::Kind::String: out.append("\"").append(e.text).append("\""); return;
    case Expr::Kind::Name: out += e.text; return;
    case Expr::Kind::List:
    case Expr::Kind::Call: {
      if (e.kind == Expr::Kind::Call) out += e.text;
      out += e.kind == Expr::Kind::Call ? "(" : "[";
      for (size_t i = 0; i < e.items.size(); ++i) {
        if (i) out += ", ";
        format_expr(*e.items[i], out);
      }
      out += e.kind == Expr::Kind::Call ? ")" : "]";
      return;
    }
    case Expr::Kind::Unary: {
      out += "-";
      const bool wrap = precedence(*e.items[0]) < precedence(e);
      if (wrap) out += "(";
      format_expr(*e.items[0], out);
      if (wrap) out += ")";
      return;
    }
    case Expr::Kind::Binary: {
      // Left-associative: a right operand of the same precedence needs brackets.
      const bool wrap_l = precedence(*e.items[0]) < precedence(e);
      const bool wrap_r = precedence(*e.items[1]) <= precedence(e);
      if (wrap_l) out += "(";
      format_expr(*e.items[0], out);
      if (wrap_l) out += ")";
      out.append(" ").append(e.text).append(" ");
      if (wrap_r) out += "(";
      format_expr(*e.items[1], out);
      if (wrap_r) out += ")";
      return;
    }
  }
}

void format_block(const std::vector<Stmt>& stmts, int depth, std::string& out) {
  const std::string pad(static_cast<size_t>(depth) * 4, ' ');
  for (const Stmt& s : stmts) {
    out += pad;
    switch (s.kind) {
      case Stmt::Kind::Assign: out.append(s.name).append(" = "); format_expr(*s.value, out); out += "\n"; break;
      case Stmt::Kind::Param: out.append("param ").append(s.name); format_expr(*s.value, out); out += "\n"; break;
      case Stmt::Kind::Return: out.append("return "); format_expr(*s.value, out); out += "\n"; break;
      case Stmt::Kind::Step: out.append("step ").append(s.name).append("\n"); break;
      case Stmt::Kind::Def: {
        out.append("def ").append(s.name).append("(");
        for (size_t i = 0; i < s.params.size(); ++i) out.append(i ? ", " : "").append(s.params[i]);
        out.append("):\n");
        format_block(s.body, depth + 1, out);
        break;
      }
      case Stmt::Kind::If: {
        out.append("if ");
        format_expr(*s.value, out);
        out.append(":\n");
        format_block(s.body, depth + 1, out);
        if (!s.orelse.empty()) {
          out.append(pad).append("else:\n");
          format_block(s.orelse, depth + 1, out);
        }
        break;
      }
    }
  }
}

}  // namespace

Program parse(std::string_view source) {
  Parser parser(tokenize(source));
  return parser.program();
}

std::string format(const Program& p) {
  std::string out;
  format_block(p.stmts, 0, out);
  return out;
}

}  // namespace fl::lang
