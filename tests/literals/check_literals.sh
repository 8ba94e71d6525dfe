#!/bin/sh
# The literals test (docs/architecture.md, "Where each rule lives"): each
# known literal or rule is spelled in one home file, and every producer and
# gate calls that home instead of copying it. Greps lib/, tools/ and bench/
# for each rule's pattern and fails naming file:line for a hit outside its
# home. Comment lines (// ..., * ...) are not code and are not checked;
# neither is prose in help texts, which names formats for readers.
#   sh check_literals.sh SOURCE_DIR
set -u
src=${1:?usage: check_literals.sh SOURCE_DIR}
cd "$src" || exit 2
hits=$(mktemp) || exit 2
trap 'rm -f "$hits"' EXIT

# check NAME ERE HOME... (in the directories of $scope)
scope='lib tools bench'

check() {
  name=$1
  pattern=$2
  shift 2
  # shellcheck disable=SC2086 # $scope is a list of directories
  grep -rnE --include='*.cpp' --include='*.hpp' --include='*.in' -e "$pattern" $scope |
    while IFS= read -r hit; do
      file=${hit%%:*}
      rest=${hit#*:}
      line=${rest%%:*}
      code=$(printf '%s\n' "${rest#*:}" | sed 's/^[[:space:]]*//')
      case $code in //* | \**) continue ;; esac
      home=no
      for h in "$@"; do [ "$file" = "$h" ] && home=yes; done
      [ $home = yes ] && continue
      printf '%s:%s: %s, whose home is %s: %s\n' "$file" "$line" "$name" "$*" "$code"
    done >>"$hits"
}

tags=lib/rules/record/format_tags.hpp
layout='lib/rules/workspace/layout.hpp lib/rules/workspace/layout.cpp'

# Format tags.
# The segment kinds: the trace generator's own story kinds ("deadend-prose"
# in its truth manifest) are another vocabulary, so bench/ is not read.
kinds=lib/rules/workspace/segment_kinds.hpp
scope='lib tools'
check 'a segment kind' '"(milestone-|deadend-item|deadend-prose|curated-pitfall|final-kernel|mega-snapshot)"' $kinds
scope='lib tools bench'
check 'the store schema tag' '"clean-1\.3"' $tags
check 'the builder version' '"opt-trace-0\.1"' $tags
# The workspace and store layout: records/, records/index.json, packets/,
# reports/<slug>/<file>, work/<file>.
check 'a layout directory joined by hand' '/ *"(records|packets|work|reports)"' $layout
check 'a layout path spelled by hand' '"(records|packets|reports|work)/" *\+|path\("(records|packets|work|reports)"\)' $layout
check 'the index file name' '"(records/)?index\.json"' $layout
check 'a work file name' '"(versions|profiles|ladder|segments)\.jsonl"|"meta\.json"' $layout
check 'a report file name' '"(refusals|distill-log)\.jsonl"|"(ladder\.svg|review\.html|recon\.md|partition\.md|README\.md)"' \
  $layout
check 'a layout name compared by hand' '(ends_with\(|[!=]= *)"(records|index\.json|packets)"' $layout
# Shapes of text: the version prefix of a subject, a record id mentioned in
# prose, a markdown page.
check 'the subject version prefix (?i)^(v\d+)\s*:' 'v\\+d\+\)\\+s\*:' lib/ingest/trace/version_key.cpp
check 'the record-id shape' 'nvidia[|]amd|\[a-z0-9-\]\+\\+\.\[a-z0-9-\]\+\\+\.' lib/rules/record/id_format.cpp
check 'the markdown-page shape' '\\+\.md\\+b' lib/rules/record/leak_shapes.cpp
# Settings resolved in one place: the store root (~ expanded, absolute), the
# live store, the trace label.
check 'the store setting read by hand' 'Setting::Store\)' lib/rules/workspace/layout.cpp
check 'the live-store setting read by hand' 'Setting::Live\)' lib/rules/workspace/layout.cpp
check 'the trace label derived by hand' 'Setting::TraceLabel\)' lib/ingest/trace/trace_location.cpp
# The prologue of every tool main (lib/command/tool/tool_setup.hpp): the
# settings and the configuration they name, read one way.
check 'the configuration loaded by hand' 'Config::load\(' lib/rules/config/config.hpp lib/rules/config/config.cpp \
  lib/command/tool/tool_setup.cpp
check 'the settings read by hand' 'Settings::from_environment\(' lib/rules/config/settings.hpp \
  lib/rules/config/settings.cpp lib/command/tool/tool_setup.cpp
# The configuration's boilerplate section read one way (the drafter, its
# run-level pass and the quality report alike).
check 'the boilerplate section read by hand' 'get\("boilerplate"\)' lib/rules/config/config.cpp
# Untrusted input read one way (docs/security.md): a stage's input stream
# only through io::read_input / io::read_stdin, which bound it; the trace's
# .git by the one policy that reads its exception; a staging store's
# reports/ beneath the store.
check 'standard input read by hand (unbounded)' 'std::cin\b|STDIN_FILENO' lib/support/io/file.cpp
check 'the .git exception read by hand' 'get\(.*Setting::AllowGitDir\)' lib/ingest/trace/git_dir_policy.cpp
check 'a refusal ledger read by hand' 'kRefusalsFileName' lib/rules/workspace/layout.hpp lib/rules/store/staged_reports.cpp
# The built-in schemas compiled one way (schema_command reads the raw
# documents to derive the profile from the base).
check 'a built-in schema loaded by hand' 'builtin_(store_schema|profile)_text\(\)' \
  lib/rules/schema/load_schema.cpp lib/rules/schema/builtin_schemas.hpp lib/rules/schema/builtin_schemas.cpp.in \
  lib/rules/schema/schema_command.cpp

# docs/architecture.md names every directory of lib/: each lib/<layer>/<dir>
# as `<dir>/` in its layer's row of the layers table.
for dir in lib/*/*/; do
  dir=${dir%/}
  layer=${dir#lib/}
  layer=${layer%%/*}
  name=${dir##*/}
  grep -E "^\| $layer \|" docs/architecture.md | grep -qF "\`$name/\`" ||
    printf 'docs/architecture.md: the layers table does not name %s/ in the %s row\n' "$dir" "$layer" >>"$hits"
done

# One name per gate: a gate's name is spelled in the registry
# (lib/stages/gates/registry.def) alone; code names a gate Gate::<Id> and
# takes its name from the registry. Checked: an injection case named
# "<name>/<what>" anywhere; a name that is only a gate's anywhere; a name that is
# also a record, packet or option key (schema, profile, layout, provenance,
# index) in the gates' own directory or on a line about a gate, unless it is
# the key of a JSON or option accessor (get("provenance"), opts.value("schema")).
registry=lib/stages/gates/registry.def
gate_names=$(sed -n 's/^OTM_GATE([A-Za-z]*, \.name = "\([a-z0-9-]*\)".*/\1/p' $registry)
[ -n "$gate_names" ] || echo "$registry: no OTM_GATE line with a .name: the gate-name check reads none" >>"$hits"
keyword_names=' schema profile layout provenance index '
for g in $gate_names; do
  grep -rnE --include='*.cpp' --include='*.hpp' --include='*.in' --include='*.def' -e "\"$g(/[a-z0-9-]+)?\"" lib tools bench |
    while IFS= read -r hit; do
      file=${hit%%:*}
      rest=${hit#*:}
      line=${rest%%:*}
      code=$(printf '%s\n' "${rest#*:}" | sed 's/^[[:space:]]*//; s/[[:space:]]\/\/.*$//')
      case $code in //* | \**) continue ;; esac
      [ "$file" = "$registry" ] && continue
      if printf '%s\n' "$code" | grep -qE "\"$g/[a-z0-9-]+\""; then :; else case $code in *"\"$g\""*)
        case $keyword_names in *" $g "*)
          about_gate=no
          case $file in lib/stages/gates/*) about_gate=yes ;; esac
          printf '%s\n' "$code" | grep -qi 'gate' && about_gate=yes
          [ $about_gate = no ] && continue
          printf '%s\n' "$code" | sed -E "s/((get|set|key|value|string_or)\\(|obj\\([^,]*, )\"$g\"//g" |
            grep -q "\"$g\"" || continue ;;
        esac ;;
      *) continue ;; esac; fi
      printf '%s:%s: the gate name "%s", whose home is %s (use Gate:: and gate_name): %s\n' "$file" "$line" "$g" \
        $registry "$code"
    done >>"$hits"
done

# One error type (docs/exit-codes.md): every exception lib/ throws is an
# otm::Error or a subclass of one. No standard exception is thrown or derived
# from outside error.hpp, and each thrown type (throw T(...) / throw T{...})
# is defined in lib/ as a subclass of otm::Error (directly or through another
# such subclass); a helper that returns an Error (throw bad(...)) is a call.
error_home=lib/support/error/error.hpp
grep -rnE --include='*.cpp' --include='*.hpp' 'throw +std::|(class|struct) +[A-Za-z_]+ *(final *)?: *(public +)?std::[a-z_]*(exception|error)\b' lib |
  while IFS= read -r hit; do
    file=${hit%%:*}
    code=$(printf '%s\n' "${hit#*:*:}" | sed 's/^[[:space:]]*//')
    case $code in //* | \**) continue ;; esac
    [ "$file" = "$error_home" ] && continue
    printf '%s: a standard exception thrown or derived from; throw an otm::Error of a kind (%s)\n' "${hit%%:*}:$(printf '%s' "${hit#*:}" | cut -d: -f1)" "$error_home"
  done >>"$hits"
# The subclasses of otm::Error, found to a fixed point.
error_types=' Error '
while :; do
  more=$(grep -rhoE --include='*.cpp' --include='*.hpp' '(class|struct) +[A-Za-z_]+ *(final *)?: *(public +)?[A-Za-z_:]+' lib |
    sed -E 's/^(class|struct) +([A-Za-z_]+) *(final *)?: *(public +)?([A-Za-z_:]+)$/\2 \5/' |
    while read -r derived base; do
      case $error_types in *" ${base##*::} "*) case $error_types in *" $derived "*) ;; *) printf '%s ' "$derived" ;; esac ;; esac
    done)
  [ -z "$more" ] && break
  error_types="$error_types$more"
