#!/usr/bin/env python3
"""Writes src/extract/codepages.rs: byte-to-Unicode tables of the single-byte code pages that
real feeds carry and the WHATWG encoding set (encoding_rs) leaves out. The mappings are
Python's codecs, which are generated from the Unicode consortium's published tables
(VENDORS/MICSFT/EBCDIC/CP037.TXT and CP500.TXT, PC/CP437.TXT and CP850.TXT,
VENDORS/APPLE/GREEK.TXT). Offline and deterministic: rerun only to add a code page.

    python3 scripts/codepages.py > src/extract/codepages.rs
"""

PAGES = [
    ("CP037", "cp037", "IBM037, EBCDIC US/Canada"),
    ("CP500", "cp500", "IBM500, EBCDIC International"),
    ("CP437", "cp437", "IBM437, the original PC code page"),
    ("CP850", "cp850", "IBM850, DOS Latin 1"),
    ("MAC_GREEK", "mac_greek", "Mac OS Greek"),
]

print("//! Byte-to-Unicode tables of single-byte code pages outside the WHATWG set, written by")
print("//! `scripts/codepages.py` from the Unicode consortium's mapping tables (as Python's codecs")
print("//! carry them). Do not edit by hand: rerun the script. U+FFFD marks a byte the page leaves")
print("//! undefined.")
print()
print("#[rustfmt::skip]")
print("mod tables {")
for const, codec, what in PAGES:
    cps = []
    for b in range(256):
        try:
            s = bytes([b]).decode(codec)
            assert len(s) == 1
            cps.append(ord(s))
        except UnicodeDecodeError:
            cps.append(0xFFFD)
    assert all(c <= 0xFFFF for c in cps)
    print(f"    /// {what} (Python codec `{codec}`).")
    print(f"    pub static {const}: [u16; 256] = [")
    for row in range(0, 256, 8):
        print("        " + " ".join(f"0x{c:04X}," for c in cps[row:row + 8]))
    print("    ];")
print("}")
print()
print("pub use tables::*;")
