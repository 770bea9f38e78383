#!/usr/bin/env python3
"""Huduku's extract measured against Python's feedparser, the field's reference reader.

Usage: conformance.py EXTRACT CORPUS_DIR [--report FILE]

Every *.xml file under CORPUS_DIR is read twice: by feedparser (sitemaps, which feedparser
does not read, by ElementTree and feedparser's own date parser) and by `EXTRACT --file`.
A file may name the HTTP headers it is served with in a leading comment, as feedparser's own
test files do (`Header: Content-type: ...`, `Header: Content-Location: ...`); otherwise it is
read as served from http://conformance.example/<its path> with no Content-Type.

Comparison rules (docs/conformance.md explains each):
- Only items Huduku would keep are compared: a non-empty headline and an http(s) link. The
  reference's entries are filtered by the same rule, so an entry one reader keeps and the
  other does not is a disagreement on every field.
- Headline: the reference's title made plain text the same way (HTML titles have their tags
  removed and entities decoded; plain-text titles are taken as they are), whitespace
  collapsed on both sides.
- Link: both sides normalised as a URL (scheme and host lower-cased, IDNA host, percent-
  encoding of spaces and non-ASCII, empty path as "/").
- Time: published, else updated, else created, to the second in UTC; no time on both sides
  agrees.
- Items are matched in document order; when the counts differ they are aligned by link.
"""
import calendar
import difflib
import html
import html.parser
import json
import os
import re
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ET

import feedparser
import feedparser.datetimes

NOW = "2026-11-30T06:05:00Z"
BASE = "http://conformance.example/"
HEADER = re.compile(rb"^Header:\s+([^:]+):\s*(.+?)\s*$", re.MULTILINE)
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def collapse(s):
    return " ".join(s.split())


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.out.append(data)


def html_text(s):
    p = _Text()
    p.feed(s)
    p.close()
    return collapse("".join(p.out))


def norm_link(u):
    if not u:
        return ""
    try:
        p = urllib.parse.urlsplit(u.strip())
        host = p.hostname or ""
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            pass
        port = p.port
    except ValueError:
        return u
    if p.scheme.lower() not in ("http", "https"):
        return ""
    netloc = host.lower()
    if port and not ((p.scheme == "http" and port == 80) or (p.scheme == "https" and port == 443)):
        netloc += ":%d" % port
    safe = "/%:@!$&'()*+,;=~[]"
    path = urllib.parse.quote(p.path, safe=safe) or "/"
    query = urllib.parse.quote(p.query, safe=safe + "?")
    out = "%s://%s%s" % (p.scheme.lower(), netloc, path)
    if p.query or u.rstrip().endswith("?"):
        out += "?" + query
    return out


def headers_of(data):
    head = data[:2048]
    h = {}
    for k, v in HEADER.findall(head):
        h[k.decode().strip().lower()] = v.decode("latin-1").strip()
    return h


def ref_time(e):
    for k in ("published_parsed", "updated_parsed", "created_parsed"):
        t = e.get(k)
        if t:
            return calendar.timegm(t)
    return None


def ref_feed(data, url, ct):
    rh = {"content-location": url}
    if ct:
        rh["content-type"] = ct
    d = feedparser.parse(data, response_headers=rh)
    items = []
    for e in d.entries:
        title = e.get("title", "")
        ty = (e.get("title_detail") or {}).get("type", "text/plain")
        headline = html_text(title) if "html" in ty else collapse(title)
        link = norm_link(e.get("link", ""))
        items.append((headline, link, ref_time(e)))
    return items


def ref_sitemap(data, url):
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return None
    items = []
    for u in root.iter(SM + "url"):
        loc = (u.findtext(SM + "loc") or "").strip()
        news = u.find(NEWS + "news")
        title = collapse(news.findtext(NEWS + "title") or "") if news is not None else ""
        if "<" in title or "&" in title:
            title = html_text(title)
        date = (news.findtext(NEWS + "publication_date") if news is not None else None) or u.findtext(SM + "lastmod")
        t = feedparser.datetimes._parse_date(date.strip()) if date else None
        link = norm_link(urllib.parse.urljoin(url, loc)) if loc else ""
        items.append((title, link, calendar.timegm(t) if t else None))
    return items