done
grep -rnoE --include='*.cpp' --include='*.hpp' 'throw +[A-Z][A-Za-z_:]*[({]' lib |
  while IFS= read -r hit; do
    type=$(printf '%s\n' "$hit" | sed -E 's/.*throw +([A-Za-z_:]+)[({]$/\1/')
    type=${type##*::}
    case $error_types in
    *" $type "*)
      # Thrown by that name: every definition of the name must be a subclass.
      grep -rnE --include='*.cpp' --include='*.hpp' "^ *(class|struct) +$type *(\{|$)" lib | while IFS= read -r def; do
        printf '%s: %s is thrown but defined here without deriving from otm::Error\n' "$(printf '%s' "$def" | cut -d: -f1,2)" "$type"
      done ;;
    *) printf '%s: throws %s, which is no subclass of otm::Error (%s)\n' "$(printf '%s' "$hit" | cut -d: -f1,2)" "$type" "$error_home" ;;
    esac
  done | sort -u >>"$hits"

# Makefile.pipeline writes an empty live index when parsed, before any tool
# is built, so it spells the tag: it must spell the home's.
tag=$(sed -n 's/.*kStoreSchemaTag\[\] = "\([^"]*\)".*/\1/p' $tags)
grep -nE '"schema": *"[^"]*"' Makefile.pipeline | while IFS= read -r hit; do
  case $hit in *"\"$tag\""*) ;; *) printf 'Makefile.pipeline:%s: a store schema tag other than %s (%s)\n' "${hit%%:*}" "$tag" $tags ;; esac
done >>"$hits"

if [ -s "$hits" ]; then
  echo "literals: each of these belongs in its home (docs/architecture.md, \"Where each rule lives\"):"
  cat "$hits"
  exit 1
fi
echo "literals: every checked literal is in its home"
