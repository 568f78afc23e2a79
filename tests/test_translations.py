"""The Russian catalogue is complete, compiled and in step with the source.

No database and no ``makemessages`` run (too slow): the catalogue is parsed here, the compiled
``.mo`` is read with :mod:`gettext`, and the strings marked in the source are found with
:mod:`ast` (Python) and Django's own template lexer (``templatize``, the step ``makemessages``
runs before ``xgettext``). A failure lists every message at fault, so one run shows all the work.
"""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale" / "ru" / "LC_MESSAGES"
PO_FILE = LOCALE_DIR / "django.po"
MO_FILE = LOCALE_DIR / "django.mo"

RUSSIAN_PLURAL_FORMS = (
    "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);"
)
# One number per Russian plural form: 1 яблоко, 2 яблока, 5 яблок.
PLURAL_SAMPLES = {0: (1, 21, 101), 1: (2, 3, 24), 2: (5, 11, 12, 100)}

# What `makemessages -l ru --ignore=.venv --ignore=var --ignore=tests --ignore=bench` scans.
IGNORED_DIRS = {".venv", "var", "tests", "bench", "locale", "node_modules", "__pycache__"}
TEMPLATE_SUFFIXES = {".html", ".txt"}

# xgettext's Python keywords plus the ones Django adds: name -> (context arg, msgid, plural).
KEYWORDS: dict[str, tuple[int | None, int, int | None]] = {
    "_": (None, 0, None),
    "gettext": (None, 0, None),
    "gettext_lazy": (None, 0, None),
    "gettext_noop": (None, 0, None),
    "ugettext": (None, 0, None),
    "dgettext": (None, 1, None),
    "ngettext": (None, 0, 1),
    "ngettext_lazy": (None, 0, 1),
    "ungettext": (None, 0, 1),
    "dngettext": (None, 1, 2),
    "pgettext": (0, 1, None),
    "pgettext_lazy": (0, 1, None),
    "npgettext": (0, 1, 2),
    "npgettext_lazy": (0, 1, 2),
}

_PO_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    '"': '"',
    "\\": "\\",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}
_FORMAT_RE = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifeEgGxXorcu%]")
_TAG_RE = re.compile(r"</?[a-zA-Z][^>]*>")
_LITERAL = r"""[uUrR]?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""
_TEMPLATE_CALL_RE = re.compile(
    r"\b(" + "|".join(KEYWORDS) + r")\(\s*(" + _LITERAL + r"(?:\s*,\s*" + _LITERAL + r")*)"
)


@dataclass
class Entry:
    """One message of a .po file."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    def describe(self) -> str:
        ctx = f" [context {self.msgctxt!r}]" if self.msgctxt else ""
        return f"django.po:{self.line}: {self.msgid!r}{ctx}"


def _unquote(text: str) -> str:
    body = text.strip()
    assert body.startswith('"') and body.endswith('"'), f"not a PO string: {text!r}"
    return re.sub(r"\\(.)", lambda m: _PO_ESCAPES.get(m.group(1), m.group(1)), body[1:-1])


