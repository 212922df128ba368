"""Local mode's hands: the buttons and menus of the last messages, numbered (`controls`,
`press N`, `choose N OPTION`), and a form the bot opens, filled one field a line."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the stand-in is imported only when local mode runs
    from discord_standin import InteractionHandle, Message, StandIn, User

KEPT_MESSAGES = 5
"""How many of the last messages with controls `controls` lists."""
BUTTON, MENU, TEXT_INPUT = 2, 3, 4
ID_MENUS = {5: "user", 6: "role", 7: "user or role", 8: "channel"}
"""Menus whose options are members, roles or channels: chosen by id or `<@id>`."""
LINK_STYLE = 5
EMPTY, KEEP = "-", "="
"""What a form line says to leave a field empty, or to keep the text it holds."""
_MENTION = re.compile(r"^<[@#][!&]?(\d+)>$|^(\d+)$")


@dataclass(frozen=True, slots=True)
class Control:
    """A button or menu of a message, by the number `controls` shows."""

    number: int
    message: Message
    item: dict[str, Any]

    @property
    def custom_id(self) -> str:
        """What the bot knows the control by."""
        return str(self.item.get("custom_id", ""))

    def text(self) -> str:
        """What the control says: its emoji and label (`🔎 More like this`), or placeholder."""
        emoji = (self.item.get("emoji") or {}).get("name")
        said = " ".join(str(x) for x in (emoji, self.item.get("label")) if x)
        return said or str(self.item.get("placeholder") or "")

    def label(self) -> str:
        """`[👍]`, `[Open a paper… ▾] 1. Title, 2. Title`, as the control shows."""
        if self.item.get("type") == BUTTON:
            text = self.text() or "button"
            link = f" ↗ {self.item.get('url')} (open it in a browser)" if self.is_link else ""
            return f"[{text}]{link}"
        head = f"[{self.item.get('placeholder') or 'choose'} ▾]"
        kind = ID_MENUS.get(int(self.item.get("type") or 0))
        if kind is not None:
            return f"{head} (a {kind}: choose {self.number} <@id>)"
        options = self.item.get("options") or []
        return head + " " + "; ".join(f"{n}. {o.get('label')}"
                                      for n, o in enumerate(options, start=1))

    @property
    def is_link(self) -> bool:
        """A link button: Discord opens its URL, the bot never hears of it."""
        return self.item.get("style") == LINK_STYLE

    @property
    def disabled(self) -> bool:
        """Greyed out: Discord does not let it be used."""
        return bool(self.item.get("disabled"))

    def values(self, typed: str) -> list[str]:
        """The menu's values for `typed`: option numbers, labels or values, comma-separated
        (members, roles and channels by id or mention)."""
        wanted = [part.strip() for part in typed.split(",") if part.strip()]
        if not wanted:
            raise ValueError(f"choose {self.number} what? such as: choose {self.number} 1")
        if int(self.item.get("type") or 0) in ID_MENUS:
            ids = [_MENTION.match(part) for part in wanted]
            if not all(ids):
                raise ValueError("choose members, roles or channels by id or as <@id>")
            return [m.group(1) or m.group(2) for m in ids if m is not None]
        return [_option(self.item.get("options") or [], part) for part in wanted]


def _option(options: Sequence[dict[str, Any]], typed: str) -> str:
    """The value of the option numbered, labelled or valued `typed`."""
    if typed.isdigit() and 1 <= int(typed) <= len(options):
        return str(options[int(typed) - 1]["value"])
    for option in options:
        if typed.casefold() in (str(option.get("label")).casefold(),
                                str(option.get("value")).casefold()):
            return str(option["value"])
    labels = "; ".join(f"{n}. {o.get('label')}" for n, o in enumerate(options, start=1))
    raise LookupError(f"no option {typed!r} (options: {labels})")


def controls(messages: Sequence[Message]) -> list[Control]:
    """Every button and menu of `messages` (oldest first), numbered from 1."""
    found: list[Control] = []
    for message in messages:
        for item in message.walk_components():
            kind = int(item.get("type") or 0)
            if kind in {BUTTON, MENU, *ID_MENUS}:
                found.append(Control(len(found) + 1, message, item))
    return found


def heading(message: Message) -> str:
    """A short name for a message: its first title, else its first line."""
    titles = [str(e.get("title") or "") for e in message.embeds if e.get("title")]
    first = (titles or message.content.splitlines() or ["a message"])[0]
    return f'"{first[:70]}"'


def listing(found: Sequence[Control]) -> str:
    """The numbered controls under a line naming each message."""
    if not found:
        return "No buttons or menus on the last messages."
    lines, current = ["press N clicks a button, choose N OPTION picks in a menu:"], None
    for control in found:
        if control.message.id != current:
            current = control.message.id
            lines.append(f"  on {heading(control.message)}:")
        state = " (disabled)" if control.disabled else ""
        lines.append(f"    {control.number}. {control.label()}{state}")
    return "\n".join(lines)


@dataclass
class FormFill:
    """A form (Discord's modal) the bot opened, filled one field a line."""

    opened_by: InteractionHandle
    modal: dict[str, Any]
    fields: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for row in self.modal.get("components") or []:
            inner = [row["component"]] if row.get("type") == 18 else row.get("components") or []
            for item in inner:
                if item.get("type") == TEXT_INPUT:
                    self.fields.append({**item, "label": row.get("label") or item.get("label")})

    @property
    def current(self) -> dict[str, Any] | None:
        """The field the next line fills (None once every field is filled)."""
        return self.fields[len(self.answers)] if len(self.answers) < len(self.fields) else None

    def prompt(self) -> str:
        """What the next line fills, and how to leave it empty or keep its text."""
        item = self.current
        if item is None:
            return ""
        number = len(self.answers) + 1
        need = "required" if item.get("required", True) else f"optional, {EMPTY} leaves it empty"
        limit = f", up to {item['max_length']} characters" if item.get("max_length") else ""
        now = str(item.get("value") or "")
        keep = f"\n    now: {now}  ({KEEP} keeps it)" if now else ""
        head = f"form: {self.modal.get('title', '')} — " if number == 1 else ""
        return (f"{head}field {number} of {len(self.fields)}: {item.get('label')} "
                f"({need}{limit}){keep}\n    type the text (cancel closes the form)")

    def fill(self, line: str) -> None:
        """Take `line` as the current field's text (`-` empty, `=` its present text)."""
        item = self.current
        assert item is not None, "the form is filled"
        text = str(item.get("value") or "") if line == KEEP else "" if line == EMPTY else line
        if not text and item.get("required", True):
            raise ValueError(f"{item.get('label')} is required; type its text, or cancel")
        if item.get("max_length") and len(text) > int(item["max_length"]):
            raise ValueError(f"{item.get('label')} takes up to {item['max_length']} characters "
                             f"(this is {len(text)})")
        self.answers[str(item["custom_id"])] = text


class ControlVerbs:
    """`press`, `choose` and a form's lines, for the local session (which sets the state
    below, answers an interaction and waits for what it set off)."""

    standin: StandIn
    you: User
    locale: str
    recent: list[int]
    form: FormFill | None
    write: Callable[[str], None]

    async def _answer(self, handle: InteractionHandle) -> None:
        raise NotImplementedError

    async def _settle(self) -> None:
        raise NotImplementedError

    def _controls(self) -> list[Control]:
        """The buttons and menus of the last messages, as they are now."""
        messages = [self.standin.message(i) for i in self.recent]
        return controls([m for m in messages if not m.deleted])

    async def _use(self, verb: str, rest: str) -> None:
        """`press N` (a button) or `choose N OPTION[,OPTION]` (a menu) of `controls`."""
        number, _, typed = rest.strip().partition(" ")
        found = {c.number: c for c in self._controls()}
        labelled = [c.number for c in found.values() if c.text().casefold() == number.casefold()]
        if not number.isdigit() and labelled:
            number = str(labelled[-1])  # `press 👍`: the newest control so labelled
        if not number.isdigit() or int(number) not in found:
            raise LookupError(f"{verb} one of the numbers controls lists"
                              + (f" (1-{len(found)})" if found else ": there are none"))
        control = found[int(number)]
        is_button = control.item.get("type") == 2
        if control.is_link:
            raise ValueError(f"{number} is a link: open {control.item.get('url')} in a browser")
        if control.disabled:
            raise ValueError(f"{number} is disabled (greyed out in Discord)")
        if is_button != (verb == "press"):
            raise ValueError(f"{number} is a {'button: press' if is_button else 'menu: choose'}"
                             f" {number}" + ("" if is_button else " OPTION"))
        message = self.standin.message(control.message.id)
        if is_button:
            handle = await self.standin.click(message, control.custom_id, user=self.you,
                                              locale=self.locale)
        else:
            handle = await self.standin.select(message, control.custom_id,
                                               control.values(typed), user=self.you)
        await self._answer(handle)
        await self._settle()

    async def _fill(self, line: str) -> None:
        """One field of the open form; the last one submits it."""
        assert self.form is not None
        if line.casefold() == "cancel":
            self.form = None
            self.write("The form is closed, nothing sent.")
            return
        self.form.fill(line)
        if self.form.current is not None:
            self.write(self.form.prompt())
            return
        form, self.form = self.form, None
        await self._answer(await self.standin.submit_modal(form.opened_by, form.answers))
        await self._settle()
