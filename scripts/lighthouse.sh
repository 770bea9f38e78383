#!/usr/bin/env bash
# Lighthouse's four scores for the demo site, over loopback HTTP: the three front pages and
# a page of each other kind. `make lighthouse` runs it; it fails when accessibility, best
# practices or SEO is below 100 on any page, or performance below 90 (a shared machine is
# noisy; the number is printed either way).
#
#   scripts/lighthouse.sh BIN_DIR DATA_DIR PIPELINE SOURCES NOW TOOL_DIR VERSION
#
# Lighthouse (pinned VERSION) is installed from the npm registry into TOOL_DIR, a throw-away
# folder (the first run needs the registry; later runs reuse it). The demo's data directory
# is only read: publish writes the site again into TOOL_DIR/out with --base-url naming the
# loopback server, so the canonical and hreflang addresses are those Lighthouse is served
# (its audits compare them with the page's own origin). The server is python3's http.server
# bound to 127.0.0.1 on a free port; Chromium is CHROME_PATH (default /usr/bin/chromium),
# headless, each run with a fresh profile. Reports: TOOL_DIR/reports/*.json.
#
# Where java is installed, every page of that site is also checked with the Nu HTML
# Checker (vnu-jar VNU_VERSION, from the same registry): an error fails the run. Without
# java that check is skipped, and said.
set -euo pipefail

bin=$1 data=$2 pipeline=$3 sources=$4 now=$5 tool=$6 version=$7 vnu_version=${8:-}
chrome=${CHROME_PATH:-/usr/bin/chromium}
day=${now:0:10}
pages=(index.html kn/index.html en/index.html "en/days/$day.html" kn/outlets/index.html en/fetching.html en/stories/index.html)

say() { echo "lighthouse: $*" >&2; }
command -v node >/dev/null && command -v npm >/dev/null || { say "needs node (18.16 or later) and npm"; exit 1; }
[ -x "$chrome" ] || { say "no Chromium at $chrome (set CHROME_PATH)"; exit 1; }
[ -f "$data/site/index.html" ] || { say "no site in $data: run 'make demo' first"; exit 1; }

installed() { node -p "require('$PWD/$tool/node_modules/$1/package.json').version" 2>/dev/null || true; }
want=("lighthouse@$version")
check_html=0
if [ -n "$vnu_version" ] && command -v java >/dev/null; then
  check_html=1
  want+=("vnu-jar@$vnu_version")
fi
missing=()
for w in "${want[@]}"; do [ "$(installed "${w%@*}")" = "${w#*@}" ] || missing+=("$w"); done
if ((${#missing[@]})); then
  say "installing ${missing[*]} into $tool"
  mkdir -p "$tool"
  npm install --prefix "$tool" --no-audit --no-fund --loglevel=error "${want[@]}" >&2
fi
for w in "${want[@]}"; do
  [ "$(installed "${w%@*}")" = "${w#*@}" ] || { say "$w did not install into $tool"; exit 1; }
done

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port/"
out=$tool/out
rm -rf "$out" "$tool/reports"
mkdir -p "$out" "$tool/reports"
"$bin/publish" --now "$now" --data "$data" --pipeline "$pipeline" --sources "$sources" --out "$out" --base-url "$base" \
  || { s=$?; [ $s -eq 3 ] || exit $s; }

if [ $check_html = 1 ]; then
  java -jar "$tool/node_modules/vnu-jar/build/dist/vnu.jar" --skip-non-html --also-check-svg --errors-only "$out/site" \
    || { say "the Nu HTML Checker found errors in $out/site (above)"; exit 1; }
  say "every page of $out/site is valid HTML (Nu HTML Checker $vnu_version)"
else
  say "no java: the pages' HTML is not checked (the Nu HTML Checker needs it)"
fi

python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out/site" >"$tool/http.log" 2>&1 &
server=$!
profiles=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$profiles"' EXIT
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 $server 2>/dev/null || { say "the server did not start: $(cat "$tool/http.log")"; exit 1; }
  sleep 0.1
done

failed=0
printf '%-28s %12s %14s %15s %5s\n' page performance accessibility best-practices seo
for page in "${pages[@]}"; do
  name=${page//\//_}
  report=$tool/reports/${name%.html}.json
  profile=$profiles/$name
  mkdir -p "$profile"
  CHROME_PATH=$chrome "$tool/node_modules/.bin/lighthouse" "$base$page" \
    --quiet --output=json --output-path="$report" \
    --only-categories=performance,accessibility,best-practices,seo \
    --chrome-flags="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$profile" \
    || { say "lighthouse failed on $page"; failed=1; continue; }
  # The four scores, then each audit that cost points (id, score), for the report below.
  read -r perf a11y bp seo < <(node -e '
    const r = require(process.argv[1]);
    const s = id => r.categories[id].score === null ? "-" : Math.round(r.categories[id].score * 100);
    console.log([s("performance"), s("accessibility"), s("best-practices"), s("seo")].join(" "));
  ' "$PWD/$report")
  printf '%-28s %12s %14s %15s %5s\n' "$page" "$perf" "$a11y" "$bp" "$seo"
  low=0
  for v in "$a11y" "$bp" "$seo"; do [ "$v" = 100 ] || low=1; done
  [ "$perf" != - ] && [ "$perf" -ge 90 ] || low=1
  if [ $low = 1 ]; then
    failed=1
    node -e '
      const r = require(process.argv[1]);
      for (const c of ["performance", "accessibility", "best-practices", "seo"])
        for (const ref of r.categories[c].auditRefs) {
          const a = r.audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 1)
            console.log(`    ${c}: ${ref.id} (${a.score}) ${a.title}${a.explanation ? ": " + a.explanation : ""}`);
        }
    ' "$PWD/$report"
  fi
done
if [ $failed = 1 ]; then
  say "below 100 (or performance below 90) on some page; reports in $tool/reports/"
  exit 1
fi
say "every page scored 100 for accessibility, best practices and SEO; reports in $tool/reports/"