def parse_po(path: Path) -> tuple[Entry, list[Entry]]:
    """Return the header entry and the messages of a .po file (obsolete ``#~`` ones skipped)."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int | None] | None = None  # (attribute, plural index)

    def start(line_no: int) -> Entry:
        nonlocal current
        if current is None:
            current = Entry(line=line_no)
        return current

    def finish() -> None:
        nonlocal current, target
        if current is not None:
            entries.append(current)
        current, target = None, None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            finish()
        elif line.startswith("#~"):
            continue
        elif line.startswith("#,"):
            if current is not None and target is not None:
                finish()
            start(number).flags.update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            if current is not None and target is not None:
                finish()
        elif line.startswith('"'):
            assert current is not None and target is not None, f"django.po:{number}: stray string"
            name, index = target
            if name == "msgstr":
                current.msgstr[index or 0] += _unquote(line)
            else:
                setattr(current, name, getattr(current, name) + _unquote(line))
        else:
            keyword, _sep, value = line.partition(" ")
            entry = start(number)
            if keyword in ("msgctxt", "msgid") and target is not None and target[0] == "msgstr":
                finish()
                entry = start(number)
            match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            if match:
                target = ("msgstr", int(match.group(1)))
                entry.msgstr[target[1]] = _unquote(value)
            elif keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
                target = (keyword, None)
                if keyword == "msgstr":
                    entry.msgstr[0] = _unquote(value)
                else:
                    setattr(entry, keyword, _unquote(value))
                    if keyword == "msgid":
                        entry.line = number
            else:
                raise AssertionError(f"django.po:{number}: cannot read {raw!r}")
    finish()

    headers = [e for e in entries if e.msgid == "" and e.msgctxt is None]
    assert len(headers) == 1, "django.po must have exactly one header entry"
    return headers[0], [e for e in entries if e is not headers[0]]


@pytest.fixture(scope="module")
def catalogue() -> tuple[Entry, list[Entry]]:
    assert PO_FILE.exists(), f"{PO_FILE} is missing: run makemessages -l ru"
    return parse_po(PO_FILE)


# -- the catalogue itself --------------------------------------------------------------------


def test_header_is_russian_and_not_fuzzy(catalogue):
    header, _messages = catalogue
    fields = dict(line.split(": ", 1) for line in header.msgstr[0].splitlines() if ": " in line)
    assert "fuzzy" not in header.flags, "the header is fuzzy: msgfmt would drop Plural-Forms"
    assert fields.get("Language") == "ru"
    assert fields.get("Content-Type") == "text/plain; charset=UTF-8"
    assert fields.get("Plural-Forms") == RUSSIAN_PLURAL_FORMS


def test_every_message_is_translated(catalogue):
    _header, messages = catalogue
    assert messages, "django.po has no messages"
    fuzzy = [e.describe() for e in messages if "fuzzy" in e.flags]
    forms = 3
    empty = [
        e.describe()
        for e in messages
        if (sorted(e.msgstr) != list(range(forms if e.msgid_plural else 1)))
        or not all(s.strip() for s in e.msgstr.values())
    ]
    assert not (fuzzy or empty), (
        "fuzzy (unchecked) translations:\n"
        + "\n".join(fuzzy)
        + "\nempty or incomplete translations:\n"
        + "\n".join(empty)
    )


def test_placeholders_and_html_are_kept(catalogue):
    _header, messages = catalogue
    wrong = []
    for e in messages:
        sources = [e.msgid] if e.msgid_plural is None else [e.msgid, e.msgid_plural]
        expected_formats = {tuple(sorted(_FORMAT_RE.findall(s))) for s in sources}
        expected_tags = sorted(_TAG_RE.findall(e.msgid))
        for index, text in e.msgstr.items():
            if not text:
                continue  # reported by test_every_message_is_translated
            formats = tuple(sorted(_FORMAT_RE.findall(text)))
            # A plural form may drop the number ("одна партия"), never invent a placeholder.
            ok = formats in expected_formats or (
                e.msgid_plural is not None and set(formats) <= set().union(*expected_formats)
            )
            if not ok or sorted(_TAG_RE.findall(text)) != expected_tags:
                wrong.append(f"{e.describe()} msgstr[{index}] = {text!r}")
    assert not wrong, "placeholders or HTML differ from the English:\n" + "\n".join(wrong)


# -- the compiled catalogue ------------------------------------------------------------------


def test_compiled_catalogue_matches_the_po_file(catalogue):
    _header, messages = catalogue
    assert MO_FILE.exists(), f"{MO_FILE} is missing: run compilemessages"
    with MO_FILE.open("rb") as handle:
        mo = gettext.GNUTranslations(handle)
    stale = []
    for e in messages:
        if e.msgid_plural is None:
            if e.msgctxt is None:
                got = mo.gettext(e.msgid)
            else:
                got = mo.pgettext(e.msgctxt, e.msgid)
            if got != e.msgstr.get(0):
                stale.append(f"{e.describe()}: .mo has {got!r}")
            continue
        for index, numbers in PLURAL_SAMPLES.items():
            for n in numbers:
                if e.msgctxt is None:
                    got = mo.ngettext(e.msgid, e.msgid_plural, n)
                else:
                    got = mo.npgettext(e.msgctxt, e.msgid, e.msgid_plural, n)
                if got != e.msgstr.get(index):
                    stale.append(f"{e.describe()} n={n}: .mo has {got!r}")
    assert not stale, (
        "django.mo is out of date with django.po (run compilemessages):\n" + "\n".join(stale)
    )


# -- the source ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """A string marked for translation in the source."""

    msgctxt: str | None
    msgid: str
    msgid_plural: str | None
    where: str


def _source_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in IGNORED_DIRS or p.startswith(".") for p in parts[:-1]):
            continue
        if path.is_file() and (path.suffix == ".py" or path.suffix in TEMPLATE_SUFFIXES):
            found.append(path)
    return sorted(found)


def _from_args(name: str, args: list[object], where: str) -> Marked | None:
    ctx_at, id_at, plural_at = KEYWORDS[name]
    needed = max(i for i in (ctx_at, id_at, plural_at) if i is not None)
    if len(args) <= needed or not all(
        isinstance(args[i], str) for i in (ctx_at, id_at, plural_at) if i is not None
    ):
        return None
    msgid = args[id_at]
    if not msgid:
        return None
    return Marked(
        args[ctx_at] if ctx_at is not None else None,
        msgid,
        args[plural_at] if plural_at is not None else None,
        where,
    )


def _marked_in_python(source: str, rel: str) -> list[Marked]:
    tree = ast.parse(source, filename=rel)
    marked = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in KEYWORDS:
            continue
        args = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
        found = _from_args(name, args, f"{rel}:{node.lineno}")
        if found:
            marked.append(found)
    return marked


def _marked_in_template(path: Path) -> list[Marked]:
    rel = path.relative_to(ROOT)
    text = path.read_text(encoding="utf-8")
    if "{%" not in text and "_(" not in text:
        return []
    code = templatize(text, origin=str(rel))
    marked = []
    for match in _TEMPLATE_CALL_RE.finditer(code):
        args = list(ast.literal_eval(f"({match.group(2)},)"))
        line = code.count("\n", 0, match.start()) + 1
        found = _from_args(match.group(1), args, f"{rel}:{line}")
        if found:
            marked.append(found)
    return marked


def test_every_marked_string_is_in_the_catalogue(catalogue):
    _header, messages = catalogue
    known = {e.key: e for e in messages}
    marked: list[Marked] = []
    for path in _source_files():
        if path.suffix == ".py":
            rel = str(path.relative_to(ROOT))
            marked.extend(_marked_in_python(path.read_text(encoding="utf-8"), rel))
        else:
            marked.extend(_marked_in_template(path))
    assert marked, "found no marked strings at all: the scan is broken"

    missing = []
    for m in marked:
        entry = known.get((m.msgctxt, m.msgid))
        if entry is None:
            missing.append(f"{m.where}: {m.msgid!r}")
        elif m.msgid_plural is not None and entry.msgid_plural != m.msgid_plural:
            missing.append(f"{m.where}: plural {m.msgid_plural!r} of {m.msgid!r}")
    assert not missing, (
        "strings marked for translation but missing from locale/ru/LC_MESSAGES/django.po "
        "(run makemessages -l ru, translate, compilemessages):\n" + "\n".join(sorted(set(missing)))
    )


def test_the_scan_sees_what_makemessages_sees():
    """Guard the scanner itself on the shapes the project uses."""
    template = (
        '{% load i18n %}{% translate "Pair A" %}{{ x|default:_("Party") }}'
        "{% blocktranslate with n=d %}Record deal {{ n }}{% endblocktranslate %}"
        '{% translate "100% sure" context "odds" %}'
        "{% blocktranslate count c=k %}{{ c }} deal{% plural %}{{ c }} deals"
        "{% endblocktranslate %}"
    )
    code = templatize(template, origin="t.html")
    found = []
    for match in _TEMPLATE_CALL_RE.finditer(code):
        found.append(
            _from_args(match.group(1), list(ast.literal_eval(f"({match.group(2)},)")), "t.html")
        )
    assert [(m.msgctxt, m.msgid, m.msgid_plural) for m in found] == [
        (None, "Pair A", None),
        (None, "Party", None),
        (None, "Record deal %(n)s", None),
        ("odds", "100%% sure", None),
        (None, "%(c)s deal", "%(c)s deals"),
    ]
    source = (
        'from x import _\n_("a" "b")\nngettext_lazy("one", "many", n)\n_(f"no {x}")\n'
        'translation.pgettext("ctx", "c")\nprint("not marked")\n'
    )
    got = _marked_in_python(source, "probe.py")
    assert {(m.msgctxt, m.msgid, m.msgid_plural) for m in got} == {
        (None, "ab", None),
        (None, "one", "many"),
        ("ctx", "c", None),
    }
