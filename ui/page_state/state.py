"""One way for every page to keep its view: restore it (from the link on a first visit, from
this session after another page, from the browser's own values after a server restart),
repair what a widget can't hold, keep it inside what a model allows, write it to the URL
and say what a link held that could not be used.

A page makes one ``PageState`` from its parameters (``links/rules.py``) and a
prefix; each parameter's widget has the key ``prefix + name``. The usual run::

    page = PageState("ex_", PARAMS)
    page.restore()                 # link, session or browser
    ...draw the widgets (key=page.key(name))...
    values = page.values()
    page.settle(values)            # the link's notes go once the student changes the view
    page.write_url(values, lang)
    page.show_notes(lang)

The browser's Back and Forward buttons move between pages, not through a page's own changes:
each page visit is one history entry, and its link is the page as the student left it.
Streamlit pushes an entry for every link a page writes (``st.query_params``); a small script
(``ui/page_state/history.py``) turns a push that keeps the page into a replacement, and a run
that Back or Forward started shows the values last shown (the entry's link), whatever a
widget kept. A page's own changes are undone with its own controls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from links.rules import LINK_TEXT_CHARS, Note, Param, by_name, parse_query, repairs, to_query, too_long_for_a_link
from string_table import DEFAULT_LANGUAGE, has_text, t

from ..internals import is_history_navigation, keys_sent_by_browser
from ..markdown import literal
from ..shell import LANGUAGE_STATE, carried_params
from .history import one_entry_per_page

NOTE_VALUE_CHARS = 40  # a link's odd value is shown up to this many characters
ICONS = {"older_version": ":material/history:", "newer_version": ":material/history:"}


def send_to_browser(key: str, value: Any) -> None:
    """Give the widget ``key`` its value before it is drawn, so that this run sends the value
    to the browser. Every choice widget's value goes through here on every run: a keyed select
    box's identity is its key alone, not its options, and Streamlit sends a value only when it
    changed or was set by the page. A box whose labels change (other tokens, another model,
    another language) while its value stays would otherwise keep showing the old label (row 3
    still "3 · ␣" once row 3 is "on")."""
    st.session_state[key] = value


def shown_value(value: str, chars: int = NOTE_VALUE_CHARS) -> str:
    """A link's value as a note shows it: literal, cut to ``chars`` characters."""
    return literal(value if len(value) <= chars else value[: chars - 1] + "…")


