"""The versions the repairs were written against: each is installed only
where the installed version is the one named here (on any other, WeasyPrint
and tinyhtml5 stay as they are: the booklet is the same, only slower)."""

#: the WeasyPrint major version whose ``svg/text.py`` :func:`.svg_text.text` follows
WEASYPRINT_MAJOR = 70
#: the tinyhtml5 version (major, minor) whose ``chars_until`` keeps nothing
TINYHTML5_BROKEN = ("2", "1")
