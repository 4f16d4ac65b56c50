"""Outputs files whose bytes are not text, and what refusing each says: the one list the
importer's, the upload page's and the ``import_outputs`` command's tests share."""

from __future__ import annotations

#: A good outputs file (E2E-like CSV: two items of one system).
GOOD = "item_id,input,system,output\nm1,name[A],s1,A is here.\nm2,name[B],s1,B is there.\n"

#: name: (bytes, line, field, words of the reason) of each file refused.
CASES: dict[str, tuple[bytes, int | None, str, str]] = {
    "NUL byte": (
        b"item_id,input,system,output\nm1,name[A],s1,ok\nm2,name[\x00B],s1,ok\n",
        3,
        "input",
        "NUL byte",
    ),
    "invalid UTF-8": (
        b"item_id,input,system,output\nm1,name[A],s1,caf\xe9 au lait\n",
        2,
        "output",
        "not UTF-8",
    ),
    "Latin-1 in the header": (b"item_id,input,syst\xe8me,output\n", 1, "", "not UTF-8"),
    "UTF-16 with BOM": (GOOD.encode("utf-16"), 1, "", "UTF-16"),
    "UTF-16 LE without BOM": (GOOD.encode("utf-16-le"), 1, "", "UTF-16"),
    "UTF-16 BE without BOM": (GOOD.encode("utf-16-be"), 1, "", "UTF-16"),
    "0-byte file": (b"", None, "", "empty (0 bytes)"),
}
