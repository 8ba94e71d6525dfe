#!/usr/bin/env bash
# The review page in a real browser (issue 14): the example trace through
# the pipeline, otm-review's page rendered by headless Chromium; --dump-dom
# must hold every staged record, its verdict from every gate, every refused
# packet and the ladder picture, and a screenshot of the page must not be
# blank (compared with a screenshot of an empty page: a uniform image
# compresses to almost nothing). Then the page of a hostile staging store
# (issue 27): a staged reports/*/ladder.svg holding <script> and a refusal
# ledger linked out of the store must neither run nor show. Exit 77 (ctest:
# skipped) without chromium.
#   review_page.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
case "$bin$src" in *' '*)
  echo "review_page: skipped: Makefile.pipeline cannot run from a path with a space ($src)"
  exit 77 ;;
esac
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "review_page: chromium is not installed (scripts/bootstrap --test installs it): skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "review_page: FAIL: $*" >&2; exit 1; }

"$src/scripts/make-example-trace" "$tmp/traces" >/dev/null
trace=$(echo "$tmp"/traces/kernel_opt_*)
store=$tmp/store
make --no-print-directory -f "$src/Makefile.pipeline" TRACE="$trace" OTM_BIN="$bin" OTM_SCRATCH="$tmp/scratch" \
  STORE="$store" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "the pipeline failed"; }
page=$store/review.html
[ -s "$page" ] || fail "the readme stage wrote no $page"
grep -q 'http://\|https://' <(grep -o '<\(link\|script\|img\|iframe\)[^>]*' "$page") && fail "the page loads something from a network"

# Chromium on a closed network: without these flags it waits for services.
# On a loaded machine headless chromium now and then never finishes a
# screenshot: a second try with a fresh profile, before the test fails.
run_browser() {
  local try
  for try in 1 2; do
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile-$1-$try" "${@:2}" \
      2>>"$tmp/chromium.log" && return 0
    echo "review_page: chromium ($1) failed on try $try" >>"$tmp/chromium.log"
  done
  return 1
}
run_browser dom --dump-dom "file://$page" >"$tmp/dom.html" || fail "chromium --dump-dom failed ($(tail -3 "$tmp/chromium.log"))"

records=0
for f in $(find "$store/records" -name '*.json' ! -name index.json); do
  id=$(basename "$f" .json)
  records=$((records + 1))
  grep -qF "data-record-id=\"$id\"" "$tmp/dom.html" || fail "record $id is not on the rendered page"
done
[ "$records" -ge 9 ] || fail "only $records records staged"
gates=$(grep -c 'class="chip ' "$tmp/dom.html" || true)
# Every gate's verdict for every record: one per gate executable of the build.
per_record=$(find "$bin" -maxdepth 1 -name 'otm-gate-*' | wc -l)
[ "$gates" -eq $((records * per_record)) ] || fail "$gates gate verdicts on the page, want $records x $per_record"
passes=$(grep -c 'class="chip pass"' "$tmp/dom.html" || true)
[ "$passes" -eq "$gates" ] || fail "$((gates - passes)) verdicts are not PASS although every gate passed"
refused=$(cat "$store"/reports/*/refusals.jsonl | wc -l)
[ "$(grep -c 'class="refusal"' "$tmp/dom.html" || true)" -eq "$refused" ] || fail "not every refused packet is listed"
grep -q '<svg' "$tmp/dom.html" || fail "no ladder picture on the page"
grep -q 'class="[a-z ]*quoted' "$tmp/dom.html" || fail "no quoted snippet line is highlighted"

run_browser shot --window-size=1280,1600 --screenshot="$tmp/page.png" "file://$page" >/dev/null ||
  fail "chromium --screenshot failed ($(tail -3 "$tmp/chromium.log"))"
printf '<!DOCTYPE html><html><body></body></html>' >"$tmp/empty.html"
run_browser blank --window-size=1280,1600 --screenshot="$tmp/blank.png" "file://$tmp/empty.html" >/dev/null ||
  fail "chromium --screenshot of an empty page failed"
[ "$(head -c 8 "$tmp/page.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "the screenshot is not a PNG"
page_bytes=$(stat -c %s "$tmp/page.png") blank_bytes=$(stat -c %s "$tmp/blank.png")
[ "$page_bytes" -gt $((blank_bytes * 10)) ] || fail "the screenshot looks blank ($page_bytes bytes; an empty page: $blank_bytes)"
echo "review_page: $records records, $gates verdicts, $refused refusals on the rendered page; screenshot $page_bytes bytes (empty page $blank_bytes)"

# A staging store is untrusted: what it stages is escaped or redrawn, never
# embedded as it is, and a link out of it is not followed.
mkdir -p "$store/reports/evil" "$store/reports/linked"
printf '<svg xmlns="http://www.w3.org/2000/svg"><script>document.body.setAttribute("data-pwned", "1")</script>%s</svg>\n' \
  '<image href="x" onerror="document.title=&quot;PWNED&quot;"/>' >"$store/reports/evil/ladder.svg"
printf '{"seg_id": "OUTSIDE-CANARY-review"}\n' >"$tmp/outside.jsonl"
ln -s "$tmp/outside.jsonl" "$store/reports/linked/refusals.jsonl"
"$bin/otm-review" "$store" --trace "$trace" --workspace "$tmp/scratch/$(basename "$trace")" --output "$tmp/hostile.html" \
  --quiet || fail "otm-review failed on the hostile store"
run_browser hostile --dump-dom "file://$tmp/hostile.html" >"$tmp/hostile-dom.html" || fail "chromium --dump-dom failed"
grep -q 'data-pwned' "$tmp/hostile-dom.html" && fail "a staged <script> ran in the page"
grep -q '<title>PWNED' "$tmp/hostile-dom.html" && fail "a staged event handler ran in the page"
grep -qi '<script\|onerror=' "$tmp/hostile-dom.html" && fail "the page embeds a staged script or event handler"
grep -q 'OUTSIDE-CANARY' "$tmp/hostile-dom.html" && fail "a ledger linked out of the store reached the page"
grep -q '<svg' "$tmp/hostile-dom.html" || fail "no ladder picture on the hostile store's page"
echo "review_page: a staged script and a ledger linked out of the store stay out of the page"
