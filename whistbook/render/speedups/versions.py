"""The versions the repairs were written against: each is installed only
where the installed version is the one named here (on any other, WeasyPrint
and tinyhtml5 stay as they are: the booklet is the same, only slower)."""

#: the WeasyPrint release whose code the repairs copy or follow: a point
#: release may mend a function they replace, so only this one is repaired
WEASYPRINT = "70.0"
#: its major version
WEASYPRINT_MAJOR = 70
#: the tinyhtml5 version (major, minor) whose ``chars_until`` keeps nothing
TINYHTML5_BROKEN = ("2", "1")


def weasyprint_fits() -> bool:
    """Whether the installed WeasyPrint is the release the repairs follow."""
    import weasyprint

    return weasyprint.__version__ == WEASYPRINT