def huduku(extract, path, url, ct, kind):
    cmd = [extract, "--now", NOW, "--data", "/nonexistent", "--file", path, "--url", url, "--kind", kind, "--all"]
    if ct:
        cmd += ["--content-type", ct]
    r = subprocess.run(cmd, capture_output=True, timeout=60)
    if r.returncode not in (0, 3):
        raise RuntimeError("%s: extract exited %d: %s" % (path, r.returncode, r.stderr.decode()[-500:]))
    items = []
    for line in r.stdout.decode().splitlines():
        it = json.loads(line)
        t = it.get("published")
        if t:
            import datetime
            t = calendar.timegm(datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ").timetuple())
        items.append((collapse(it["headline"]), norm_link(it["link"]), t, bool(it.get("dropped"))))
    return items


def align(ref, hud):
    """Pairs of (ref item or None, huduku item or None), in document order."""
    if len(ref) == len(hud):
        return list(zip(ref, hud))
    sm = difflib.SequenceMatcher(a=[r[1] for r in ref], b=[h[1] for h in hud], autojunk=False)
    pairs = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            pairs += list(zip(ref[i1:i2], hud[j1:j2]))
        else:
            pairs += [(r, None) for r in ref[i1:i2]] + [(None, h) for h in hud[j1:j2]]
    return pairs


def fmt_time(t):
    if t is None:
        return "none"
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def main():
    extract, corpus = sys.argv[1], sys.argv[2]
    report = sys.argv[sys.argv.index("--report") + 1] if "--report" in sys.argv else None
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".xml")
    )
    fields = ("headline", "link", "time")
    agree = {f: 0 for f in fields}
    present = {f: 0 for f in fields}
    present_agree = {f: 0 for f in fields}
    kept = kept_agree = 0
    total, nfiles, kinds = 0, 0, {"feed": 0, "sitemap": 0}
    lines = []
    for path in files:
        data = open(path, "rb").read()
        rel = os.path.relpath(path, corpus)
        h = headers_of(data)
        url = urllib.parse.urljoin(BASE + urllib.parse.quote(rel), h.get("content-location", ""))
        if not url.startswith(("http://", "https://")):
            url = BASE + urllib.parse.quote(rel)  # an unsafe Content-Location is ignored
        ct = h.get("content-type")
        head = data[:4096].lower()
        kind = "sitemap" if (b"<urlset" in head or b"<sitemapindex" in head) else "feed"
        try:
            ref = ref_sitemap(data, url) if kind == "sitemap" else ref_feed(data, url, ct)
        except Exception as e:  # the reference itself crashes on a few hostile files
            lines.append("%s: reference reader failed (%s); not compared" % (rel, type(e).__name__))
            continue
        if ref is None:
            lines.append("%s: reference reader could not read the sitemap; not compared" % rel)
            continue
        hud = huduku(extract, path, url, ct, kind)
        nfiles += 1
        kinds[kind] += 1
        for r, u in align(ref, hud):
            total += 1
            all_agree = True
            for i, f in enumerate(fields):
                same = r is not None and u is not None and r[i] == u[i]
                has = (r is not None and r[i]) or (u is not None and u[i])
                agree[f] += same
                if has:
                    present[f] += 1
                    present_agree[f] += same
                if not same:
                    all_agree = False
                    rv = "(no entry)" if r is None else (fmt_time(r[i]) if i == 2 else r[i])
                    hv = "(no entry)" if u is None else (fmt_time(u[i]) if i == 2 else u[i])
                    lines.append("%s: %s: feedparser %r, huduku %r" % (rel, f, rv, hv))
            # An item Huduku keeps (or the reference would let it keep) is a headline item.
            ref_keeps = r is not None and bool(r[0]) and bool(r[1])
            hud_keeps = u is not None and not u[3]
            if ref_keeps or hud_keeps:
                kept += 1
                kept_agree += all_agree and ref_keeps == hud_keeps
    out = []
    out.append("conformance of extract with feedparser %s" % feedparser.__version__)
    out.append("files read: %d (%d feeds, %d news sitemaps); entries compared: %d; of them headline items (headline and http(s) link): %d"
               % (nfiles, kinds["feed"], kinds["sitemap"], total, kept))
    out.append("")
    out.append("| field    | entries where either reader found it | agree | agreement | all entries agree |")
    out.append("|----------|------|-------|-----------|-------------------|")
    worst = 100.0
    for f in fields:
        pct = 100.0 * present_agree[f] / present[f] if present[f] else 100.0
        allpct = 100.0 * agree[f] / total if total else 100.0
        worst = min(worst, pct)
        out.append("| %-8s | %4d | %5d | %8.2f%% | %5d of %5d (%.2f%%) |" % (f, present[f], present_agree[f], pct, agree[f], total, allpct))
    kpct = 100.0 * kept_agree / kept if kept else 100.0
    out.append("| all three, headline items | %4d | %5d | %8.2f%% | |" % (kept, kept_agree, kpct))
    out.append("")
    out.append("disagreements and files not compared: %d" % len(lines))
    text = "\n".join(out)
    print(text)
    for l in lines:
        print("  " + l)
    if report:
        with open(report, "w") as fh:
            fh.write(text + "\n" + "\n".join("  " + l for l in lines) + "\n")
    sys.exit(0 if worst >= 99.0 else 1)


if __name__ == "__main__":
    main()
