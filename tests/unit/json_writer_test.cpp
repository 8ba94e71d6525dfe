// json::Writer (and to_line/to_pretty over it) against the writer it
// replaced: RapidJSON's Writer with Python's separators and its
// PrettyWriter with one space of indent, floats in Python's repr. The
// layouts are a contract (JSONL rows, packets, records): byte for byte the
// same on generated documents with every byte value in strings and keys
// (control characters, quotes, backslashes, UTF-8 and invalid UTF-8), every
// kind of number, empty and nested containers.
#include <catch2/catch.hpp>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <limits>
#include <random>

#include "json/float_repr.hpp"
#include "json/write.hpp"
#include "json/writer.hpp"

using namespace otm::json;

namespace {

using Buffer = rapidjson::StringBuffer;

// The previous to_line: RapidJSON's Writer with ", " and ": ".
class ReferenceLine : public rapidjson::Writer<Buffer> {
  using Base = rapidjson::Writer<Buffer>;

public:
  explicit ReferenceLine(Buffer &b) : Base(b) {}
  bool Null() { return Sep(), Base::EndValue(Base::WriteNull()); }
  bool Bool(bool b) { return Sep(), Base::EndValue(Base::WriteBool(b)); }
  bool Int64(int64_t i) { return Sep(), Base::EndValue(Base::WriteInt64(i)); }
  bool Raw(const std::string &s) { return Sep(), Base::EndValue(Base::WriteRawValue(s.data(), s.size())); }
  bool String(const std::string &s) {
    return Sep(), Base::EndValue(Base::WriteString(s.data(), static_cast<rapidjson::SizeType>(s.size())));
  }
  bool Key(const std::string &s) { return String(s); }
  bool StartObject() {
    Sep();
    new (Base::level_stack_.template Push<typename Base::Level>()) typename Base::Level(false);
    return Base::WriteStartObject();
  }
  bool EndObject() {
    Base::level_stack_.template Pop<typename Base::Level>(1);
    return Base::EndValue(Base::WriteEndObject());
  }
  bool StartArray() {
    Sep();
    new (Base::level_stack_.template Push<typename Base::Level>()) typename Base::Level(true);
    return Base::WriteStartArray();
  }
  bool EndArray() {
    Base::level_stack_.template Pop<typename Base::Level>(1);
    return Base::EndValue(Base::WriteEndArray());
  }

private:
  void Sep() {
    if (Base::level_stack_.GetSize() == 0) {
      Base::hasRoot_ = true;
      return;
    }
    auto *level = Base::level_stack_.template Top<typename Base::Level>();
    if (level->valueCount > 0) {
      Base::os_->Put(level->inArray || level->valueCount % 2 == 0 ? ',' : ':');
      Base::os_->Put(' ');
    }
    level->valueCount++;
  }
};

// The previous to_pretty: RapidJSON's PrettyWriter, indent one space.
class ReferencePretty : public rapidjson::PrettyWriter<Buffer> {
  using Base = rapidjson::PrettyWriter<Buffer>;

public:
  explicit ReferencePretty(Buffer &b) : Base(b) { Base::SetIndent(' ', 1); }
  bool Raw(const std::string &s) { return Base::RawValue(s.data(), s.size(), rapidjson::kNumberType); }
  bool String(const std::string &s) { return Base::String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  bool Key(const std::string &s) { return Base::Key(s.data(), static_cast<rapidjson::SizeType>(s.size())); }
  using Base::Bool;
  using Base::EndArray;
  using Base::EndObject;
  using Base::Int64;
  using Base::Null;
  using Base::StartArray;
  using Base::StartObject;
};

template <typename W> void emit(W &w, const Value &v) {
  switch (v.kind()) {
  case Kind::Null: w.Null(); break;
  case Kind::Bool: w.Bool(*v.as_bool()); break;
  case Kind::Int: w.Int64(*v.as_int()); break;
  case Kind::Double:
    if (std::isfinite(*v.as_number()))
      w.Raw(python_float_repr(*v.as_number()));
    else
      w.Null();
    break;
  case Kind::String: w.String(*v.as_string()); break;
  case Kind::Array:
    w.StartArray();
    for (const auto &e : *v.as_array()) emit(w, e);
    w.EndArray();
    break;
  case Kind::Object:
    w.StartObject();
    for (const auto &[k, e] : *v.as_object()) {
      w.Key(k);
      emit(w, e);
    }
    w.EndObject();
    break;
  }
}

std::string reference_line(const Value &v) {
  Buffer b;
  ReferenceLine w(b);
  emit(w, v);
  return std::string(b.GetString(), b.GetSize());
}

std::string reference_pretty(const Value &v) {
  Buffer b;
  ReferencePretty w(b);
  emit(w, v);
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

struct Generator {
  std::mt19937_64 rng{20261203};
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }
  std::string text() {
    static const std::vector<std::string> pieces = {
        "",     "a",    "shape-1", "\"", "\\", "/",    "\n",   "\t",   "\r", "\b", "\f",    std::string(1, '\0'),
        "\x01", "\x1f", "\x7f",    "é",  "—",  "\xff", "\xc3", "€uro", " ",  "{}", "[1, 2]"};
    std::string s;
    for (std::size_t n = pick(6); n > 0; --n) s += pieces[pick(pieces.size())];
    if (pick(4) == 0) s += static_cast<char>(pick(256));
    return s;
  }
  Value scalar() {
    switch (pick(9)) {
    case 0: return Value();
    case 1: return Value(pick(2) == 0);
    case 2: return Value(static_cast<long long>(rng()));
    case 3: return Value(static_cast<long long>(pick(2000)) - 1000);
    case 4: return Value(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(pick(120)) - 80));
    case 5: {
      static const double special[] = {
          0.0, -0.0, 1e16, 1e-5, 0.1, 59.14, 10.0, -2.5, 1e300, std::numeric_limits<double>::infinity(), std::nan("")};
      return Value(special[pick(std::size(special))]);
    }
    default: return Value(text());
    }
  }
  Value any(int depth) {
    std::size_t kind = depth > 4 ? 0 : pick(4);
    if (kind < 2) return scalar();
    if (kind == 2) {
      Value a = Value::array();
      for (std::size_t n = pick(5); n > 0; --n) a.push_back(any(depth + 1));
      return a;
    }
    Value o = Value::object();
    for (std::size_t n = pick(5); n > 0; --n) o.set(text() + std::to_string(n), any(depth + 1));
    return o;
  }
};

} // namespace

TEST_CASE("the JSON writer gives the bytes RapidJSON's writers gave", "[json][writer]") {
  Generator g;
  for (int i = 0; i < 3000; ++i) {
    Value v = g.any(0);
    INFO("document " << i);
    REQUIRE(to_line(v) == reference_line(v));
    REQUIRE(to_pretty(v) == reference_pretty(v));
  }
  // Every byte value alone in a string.
  for (int c = 0; c < 256; ++c) {
    Value v(std::string(1, static_cast<char>(c)));
    REQUIRE(to_line(v) == reference_line(v));
  }
}

TEST_CASE("written as produced, a document equals its tree's text", "[json][writer]") {
  std::string out;
  Writer w(out, Writer::Layout::Pretty);
  w.begin_object().key("a").value("x\ny");
  w.key("b").begin_array().value(std::int64_t(3)).null().value(2.5).value(true).end_array();
  w.key("c").value(Value::object());
  w.key("d").value("not evidence").end_object();
  Value tree = Value::object();
  tree.set("a", "x\ny");
  tree.set("b", Value(Array{Value(3), Value(), Value(2.5), Value(true)}));
  tree.set("c", Value::object());
  tree.set("d", "not evidence");
  CHECK(out + "\n" == to_pretty(tree));
}
