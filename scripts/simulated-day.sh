#!/usr/bin/env bash
# A simulated day from the publishers' side: the loopback web plays eight sites (well-behaved,
# robots.txt failing, robots.txt redirecting without end, robots.txt behind a challenge, a
# refusing feed, a feed redirecting into a disallowed path, a broken feed, a feed quoting
# challenge words), robots-refresh and fetch-feeds run at every hour of 2026-11-30 and a few
# times minutes apart, and the web's own log is counted: requests per source per day, per
# site, beside the peer's budget of one request per feed every ten minutes (144 a day).
#
# usage: scripts/simulated-day.sh [BIN_DIR] [WORK_DIR]
#   BIN_DIR  the built binaries (default target/release); run it with an older build to compare
#   WORK_DIR scratch directory (default a fresh mktemp -d); the log is WORK_DIR/web-requests.jsonl
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$repo/target/release}" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
web="$work/web" data="$work/data" pipe="$work/pipeline"
rm -rf "$web" "$data" "$pipe" "$work/web-requests.jsonl"
mkdir -p "$web" "$data" "$pipe"
printf 'simulated day\n' >"$data/.huduku"   # a data directory made on purpose

feed() { # addr title
  printf '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>%s</title><item><title>%s</title><link>http://%s:{{port}}/a.html</link><pubDate>Mon, 30 Nov 2026 00:00:00 +0000</pubDate></item></channel></rss>\n' "$1" "$2" "$1"
}
site() { # addr [rules-json]
  mkdir -p "$web/$1"
  printf 'User-agent: *\nAllow: /\nDisallow: /private/\n' >"$web/$1/robots.txt"
  feed "$1" "Headline of $1" >"$web/$1/feed.xml"
  feed "$1" "Second headline of $1" >"$web/$1/second.xml"
  if [ $# -gt 1 ]; then printf '%s\n' "$2" >"$web/$1/_rules.json"; fi
}
site 127.0.0.81                                                                  # well-behaved, two feeds
site 127.0.0.82 '{"paths":{"/robots.txt":[{"status":503,"body":"down"}]}}'        # robots.txt 503
site 127.0.0.83 '{"paths":{"/robots.txt":[{"status":302,"headers":{"Location":"/robots.txt"}}]}}' # endless
site 127.0.0.84 '{"paths":{"/robots.txt":[{"status":200,"headers":{"cf-mitigated":"challenge","Content-Type":"text/html"},"body":"<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>"}]}}'
site 127.0.0.85 '{"paths":{"/feed.xml":[{"status":403}]}}'                       # refuses
site 127.0.0.86 '{"paths":{"/feed.xml":[{"status":302,"headers":{"Location":"/private/feed.xml"}}]}}'
site 127.0.0.87 '{"paths":{"/feed.xml":[{"status":500,"body":"oops"}]}}'          # broken
site 127.0.0.88
feed 127.0.0.88 'Sites hide behind px-captcha and captcha-delivery.com' >"$web/127.0.0.88/feed.xml"

cp "$repo/pipeline/never-fetch.csv" "$pipe/"
cp -r "$repo/pipeline/topics" "$pipe/"
printf 'kind,value,since,note\n' >"$pipe/optouts.csv"
printf 'target,granted,who,why\n' >"$pipe/permissions.csv"
printf 'link,date,reason\n' >"$pipe/takedowns.csv"
printf 'outlet,host,note\n' >"$pipe/hosts.csv"
printf 'range,note\n127.0.0.0/8,the loopback web of the simulated day\n' >"$pipe/network.csv"

# A throw-away signing key, outside the repository; the web verifies every request with it.
key_dir=$(mktemp -d)
export HUDUKU_SIGNING_KEY="$key_dir/key.jwk"
"$bin/signing-key" new "$HUDUKU_SIGNING_KEY" >/dev/null
"$bin/signing-key" jwks "$HUDUKU_SIGNING_KEY" >"$work/keys.jwks"
"$bin/loopback-web" --sites "$web" --port 0 --log "$work/web-requests.jsonl" --ready "$work/web.ready" --keys "$work/keys.jwks" 2>"$work/web.stderr" &
web_pid=$!
trap 'kill $web_pid 2>/dev/null || true; rm -rf "$key_dir"' EXIT
for _ in $(seq 100); do [ -s "$work/web.ready" ] && break; sleep 0.05; done
port=$(cat "$work/web.ready")
{
  echo "outlet,lang,kind,section,url,selector,status"
  for a in 81 82 83 84 85 86 87 88; do echo "Outlet $a,en,feed,top,http://127.0.0.$a:$port/feed.xml,,test"; done
  echo "Outlet 81,en,feed,top,http://127.0.0.81:$port/second.xml,,test"
} >"$pipe/sources.csv"

run() { # NOW
  for stage in robots-refresh fetch-feeds; do
    "$bin/$stage" --now "$1" --data "$data" --pipeline "$pipe" --sources "$pipe/sources.csv" \
      --network "$pipe/network.csv" >/dev/null 2>>"$work/stages.stderr" || { s=$?; [ $s -eq 3 ] || [ $s -eq 4 ]; }
  done
  rm -rf "$data"/*/*/.transient
}
# Every hour of the day at :05 (as cron), and late or manual runs minutes apart.
nows=()
for h in $(seq -w 0 23); do nows+=("2026-11-30T$h:05:00Z"); done
nows+=("2026-11-30T06:58:00Z" "2026-11-30T07:01:00Z" "2026-11-30T12:58:00Z" "2026-11-30T23:58:00Z")
while read -r now; do run "$now"; done < <(printf '%s\n' "${nows[@]}" | sort)
sleep 0.5
day_lines=$(wc -l <"$work/web-requests.jsonl")
run "2026-12-01T00:03:00Z"   # the next day's first minutes: shown apart, not counted in the day

sleep 0.5
kill $web_pid 2>/dev/null || true
wait $web_pid 2>/dev/null || true
day="$work/day-requests.jsonl"
head -n "$day_lines" "$work/web-requests.jsonl" >"$day"
late=$(tail -n +"$((day_lines + 1))" "$work/web-requests.jsonl" | jq -r '"\(.site) \(.method) \(.path)"' | sed "s/:$port//" | paste -sd, -)
echo "requests per source on the simulated day 2026-11-30 ($day_lines requests; budget 144 per source a day)"
printf '%-11s %-34s %7s %8s %6s %10s\n' site plays sources requests robots per-source
plays=([81]="well-behaved, two feeds" [82]="robots.txt 503" [83]="robots.txt redirects without end" [84]="robots.txt behind a challenge" [85]="feed answers 403" [86]="feed redirects into /private/" [87]="feed answers 500" [88]="feed quotes challenge words")
for a in 81 82 83 84 85 86 87 88; do
  n=$(jq -r --arg s "127.0.0.$a:$port" 'select(.site == $s) | .path' "$day" | wc -l)
  r=$(jq -r --arg s "127.0.0.$a:$port" 'select(.site == $s and (.path | startswith("/robots.txt"))) | .path' "$day" | wc -l)
  k=1; [ $a = 81 ] && k=2
  printf '%-11s %-34s %7s %8s %6s %10s\n' "127.0.0.$a" "${plays[$a]}" "$k" "$n" "$r" "$(echo "scale=1; $n / $k" | bc)"
done
echo "asked at 2026-12-01T00:03, five minutes after the 23:58 run: ${late:-nothing}"
