#!/usr/bin/env python3
"""Writes tests/fixtures/feeds/charset-*.xml: one small RSS feed per charset that real feeds
carry beyond the WHATWG set (or under a label WHATWG does not know), each with a headline in
the script that charset is for. Deterministic; the files are kept, so this is only rerun to
change them. Prints the index.csv rows for them.

    python3 scripts/make_charset_fixtures.py
"""
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "feeds")

KANNADA = "ಕಾವೇರಿ ನೀರು: ತಮಿಳುನಾಡಿಗೆ ಬಿಡುಗಡೆ"
# (file, python codec, declared label or None, HTTP content type or None, BOM, headline)
FEEDS = [
    ("charset-utf32le-bom.xml", "utf-32-le", "UTF-32", None, b"\xff\xfe\x00\x00", KANNADA),
    ("charset-utf32be-bom.xml", "utf-32-be", "UTF-32", None, b"\x00\x00\xfe\xff", KANNADA),
    ("charset-utf32le.xml", "utf-32-le", "UTF-32LE", None, b"", KANNADA),
    ("charset-ucs4be.xml", "utf-32-be", "ISO-10646-UCS-4", None, b"", KANNADA),
    ("charset-cp037.xml", "cp037", "IBM037", None, b"", "[Mysuru] Dasara! 100% | café ¢"),
    ("charset-cp500.xml", "cp500", "cp500", None, b"", "[Mysuru] Dasara! 100% | café ¢"),
    ("charset-437.xml", "cp437", "437", None, b"", "Über die Brücke: café, Ñandú, ½ price"),
    ("charset-ibm850.xml", "cp850", None, "text/xml; charset=ibm850", b"", "Ålesund: søndag, façade © Øre"),
    ("charset-cp874.xml", "cp874", None, "application/rss+xml; charset=cp874", b"", "ข่าวภาษาไทย: กรุงเทพฯ"),
    ("charset-mac-cyrillic.xml", "mac_cyrillic", "mac-cyrillic", None, b"", "Новости: Бенгалуру и Майсуру"),
    ("charset-macgreek.xml", "mac_greek", "macgreek", None, b"", "Ειδήσεις: Αθήνα και Θεσσαλονίκη"),
]

for name, codec, declared, ct, bom, headline in FEEDS:
    decl = f' encoding="{declared}"' if declared else ""
    text = (
        f'<?xml version="1.0"{decl}?>\n'
        '<rss version="2.0">\n<channel>\n<title>Charset test</title>\n'
        "<item>\n"
        f"<title>{headline}</title>\n"
        f"<link>https://charset.example/{name[:-4]}/1.html</link>\n"
        "<pubDate>Mon, 30 Nov 2026 11:35:00 +0530</pubDate>\n"
        "</item>\n</channel>\n</rss>\n"
    )
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bom + text.encode(codec))
    print(f"{name},https://charset.example/feed,{ct or ''},feed,,")
