#include "json/write.hpp"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstring>

#include "json/float_repr.hpp"

namespace otm::json {
namespace {

using Buffer = rapidjson::StringBuffer;

// A rapidjson output stream into a std::string the caller takes without a
// copy (LineBuilder: a line of megabytes).
struct StringOut {
  using Ch = char;
  std::string s;
  void Put(char c) { s.push_back(c); }
  void Flush() {}
};

void put_text(Buffer &b, std::string_view t) { std::memcpy(b.Push(t.size()), t.data(), t.size()); }
void put_text(StringOut &o, std::string_view t) { o.s.append(t); }

// rapidjson::Writer with Python's single-line separators (", " and ": ").
// Writer::Prefix is not virtual, so the handlers that call it are re-stated
// here the way rapidjson's own PrettyWriter does.
template <typename Out> class LineWriter : public rapidjson::Writer<Out> {
  using Base = rapidjson::Writer<Out>;

public:
  explicit LineWriter(Out &b) : Base(b) {}
  bool Null() {
    Sep();
    return Base::EndValue(Base::WriteNull());
  }
  bool Bool(bool b) {
    Sep();
    return Base::EndValue(Base::WriteBool(b));
  }
  bool Int64(int64_t i) {
    Sep();
    return Base::EndValue(Base::WriteInt64(i));
  }
  bool Raw(const std::string &s) {
    Sep();
    return Base::EndValue(Base::WriteRawValue(s.data(), s.size()));
  }
  // A value already written in this layout: its bytes, copied.
  bool Written(std::string_view s) {
    Sep();
    put_text(*Base::os_, s);
    return Base::EndValue(true);
  }
  bool String(const std::string &s) {
    Sep();
    return Base::EndValue(Base::WriteString(s.data(), static_cast<rapidjson::SizeType>(s.size())));
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
      if (level->inArray || level->valueCount % 2 == 0) {
        Base::os_->Put(',');
        Base::os_->Put(' ');
      } else {
        Base::os_->Put(':');
        Base::os_->Put(' ');
      }
    }
    level->valueCount++;
  }
};

// rapidjson::PrettyWriter already lays out exactly like Python's indent=1;
// only the float format differs, so doubles go through python_float_repr.
class PrettyWriter : public rapidjson::PrettyWriter<Buffer> {
  using Base = rapidjson::PrettyWriter<Buffer>;

public:
  explicit PrettyWriter(Buffer &b) : Base(b) { Base::SetIndent(' ', 1); }
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
  case Kind::Double: {
    double d = *v.as_number();
    if (std::isfinite(d))
      w.Raw(python_float_repr(d));
    else
      w.Null();
    break;
  }
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

} // namespace

std::string to_line(const Value &v) {
  Buffer buf;
  LineWriter<Buffer> w(buf);
  emit(w, v);
  return std::string(buf.GetString(), buf.GetSize());
}

std::string to_pretty(const Value &v) {
  Buffer buf;
  PrettyWriter w(buf);
  emit(w, v);
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

std::string quote(std::string_view s) { return to_line(Value(s)); }

struct LineBuilder::Impl {
  StringOut out;
  LineWriter<StringOut> w{out};
};

LineBuilder::LineBuilder() : impl_(std::make_unique<Impl>()) {}
LineBuilder::~LineBuilder() = default;
void LineBuilder::start_object() { impl_->w.StartObject(); }
void LineBuilder::end_object() { impl_->w.EndObject(); }
void LineBuilder::start_array() { impl_->w.StartArray(); }
void LineBuilder::end_array() { impl_->w.EndArray(); }
void LineBuilder::key(std::string_view k) { impl_->w.Key(std::string(k)); }
void LineBuilder::value(const Value &v) { emit(impl_->w, v); }
void LineBuilder::written(std::string_view line_text) { impl_->w.Written(line_text); }
void LineBuilder::reserve(std::size_t bytes) { impl_->out.s.reserve(bytes); }
std::size_t LineBuilder::pending() const { return impl_->out.s.size(); }
void LineBuilder::drain(const std::function<void(std::string_view)> &sink) {
  sink(impl_->out.s);
  impl_->out.s.clear();
}
std::string LineBuilder::take() { return std::move(impl_->out.s); }

bool written_as_is(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') return false;
  return true;
}

} // namespace otm::json