class PageState:
    """The view of one page in ``st.session_state``: widget values under ``prefix + name``,
    the values last shown under ``prefix + "values"``, the link's notes under ``prefix + "notes"``."""

    def __init__(
        self,
        prefix: str,
        params: Sequence[Param],
        extra_widgets: Sequence[str] = (),
        note_chars: int = NOTE_VALUE_CHARS,
        parse: Callable[[Mapping[str, str | list[str]]], tuple[dict[str, Any], list[Note]]] | None = None,
    ) -> None:
        self.prefix = prefix
        self.note_chars = note_chars
        self.params = tuple(params)
        self.by_name = by_name(params)
        self.values_key = prefix + "values"
        self.notes_key = prefix + "notes"
        self.fresh_key = prefix + "from_link"  # this run's values came from the link
        self.clamped_key = prefix + "clamped"
        self.browser_key = prefix + "from_browser"  # this run's widgets left to the browser
        # Widgets of the page that are not parameters (a preset box) but that the browser
        # may send after a restart: restore leaves them to the browser too.
        self.extra_widgets = tuple(extra_widgets)
        # How a link becomes values and notes: the page's own rules when it has rules across
        # parameters (the playground's head within its heads), else each parameter's. The page
        # and its tests read a link through this one function.
        self.parse_query = parse or (lambda query: parse_query(self.params, query))

    def key(self, name: str) -> str:
        return self.prefix + name

    # -- restoring -------------------------------------------------------------------------
    def sent_by_browser(self) -> set[str]:
        """Widget keys of this page whose values the browser sent with this run but that this
        session does not hold: the page outlived its session (a server restart, an expired
        session), and its next run carries every widget's value, the change that started the
        run included, which the URL does not hold yet. Those values win over the link."""
        ours = {self.key(name) for name in (*self.by_name, *self.extra_widgets)}
        return {key for key in keys_sent_by_browser() & ours if key not in st.session_state}

    def restarted_under_the_page(self) -> bool:
        """True on the session's first run of this page when that run came with the page's
        own widget values: the browser drew the page for a session this server does not
        have (it restarted, or the session expired), so what lived only in that session is
        gone. Call it once per run, first."""
        seen_key = self.prefix + "seen"
        first = not st.session_state.get(seen_key)
        st.session_state[seen_key] = True
        ours = {self.key(name) for name in (*self.by_name, *self.extra_widgets)}
        return first and bool(keys_sent_by_browser() & ours)

    def restore(self, late: Sequence[str] = ()) -> set[str]:
        """Fill each widget from the link (a session's first visit) or from the values last
        shown (after another page, whose run dropped the widgets' state); values the browser
        sent are left to the browser, except for the ``late`` parameters, whose widgets are
        drawn after the page reads them (they follow the link). Returns the keys left to
        the browser: those widgets can't be read before they are drawn."""
        ss = st.session_state
        one_entry_per_page()  # Back returns to the page before as it was left (ui/page_state/history.py)
        from_browser = self.sent_by_browser() - {self.key(name) for name in late}
        if self.values_key not in ss:
            values, notes = self.parse_query(st.query_params.to_dict())
            ss[self.values_key] = values
            ss[self.notes_key] = notes
            ss[self.fresh_key] = True
        # Back or Forward: the view last shown, which the entry's link holds, wins over a value
        # a widget kept (Streamlit may hand back an older one after another page).
        back = is_history_navigation()
        for name, value in ss[self.values_key].items():
            key = self.key(name)
            if key in from_browser and not back:
                continue
            # A widget's value set here outlives the widget; the value the student gave it does
            # not (Streamlit drops it on a run that does not draw the widget: a lazy tab not
            # open). Set each one anew, so that a closed tab's controls keep the student's value
            # and every box shows the label its value has now (send_to_browser).
            send_to_browser(key, ss[key] if key in ss and not back else value)
        self.repair(from_browser)
        ss[self.browser_key] = from_browser
        return from_browser

    def reread_after_restart(self) -> None:
        """End a run that left widgets to the browser with one more run: their values are
        readable only once drawn, so a page that reads a value before drawing its widget
        (a view computed above its own controls) showed the link's value; the next run
        reads the browser's, the student's first change after a restart included."""
        if st.session_state.pop(self.browser_key, None):
            st.rerun()

    def refresh(self) -> None:
        """Before a part of the page reruns alone (``st.fragment``): each widget the session
        holds gets its own value anew (a box whose labels changed shows the new label, as
        ``restore`` does in a full run), and a value its parameter can't hold is repaired.
        The link, the history and the browser's values were read by the last full run."""
        ss = st.session_state
        for name in self.by_name:
            if self.key(name) in ss:
                send_to_browser(self.key(name), ss[self.key(name)])
        self.repair(set())

    def repair(self, from_browser: set[str] | None = None) -> None:
        """Widgets holding a value their parameter can't hold (a stale label, a crafted
        value) get the last good value back, else the default."""
        ss = st.session_state
        skip = self.sent_by_browser() if from_browser is None else from_browser
        current = {name: ss.get(self.key(name)) for name in self.by_name}
        for name, value in repairs(self.params, current, ss.get(self.values_key, {})).items():
            if self.key(name) not in skip:
                ss[self.key(name)] = value

    # -- reading and changing ----------------------------------------------------------------
    def get(self, name: str) -> Any:
        """The widget's value if its parameter accepts it, else the last good value, else the default."""
        param = self.by_name[name]
        value = st.session_state.get(self.key(name))
        if param.accepts(value):
            return value
        good = st.session_state.get(self.values_key, {}).get(name)
        return good if param.accepts(good) else param.default

    def set(self, name: str, value: Any) -> None:
        st.session_state[self.key(name)] = value

    def values(self) -> dict[str, Any]:
        return {name: self.get(name) for name in self.by_name}

    def last_values(self) -> dict[str, Any]:
        """The values shown by the last run (a callback compares with them)."""
        return dict(st.session_state.get(self.values_key, {}))

    def fit(self, fitted: Mapping[str, Any], notes: Sequence[Note] = ()) -> None:
        """Put values moved inside what a model or a text allows into their widgets; their
        notes are shown when the values came from the link."""
        left = st.session_state.get(self.browser_key, set())
        for name, value in fitted.items():
            if self.key(name) not in left and st.session_state.get(self.key(name)) != value:
                self.set(name, value)
        if st.session_state.get(self.fresh_key):
            self.add_notes(notes)

    # -- notes -------------------------------------------------------------------------------
    def add_notes(self, notes: Sequence[Note]) -> None:
        if notes:
            st.session_state[self.notes_key] = [*st.session_state.get(self.notes_key, []), *notes]

    def notes(self) -> list[Note]:
        return list(st.session_state.get(self.notes_key, []))

    def clear_notes(self) -> None:
        st.session_state[self.notes_key] = []

    def settle(self, values: Mapping[str, Any], looking: Sequence[str] = ()) -> None:
        """Remember ``values`` as shown. Once the student changes one of them (other than the
        ``looking`` ones, which only choose what is looked at), the link's notes are old news.
        An optional value the page itself fills in (None before: a model's own prompt, the
        model to generate with) is no change of the student's."""
        ss = st.session_state
        last = ss.get(self.values_key, {})
        changed = [
            name
            for name in values
            if name not in looking
            and values[name] != last.get(name)
            and not (last.get(name) is None and self.by_name[name].optional)
        ]
        if not ss.get(self.fresh_key) and changed:
            self.clear_notes()
        ss[self.fresh_key] = False
        ss[self.values_key] = dict(values)

    def remember(self, values: Mapping[str, Any]) -> None:
        """Remember ``values`` as shown, leaving the notes alone (a second read in one run)."""
        st.session_state[self.values_key] = dict(values)

    def keep_part(self, name: str) -> None:
        """After a part of the page reran alone (``st.fragment``) for its own control ``name``:
        its value remembered as shown and put in the link, whose other parameters stay as the
        last full run wrote them. In a full run the page has remembered it already: nothing."""
        value, last = self.get(name), self.last_values()
        if last.get(name) == value:
            return
        self.remember({**last, name: value})
        param = self.by_name[name]
        if param.in_url and st.query_params.get(name) != param.to_url(value):
            st.query_params[name] = param.to_url(value)

    def show_notes(self, lang: str, **fields: Any) -> None:
        """Each note, literally, in the student's language: ``note.<reason>`` for the common
        reasons, the page's own ``<prefix>note_<reason>`` (prefix without its underscore,
        such as ``ex.note_model_missing``) for its own; ``fields`` fill page-specific slots."""
        for note in self.notes():
            st.warning(self.note_text(note, lang, **fields), icon=ICONS.get(note.reason, ":material/link_off:"))

    def note_text(self, note: Note, lang: str, **fields: Any) -> str:
        own = f"{self.prefix.rstrip('_')}.note_{note.reason}"
        key = own if has_text(own) else f"note.{note.reason}"
        return t(
            key,
            lang,
            name=literal(note.name),
            value=shown_value(note.value, self.note_chars),
            allowed=literal(note.allowed),
            default=literal(note.default) or "—",
            current=note.default,
            **fields,
        )

    # -- the URL -----------------------------------------------------------------------------
    def write_url(
        self, values: Mapping[str, Any], lang: str | None = None, omit: tuple[str, ...] = (), **override: str
    ) -> dict[str, str]:
        """Put every parameter in the link into the URL (``override``: a value as the link
        should carry it, such as the text cut to the tokens shown; ``omit``: parameters that
        do not decide what the page shows now), with the shell's own. A text longer than a
        link carries (``LINK_TEXT_CHARS``) is left out, with a note that says so."""
        query = {name: value for name, value in to_query(self.params, values).items() if name not in omit}
        query.update(override)
        language = lang or st.session_state.get(LANGUAGE_STATE, DEFAULT_LANGUAGE)
        for name in too_long_for_a_link(query):  # a link the proxy would refuse: the download shares it
            st.info(
                t(
                    "note.too_long_for_link",
                    language,
                    name=literal(name),
                    chars=f"{len(query[name]):,}",
                    limit=f"{LINK_TEXT_CHARS:,}",
                ),
                icon=":material/link_off:",
            )
            del query[name]
        query.update(carried_params(language))
        if st.query_params.to_dict() != query:
            st.query_params.from_dict(query)
        return query

    # -- number boxes --------------------------------------------------------------------------
    def _clamp(self, name: str, then: Callable[[], None] | None = None) -> None:
        """A number typed out of range becomes the nearest allowed one, remembered so its box
        says so. (The box has no min or max: a browser keeps an out-of-range number in the
        box without sending it, and the page would go on silently with the previous value.)
        ``then``: the page's own callback, called only when the box looks as before (not
        clamped now, nor before), so that it may rerun a part without the box."""
        ss = st.session_state
        typed = ss[self.key(name)]
        used = self.by_name[name].clamp(typed)
        clamped = ss.setdefault(self.clamped_key, {})
        was_clamped = clamped.pop(name, None) is not None
        if typed != used:
            ss[self.key(name)] = used
            clamped[name] = used
        elif then is not None and not was_clamped:  # the box looks as it did: only ``then``'s part reruns
            then()

    def number_input(
        self,
        column: Any,
        name: str,
        label: str,
        lang: str,
        help_text: str | None = None,
        step: int | float = 1,
        then: Callable[[], None] | None = None,
    ) -> None:
        """A number box that takes any number; one out of range is clamped with a visible note.
        ``then``: called after a change that leaves the box looking as before (``_clamp``)."""
        param = self.by_name[name]
        value = column.number_input(
            label, step=step, key=self.key(name), help=help_text, on_change=self._clamp, args=(name, then)
        )
        clamped = st.session_state.get(self.clamped_key, {})
        if name in clamped and clamped[name] != value:
            del clamped[name]  # changed since: the note is old news
        if name in clamped:
            column.warning(
                t(
                    "note.box_clamped",
                    lang,
                    name=label,
                    low=param.to_url(param.low),
                    high=param.to_url(param.high),
                    used=param.to_url(value),
                ),
                icon=":material/straighten:",
            )
