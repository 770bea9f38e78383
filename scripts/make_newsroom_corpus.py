#!/usr/bin/env python3
"""Writes the newsroom part of the conformance corpus (tests/fixtures/conformance/newsroom/).

Feeds and news sitemaps in the shapes Kannada and English newsrooms really serve: RSS 2.0
with CDATA and HTML in titles, RSS 0.91/0.92 in windows-1252 labelled ISO-8859-1, RSS 1.0
with dc:date, Atom 0.3 and 1.0 with html/xhtml titles and xml:base, UTF-16 Kannada, relative
links, tracking parameters, dates in RFC 822 (numeric and named zones) and W3C forms, and
Google news sitemaps. Deterministic: the same run writes the same bytes. Run it again only
to change the corpus; the files are kept in the repository.
"""
import os
import random
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/conformance/newsroom"
R = random.Random(20261130)

KN = [
    "ಬೆಳಗಾವಿಯಲ್ಲಿ ಚಳಿಗಾಲದ ಅಧಿವೇಶನ ಆರಂಭ", "ಕಾವೇರಿ ನೀರು: ತಮಿಳುನಾಡಿಗೆ ಬಿಡುಗಡೆ", "ಅಡಿಕೆ ಧಾರಣೆ ಇಳಿಕೆ, ಬೆಳೆಗಾರರ ಆತಂಕ",
    "ಹಂಪಿ ಉತ್ಸವಕ್ಕೆ ಸಿದ್ಧತೆ ಪೂರ್ಣ", "ಬೆಂಗಳೂರಿನಲ್ಲಿ ಮೆಟ್ರೋ ಹಳದಿ ಮಾರ್ಗ ಸಂಚಾರ", "ಮೈಸೂರು ದಸರಾ: ಜಂಬೂ ಸವಾರಿಗೆ ಗಜಪಡೆ",
    "ರಾಜ್ಯದಲ್ಲಿ ಭಾರಿ ಮಳೆ ಎಚ್ಚರಿಕೆ", "ಕನ್ನಡ ಶಾಲೆಗಳ ಉಳಿವಿಗೆ ಹೋರಾಟ", "ರೈತರ ಸಾಲ ಮನ್ನಾ ಬೇಡಿಕೆ",
    "ಕೆಎಸ್‌ಆರ್‌ಟಿಸಿ ಬಸ್ ದರ ಏರಿಕೆ ಇಲ್ಲ", "ಉಡುಪಿ ಕೃಷ್ಣ ಮಠದಲ್ಲಿ ಲಕ್ಷದೀಪೋತ್ಸವ", "ಹುಬ್ಬಳ್ಳಿ–ಧಾರವಾಡ ಐಟಿ ಪಾರ್ಕ್‌ಗೆ ಹೂಡಿಕೆ",
    "ಶಿವಮೊಗ್ಗ ವಿಮಾನ ನಿಲ್ದಾಣದಿಂದ ಹೊಸ ಹಾರಾಟ", "ಕರಾವಳಿಯಲ್ಲಿ ಮೀನುಗಾರಿಕೆ ನಿಷೇಧ ಅಂತ್ಯ", "ರಣಜಿ: ಕರ್ನಾಟಕಕ್ಕೆ ಇನಿಂಗ್ಸ್ ಮುನ್ನಡೆ",
    "ಯಕ್ಷಗಾನ ಮೇಳಗಳ ತಿರುಗಾಟ ಆರಂಭ", "ಕೊಡಗಿನಲ್ಲಿ ಕಾಫಿ ಕೊಯ್ಲು ಚುರುಕು", "ಬೀದರ್‌ನಲ್ಲಿ ಶಾಲಾ ಕಟ್ಟಡ ಕುಸಿತ",
    "ವಿಧಾನಸೌಧದ ಎದುರು ಪ್ರತಿಭಟನೆ", "ಸಂಪಾದಕೀಯ: ನಗರಕ್ಕೆ ಬೇಕಿರುವುದು ಬಸ್, ಮೇಲ್ಸೇತುವೆ ಅಲ್ಲ",
]
EN = [
    "Cabinet clears Rs 1,200-crore plan for Tungabhadra dam gates", "Mandya farmers protest delayed sugarcane dues",
    "Hubballi-Dharwad IT park draws fresh commitments", "Bengaluru's Yellow Line: first week in numbers",
    "Karnataka takes first-innings lead in Ranji Trophy", "Editorial: The city needs buses, not another flyover",
    "Mysuru Dasara: elephants begin training", "Coffee growers in Kodagu count losses after late rain",
    "High Court stays demolition drive in Mangaluru", "New Mangaluru Port has busiest November for cashew",
    "KSRTC to add 500 electric buses", "Opinion: Why Kannada schools need more than slogans",
    "Shivamogga airport gets new routes", "Rain alert for coastal districts this weekend",
    "Belagavi session: opposition walks out", "Startups in Bengaluru raise $2 billion in quarter",
    "Hampi Utsav: three days of music and dance", "Cauvery water row: CWMA meets on Friday",
    "Bidar school building collapses; no one hurt", "Yakshagana troupes return to the temple circuit",
]
SECTIONS = ["Karnataka", "Bengaluru", "Politics", "Business", "Sports", "Opinion", "Editorial", "Culture", "ರಾಜ್ಯ", "ಕ್ರೀಡೆ"]
AUTHORS = ["Reshma Kamath", "Ganesh Upadhyaya", "Deepak Pai", "ಪ್ರಜಾವಾಣಿ ವಾರ್ತೆ", "Staff Reporter", "ಸುಧಾ ಹೆಗಡೆ"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def when(i):
    """A time in late 2026, as (y, mo, d, h, mi, s, weekday)."""
    import datetime
    t = datetime.datetime(2026, 11, 30, 6, 5, 0) - datetime.timedelta(minutes=37 * i + R.randrange(0, 30), seconds=R.randrange(60))
    return t


def rfc822(t, zone):
    import datetime
    if zone in ("+0530", "IST"):
        lt = t + datetime.timedelta(hours=5, minutes=30)
    elif zone == "GMT":
        lt = t
    elif zone == "-0500" or zone == "EST":
        lt = t - datetime.timedelta(hours=5)
    else:
        lt = t
    return "%s, %02d %s %04d %02d:%02d:%02d %s" % (DAYS[lt.weekday()], lt.day, MONTHS[lt.month - 1], lt.year, lt.hour, lt.minute, lt.second, zone)


def w3c(t, style):
    import datetime
    if style == "z":
        return t.strftime("%Y-%m-%dT%H:%M:%SZ")
    if style == "ist":
        return (t + datetime.timedelta(hours=5, minutes=30)).strftime("%Y-%m-%dT%H:%M:%S+05:30")
    if style == "frac":
        return t.strftime("%Y-%m-%dT%H:%M:%S.123Z")
    if style == "nosec":
        return (t + datetime.timedelta(hours=5, minutes=30)).strftime("%Y-%m-%dT%H:%M+05:30")
    if style == "date":
        return t.strftime("%Y-%m-%d")
    raise ValueError(style)


def slug(i, n):
    return "news/%d/story-%04d-%d.html" % (2026, n, i)


def titles(lang, n):
    pool = KN if lang == "kn" else EN
    return [pool[(n * 7 + i * 3) % len(pool)] + ("" if i < len(pool) else " (%d)" % i) for i in range(R.randrange(8, 21))]


def title_markup(t, style):
    """A headline written the ways newsrooms write them."""
    if style == "cdata":
        return "<![CDATA[%s]]>" % t
    if style == "cdata-html":
        return "<![CDATA[<b>%s</b>]]>" % t
    if style == "escaped-html":
        return esc("<em>%s</em>" % esc(t))
    if style == "entity":
        return esc(t).replace(" ", " &#160;", 1).replace("'", "&#8217;")
    if style == "spaces":
        return "\n      %s   \n    " % esc(t)
    return esc(t)


def rss20(n, lang, host, zone, tstyle, link_style):
    items = []
    for i, t in enumerate(titles(lang, n)):
        tm = when(i + n)
        path = slug(i, n)
        if link_style == "relative":
            link = "/" + path
        elif link_style == "tracking":
            link = "https://%s/%s?utm_source=rss&amp;utm_medium=feed" % (host, path)
        elif link_style == "guid":
            link = None
        else:
            link = "https://%s/%s" % (host, path)
        cat = SECTIONS[(i + n) % len(SECTIONS)]
        author = AUTHORS[(i * 5 + n) % len(AUTHORS)]
        parts = ["    <item>", "      <title>%s</title>" % title_markup(t, tstyle)]
        if link is not None:
            parts.append("      <link>%s</link>" % link)
            parts.append('      <guid isPermaLink="false">%s-%d-%d</guid>' % (host.split(".")[1] if "." in host else host, n, i))
        else:
            parts.append("      <guid>https://%s/%s</guid>" % (host, path))
        parts.append("      <description><![CDATA[<p>%s &mdash; <a href=\"/%s\">read more</a></p>]]></description>" % (t, path))
        parts.append("      <category><![CDATA[%s]]></category>" % cat)
        parts.append("      <dc:creator>%s</dc:creator>" % esc(author))
        if not (i % 9 == 8 and n % 3 == 0):  # now and then an item without a date
            parts.append("      <pubDate>%s</pubDate>" % rfc822(tm, zone))
        parts.append("    </item>")
        items.append("\n".join(parts))
    return """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>%s</title>
    <link>https://%s/</link>
    <atom:link href="https://%s/feed/%d.xml" rel="self" type="application/rss+xml"/>
    <description>Latest news</description>
    <language>%s</language>
%s
  </channel>
</rss>
""" % (esc(host), host, host, n, lang, "\n".join(items))


def rss091(n, host):
    items = []
    for i, t in enumerate(titles("en", n)):
        t = t.replace("'", "\u2019").replace(": ", " \u2013 ")
        items.append("<item>\n<title>%s</title>\n<link>http://%s/%s</link>\n<description>%s \u201cquoted\u201d</description>\n</item>" % (esc(t), host, slug(i, n), esc(t)))
    body = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91">
<channel>
<title>%s</title>
<link>http://%s/</link>
<description>Headlines</description>
<language>en</language>
%s
</channel>
</rss>
""" % (host, host, "\n".join(items))
    return body.encode("cp1252")


def rss092(n, host):
    items = []
    for i, t in enumerate(titles("en", n)):
        items.append('<item>\n<title>%s</title>\n<link>http://%s/%s</link>\n<category domain="http://%s/sections">%s</category>\n</item>' % (esc(t), host, slug(i, n), host, SECTIONS[i % 6]))
    return """<?xml version="1.0"?>
<rss version="0.92">
<channel>
<title>%s</title>
<link>http://%s/</link>
<description>Headlines</description>
%s
</channel>
</rss>
""" % (host, host, "\n".join(items))


def rss10(n, lang, host, dstyle):
    seq, items = [], []
    for i, t in enumerate(titles(lang, n)):
        url = "https://%s/%s" % (host, slug(i, n))
        seq.append('<rdf:li rdf:resource="%s"/>' % url)
        items.append("""<item rdf:about="%s">
  <title>%s</title>
  <link>%s</link>
  <description>%s</description>
  <dc:date>%s</dc:date>
  <dc:subject>%s</dc:subject>
  <dc:creator>%s</dc:creator>
</item>""" % (url, esc(t), url, esc(t), w3c(when(i + n), dstyle), SECTIONS[(i + n) % len(SECTIONS)], esc(AUTHORS[i % len(AUTHORS)])))
    return """<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://%s/rss">
  <title>%s</title>
  <link>https://%s/</link>
  <description>News</description>
  <items><rdf:Seq>%s</rdf:Seq></items>
</channel>
%s
</rdf:RDF>
""" % (host, host, host, "".join(seq), "\n".join(items))


def atom10(n, lang, host, ttype, dstyle, base):
    entries = []
    for i, t in enumerate(titles(lang, n)):
        tm = when(i + n)
        path = slug(i, n)
        href = path if base else "https://%s/%s" % (host, path)
        if ttype == "html":
            title = '<title type="html">%s</title>' % esc("<b>%s</b>" % esc(t))
        elif ttype == "xhtml":
            title = '<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">%s <em>%s</em></div></title>' % (esc(t.split(" ")[0]), esc(" ".join(t.split(" ")[1:])))
        else:
            title = "<title>%s</title>" % esc(t)
        entries.append("""  <entry>
    %s
    <link rel="alternate" type="text/html" href="%s"/>
    <link rel="enclosure" type="image/jpeg" href="https://img.%s/%d-%d.jpg"/>
    <id>tag:%s,2026:%d-%d</id>
    <published>%s</published>
    <updated>%s</updated>
    <author><name>%s</name></author>
    <category term="%s" label="%s"/>
    <summary type="html">%s</summary>
  </entry>""" % (title, href, host, n, i, host, n, i, w3c(tm, dstyle), w3c(tm, "z"), esc(AUTHORS[(i + n) % len(AUTHORS)]),
                  SECTIONS[i % len(SECTIONS)].lower(), SECTIONS[i % len(SECTIONS)], esc("<p>%s</p>" % esc(t))))
    xb = ' xml:base="https://%s/"' % host if base else ""
    return """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="%s"%s>
  <title>%s</title>
  <link rel="self" href="https://%s/atom.xml"/>
  <id>tag:%s,2026:feed</id>
  <updated>2026-11-30T06:00:00Z</updated>
%s
</feed>
""" % (lang, xb, host, host, host, "\n".join(entries))


def atom03(n, host):
    entries = []
    for i, t in enumerate(titles("en", n)):
        tm = when(i + n)
        entries.append("""<entry>
  <title mode="escaped" type="text/html">%s</title>
  <link rel="alternate" type="text/html" href="http://%s/%s"/>
  <id>tag:%s,2026:%d-%d</id>
  <issued>%s</issued>
  <modified>%s</modified>
  <author><name>%s</name></author>
</entry>""" % (esc(esc(t)), host, slug(i, n), host, n, i, w3c(tm, "ist"), w3c(tm, "z"), esc(AUTHORS[i % len(AUTHORS)])))
    return """<?xml version="1.0" encoding="utf-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
<title>%s</title>
<link rel="alternate" type="text/html" href="http://%s/"/>
<modified>2026-11-30T06:00:00Z</modified>
%s
</feed>
""" % (host, host, "\n".join(entries))


def sitemap(n, lang, host, dstyle):
    urls = []
    for i, t in enumerate(titles(lang, n)):
        urls.append("""  <url>
    <loc>https://%s/%s</loc>
    <news:news>
      <news:publication><news:name>%s</news:name><news:language>%s</news:language></news:publication>
      <news:publication_date>%s</news:publication_date>
      <news:title>%s</news:title>
    </news:news>
  </url>""" % (host, slug(i, n), host, lang, w3c(when(i + n), dstyle), esc(t)))
    urls.append("  <url><loc>https://%s/about-us</loc><lastmod>2026-01-01</lastmod></url>" % host)
    return """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
%s
</urlset>
""" % "\n".join(urls)


def main():
    os.makedirs(OUT, exist_ok=True)
    hosts_kn = ["www.prajavani.example", "vijaykarnataka.example", "kannada.newsroom.example", "www.udayavani.example"]
    hosts_en = ["www.deccanherald.example", "www.thehindu.example", "coastaltimes.example", "www.starofmysore.example"]
    files = {}
    n = 0
    for tstyle in ("plain", "cdata", "cdata-html", "escaped-html", "entity", "spaces"):
        for zone in ("+0530", "GMT", "-0500"):
            for link_style in ("absolute", "relative", "tracking", "guid"):
                lang = "kn" if n % 2 else "en"
                host = (hosts_kn if lang == "kn" else hosts_en)[n % 4]
                files["rss20-%s-%s-%s-%02d.xml" % (tstyle, zone.replace("+", "p").replace("-", "m"), link_style, n)] = rss20(n, lang, host, zone, tstyle, link_style).encode()
                n += 1
    for k in range(12):
        files["rss091-latin1-%02d.xml" % k] = rss091(100 + k, hosts_en[k % 4])
        files["rss092-%02d.xml" % k] = rss092(120 + k, hosts_en[k % 4]).encode()
    for k, dstyle in enumerate(["z", "ist", "frac", "nosec", "date"] * 4):
        lang = "kn" if k % 2 else "en"
        files["rss10-%s-%02d.xml" % (dstyle, k)] = rss10(200 + k, lang, (hosts_kn if lang == "kn" else hosts_en)[k % 4], dstyle).encode()
    k = 0
    for ttype in ("text", "html", "xhtml"):
        for dstyle in ("z", "ist", "frac", "nosec"):
            for base in (False, True):
                lang = "kn" if k % 2 else "en"
                files["atom10-%s-%s-%s-%02d.xml" % (ttype, dstyle, "base" if base else "abs", k)] = atom10(300 + k, lang, (hosts_kn if lang == "kn" else hosts_en)[k % 4], ttype, dstyle, base).encode()
                k += 1
    for k in range(10):
        files["atom03-%02d.xml" % k] = atom03(400 + k, hosts_en[k % 4]).encode()
    # Kannada in UTF-16, with and without a BOM-declared byte order.
    for k in range(6):
        text = rss20(500 + k, "kn", hosts_kn[k % 4], "+0530", "plain", "absolute").replace('encoding="UTF-8"', 'encoding="UTF-16"')
        files["rss20-utf16%s-kannada-%02d.xml" % ("le" if k % 2 else "be", k)] = text.encode("utf-16-le" if k % 2 else "utf-16-be").join([b"\xff\xfe" if k % 2 else b"\xfe\xff", b""])
    for k, dstyle in enumerate(["z", "ist", "frac", "nosec", "date"] * 6):
        lang = "kn" if k % 2 else "en"
        files["news-sitemap-%s-%02d.xml" % (dstyle, k)] = sitemap(600 + k, lang, (hosts_kn if lang == "kn" else hosts_en)[k % 4], dstyle).encode()
    # India Standard Time by name, as some Indian newsrooms write it (three items).
    ist = rss20(700, "kn", hosts_kn[0], "IST", "plain", "absolute")
    head, rest = ist.split("    <item>", 1)
    items = ("    <item>" + rest).split("    </item>\n")
    files["rss20-ist-zone.xml"] = (head + "    </item>\n".join(items[:3]) + "    </item>\n  </channel>\n</rss>\n").encode()
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print("%d files in %s" % (len(files), OUT))


if __name__ == "__main__":
    main()
