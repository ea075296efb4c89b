"""The Meatshields view of a token: its attribute and targeting priority.

A generic :class:`~tokengen.model.Token` carries no game's fields. The Meatshields catalogue
loader (:func:`tokengen.sources.catalogue.meatshield_values`, below the games, where it checks
the codes against the catalogue's lists with file and line) writes each token's ``attribute`` and
``priority`` codes into its ``values``; :class:`MeatshieldToken` reads them back as the game's
:class:`~tokengen.model.Attribute` and :class:`~tokengen.model.Priority`, which the rules engine
(:mod:`.rules`) works with.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import UsageError
from ...model import Attribute, Game, Priority, Token


@dataclass(frozen=True)
class MeatshieldToken:
    """A Meatshields token design: ``token`` itself, the ``attribute`` it stands for and its
    targeting ``priority`` (both from ``game.attributes`` and ``game.priorities``)."""

    token: Token
    attribute: Attribute
    priority: Priority

    @property
    def id(self) -> str:
        """The token's id (``str-low``)."""
        return self.token.id

    @property
    def copies(self) -> int:
        """How many of it the bag holds."""
        return self.token.copies

    @classmethod
    def of(cls, token: Token, game: Game) -> MeatshieldToken:
        """The Meatshields reading of ``token`` in a catalogue whose game data is ``game``.

        Raises:
            UsageError: the token has no ``attribute`` or ``priority`` value, or one ``game``
                does not list (a token of another game's catalogue).
        """
        code, prio = token.value("attribute"), token.value("priority")
        attribute = next((a for a in game.attributes if a.code == code), None)
        priority = next((p for p in game.priorities if p.code == prio), None)
        if attribute is None or priority is None:
            raise UsageError(f"token '{token.id}' (line {token.line}) is not a Meatshields token: "
                             "it needs an attribute and a priority from game.attributes and game.priorities")
        return cls(token, attribute, priority)
