#include "schema/profile.hpp"

#include <algorithm>
#include <set>

#include "schema/canonical.hpp"
#include "text/regex.hpp"
#include "text/sha256.hpp"
#include "text/utf8.hpp"

namespace otm::schema {
namespace {

std::string describe(const Patch &p, std::size_t index) {
  return "patch " + std::to_string(index) + " (" + p.op + " " + p.dotted_path() + ")";
}

json::Value *step(json::Value &node, const json::Value &key) {
  if (const auto *k = key.as_string()) return node.find(*k);
  if (auto i = key.as_int()) {
    auto *arr = node.as_array();
    if (!arr || *i < 0 || static_cast<std::size_t>(*i) >= arr->size()) return nullptr;
    return &(*arr)[static_cast<std::size_t>(*i)];
  }
  return nullptr;
}

std::vector<std::string> names_of(const json::Value &list) {
  std::vector<std::string> out;
  if (const auto *a = list.as_array())
    for (const auto &v : *a)
      if (const auto *s = v.as_string()) out.push_back(*s);
  return out;
}

void apply(json::Value &doc, const Patch &p, std::size_t index) {
  const auto &keys = *p.path.as_array();
  json::Value *node = &doc;
  // For `set` the last key is replaced in its parent; for the others the
  // path names the node itself.
  std::size_t walk = p.op == "set" ? keys.size() - 1 : keys.size();
  for (std::size_t i = 0; i < walk; ++i) {
    node = step(*node, keys[i]);
    if (!node)
      throw ProfileError(describe(p, index) + " no longer applies: missing " + keys[i].python_str() +
                         "; re-review the patch list against the base schema");
  }
  if (p.op == "set") {
    const auto *last = keys.back().as_string();
    if (!last || !node->is_object() || !node->contains(*last))
      throw ProfileError(describe(p, index) + " no longer applies: the key to replace is missing");
    node->set(*last, p.value);
    return;
  }
  auto names = names_of(p.value);
  const auto &props = node->get("properties");
  for (const auto &n : names)
    if (!props.contains(n))
      throw ProfileError(describe(p, index) + " no longer applies: property '" + n + "' is not declared");
  if (p.op == "require") {
    node->set("required", json::Value::strings(names));
  } else {
    json::Value kept = json::Value::object();
    for (const auto &n : names) kept.set(n, props.get(n));
    node->set("properties", kept);
    node->set("additionalProperties", false);
  }
}

std::set<std::string> type_set(const json::Value &t) {
  std::set<std::string> out;
  if (const auto *s = t.as_string()) out.insert(*s);
  for (const auto &n : names_of(t)) out.insert(n);
  return out;
}

void widening(const json::Value &base, const json::Value &narrow, const std::string &path,
              std::vector<std::string> &out) {
  const auto *b = base.as_object();
  const auto *n = narrow.as_object();
  if (!b || !n) return;
  std::string here = path.empty() ? "<root>" : path;
  bool closed = narrow.get("additionalProperties") == json::Value(false);
  for (const auto &[key, bval] : *b) {
    const auto *nval = narrow.find(key);
    static const std::set<std::string> constraints = {"type",    "enum",    "const", "required", "pattern", "minLength",
                                                      "minimum", "maximum", "items", "if",       "then",    "allOf"};
    if (!nval) {
      if (constraints.count(key)) out.push_back(here + ": drops '" + key + "'");
      if (key == "additionalProperties" && bval == json::Value(false))
        out.push_back(here + ": re-opens additionalProperties");
      continue;
    }
    const std::string sub = path + "/" + key;
    if (key == "properties" && bval.is_object() && nval->is_object()) {
      for (const auto &[name, _] : *nval->as_object())
        if (!bval.contains(name)) out.push_back(sub + ": adds property '" + name + "'");
      for (const auto &[name, child] : *bval.as_object()) {
        if (const auto *nc = nval->find(name))
          widening(child, *nc, sub + "/" + name, out);
        else if (!closed)
          out.push_back(sub + ": removes '" + name + "' without closing the object");
      }
    } else if (key == "$defs" && bval.is_object()) {
      for (const auto &[name, child] : *bval.as_object())
        if (const auto *nc = nval->find(name)) widening(child, *nc, sub + "/" + name, out);
    } else if (key == "type") {
      auto bt = type_set(bval), nt = type_set(*nval);
      for (const auto &t : nt)
        if (!bt.count(t) && !(t == "integer" && bt.count("number"))) out.push_back(sub + ": widens type to " + t);
    } else if (key == "enum") {
      const auto *ba = bval.as_array();
      for (const auto &v : nval->as_array() ? *nval->as_array() : json::Array{})
        if (!ba || std::find(ba->begin(), ba->end(), v) == ba->end())
          out.push_back(sub + ": widens enum with " + v.python_str());
    } else if (key == "const" || key == "pattern") {
      if (!(bval == *nval)) out.push_back(sub + ": changes " + key);
    } else if (key == "required") {
      auto have = names_of(*nval);
      for (const auto &r : names_of(bval))
        if (std::find(have.begin(), have.end(), r) == have.end()) out.push_back(sub + ": no longer requires " + r);
    } else if (key == "additionalProperties") {
      if (bval == json::Value(false) && !(*nval == json::Value(false)))
        out.push_back(sub + ": re-opens additionalProperties");
      else if (bval.is_object() && nval->is_object())
        widening(bval, *nval, sub, out);
    } else if (key == "minLength" || key == "minimum") {
      if (bval.is_number() && (!nval->is_number() || *nval->as_number() < *bval.as_number()))
        out.push_back(sub + ": lowers " + key);
    } else if (key == "maximum") {
      if (bval.is_number() && (!nval->is_number() || *nval->as_number() > *bval.as_number()))
        out.push_back(sub + ": raises maximum");
    } else if (bval.is_object()) {
      widening(bval, *nval, sub, out);
    } else if (const auto *ba = bval.as_array()) {
      const auto *na = nval->as_array();
      if (!na || na->size() != ba->size()) {
        if (key == "allOf") out.push_back(sub + ": changes the number of allOf branches");
        continue;
      }
      for (std::size_t i = 0; i < ba->size(); ++i) widening((*ba)[i], (*na)[i], sub + "/" + std::to_string(i), out);
    }
  }
}

} // namespace

std::string Patch::dotted_path() const {
  std::string out;
  for (const auto &k : *path.as_array()) {
    if (!out.empty()) out += ".";
    out += k.is_string() ? *k.as_string() : k.python_str();
  }
  return out;
}

PatchList parse_patch_list(const json::Value &doc, const std::string &source) {
  PatchList list;
  if (!doc.is_object() || !doc.get("patches").is_array())
    throw ProfileError(source + ": expected an object with a \"patches\" list");
  list.profile = doc.string_or("profile", list.profile);
  list.base = doc.string_or("base", list.base);
  list.base_file = doc.string_or("base_file", "schema/clean-1.3.schema.json");
  std::size_t i = 0;
  for (const auto &p : *doc.get("patches").as_array()) {
    Patch patch;
    patch.path = p.get("path");
    patch.op = p.string_or("op");
    patch.value = p.get("value");
    patch.reason = p.string_or("reason");
    std::string where = source + ": patch " + std::to_string(i);
    if (!patch.path.is_array() || patch.path.size() == 0)
      throw ProfileError(where + ": \"path\" must be a non-empty list of keys and indexes");
    for (const auto &k : *patch.path.as_array())
      if (!k.is_string() && !k.is_int()) throw ProfileError(where + ": path entries must be strings or integers");
    if (patch.op != "set" && patch.op != "require" && patch.op != "restrict")
      throw ProfileError(where + ": op must be set, require or restrict, not '" + patch.op + "'");
    if (patch.op != "set" && names_of(patch.value).size() != patch.value.size())
      throw ProfileError(where + ": " + patch.op + " takes a list of property names");
    if (text::strip(patch.reason).empty()) throw ProfileError(where + ": every patch must state its reason");
    list.patches.push_back(std::move(patch));
    ++i;
  }
  return list;
}

std::vector<std::string> widening_violations(const json::Value &base, const json::Value &narrowed) {
  std::vector<std::string> out;
  widening(base, narrowed, "", out);
  if (!(narrowed.get("properties").get("schema").get("const") == base.get("properties").get("schema").get("const")))
    out.push_back("properties/schema/const: changed (records must still declare the base contract)");
  return out;
}

std::string base_fingerprint(const json::Value &base) { return text::sha256_hex(canonical_text(base)); }

json::Value generate_profile(const json::Value &base, const PatchList &list) {
  json::Value doc = base;
  for (std::size_t i = 0; i < list.patches.size(); ++i) apply(doc, list.patches[i], i);
  auto bad = widening_violations(base, doc);
  if (!bad.empty()) {
    std::string msg = "the patch list widens the base schema (every patch must narrow):";
    for (const auto &b : bad) msg += "\n  " + b;
    throw ProfileError(msg);
  }
  doc.set("$id", list.profile + ".schema.json");
  doc.set("title", list.profile + ": " + list.base + " narrowed for records mined from one optimisation trace");
  doc.set("description", "A narrowing profile of " + list.base + ": every record valid here is valid under " +
                             list.base + ", and records still declare schema " + list.base +
                             ". Generated by otm-schema from the patch list; do not edit by hand.");
  json::Value stamp = json::Value::object();
  stamp.set("base", list.base);
  stamp.set("base_file", list.base_file);
  stamp.set("base_sha256", base_fingerprint(base));
  stamp.set("n_patches", static_cast<long>(list.patches.size()));
  stamp.set("generated_by", "otm-schema");
  doc.set("x-profile-of", stamp);
  return doc;
}

CheckResult check_profile(const json::Value &base, const PatchList &patches, const json::Value *committed) {
  if (!committed) return {Freshness::Missing, "no committed profile"};
  json::Value fresh = generate_profile(base, patches);
  auto where = first_difference(fresh, *committed, {});
  if (where.empty()) return {Freshness::UpToDate, ""};
  return {Freshness::Stale, "differs at " + where};
}

} // namespace otm::schema
