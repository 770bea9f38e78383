#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the test fixtures (run from anywhere; idempotent).
# parse_body and charset inputs start with one byte that picks the kind or the charset.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
fx=$repo/tests/fixtures
c=$here/corpus
mkdir -p "$c"/{parse_body,polite,dates,charset,html_to_text,html_scan_vs_parser}
n=0
# The fixtures and a sample of the conformance corpora, each as feed, sitemap and home page.
mapfile -t files < <(
  { ls "$fx"/feeds/*.xml "$fx"/feeds/*.html; ls "$fx"/conformance/newsroom/*; \
    find "$fx"/conformance/feedparser -type f -name '*.xml' | sort | awk 'NR % 8 == 0'; } | sort
)
for f in "${files[@]}"; do
  [ "$(stat -c %s "$f")" -le 200000 ] || continue
  n=$((n + 1))
  case $f in
    *.html) kind='\x02' ;;
    *sitemap*) kind='\x01' ;;
    *) kind='\x00' ;;
  esac
  { printf "$kind"; cat "$f"; } > "$c/parse_body/$n"
  { printf '\x00'; cat "$f"; } > "$c/charset/$n"
  head -c 4096 "$f" > "$c/html_to_text/$n"
  head -c 4096 "$f" > "$c/html_scan_vs_parser/$n"
done
# Dates as the fixtures write them.
grep -rhoE '<(pubDate|published|updated|dc:date|lastmod|news:publication_date|issued|modified|created)>[^<]{1,80}<' "$fx" \
  | sed -E 's/^<[^>]*>//; s/<$//' | sort -u | awk -v d="$c/dates" '{ f = d "/" NR; printf "%s", $0 > f; close(f) }'
# robots.txt of the loopback web, each behind a status and a few response headers.
i=0
for f in $(find "$repo"/tests/web -name 'robots*.txt' | sort); do
  i=$((i + 1))
  { printf '\x00\xc8retry-after: 120\ncache-control: max-age=600\nexpires: Mon, 30 Nov 2026 09:00:00 GMT\n\n'; cat "$f"; } > "$c/polite/$i"
done
{ printf '\x01\xadretry-after: Mon, 30 Nov 2026 09:00:00 GMT\n\n<rss><channel><ttl>180</ttl><sy:updatePeriod>daily</sy:updatePeriod>'; } > "$c/polite/ttl"
echo "seeded: $n bodies, $(ls "$c/dates" | wc -l) dates, $i robots.txt"
