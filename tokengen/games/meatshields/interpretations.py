"""The rule questions the Meatshields variant leaves open, and the answers ``check`` and ``target``
accept (``--one-sided``, ``--ties``, ``--same-target``). Plain data, no imports: the command line
builds its options from it without loading the rules engine (:mod:`tokengen.games.meatshields.rules.targeting`
uses it)."""

from __future__ import annotations

#: Each interpretation's options, default first, each with its meaning in words.
INTERPRETATIONS: dict[str, dict[str, str]] = {
    "one_sided": {
        "split": "a ↓X or ↑X token stands in for that side of a monster that targets both lowest and highest X; "
                 "the other side still attacks an Adventurer",
        "exact": "a monster that targets both lowest and highest X only goes for a ↓↑X token",
    },
    "ties": {
        "choose": "Adventurers tied on the targeted score: the monster attacks one of them and the players choose which",
        "all": "Adventurers tied on the targeted score are all attacked",
    },
    "same_target": {
        "once": "an Adventurer who is both lowest and highest for a both-sides monster is attacked once",
        "twice": "an Adventurer who is both lowest and highest for a both-sides monster is attacked twice",
    },
    # the variant announces two ways of handling Meatshield damage; its text lists neither
    "damage": {
        "dies": "a Meatshield that is hit dies at once and its token goes back to the bag",
        "wounds": "each hit on a Meatshield is a wound it keeps; the hit that brings its wounds to WOUNDS kills it and its token goes back to the bag",
    },
    # the variant is silent on a draw larger than what is left in the bag
    "small_bag": {
        "error": "a draw larger than the bag cannot be made: a set whose bag is smaller than its largest draw is not playable",
        "take-rest": "a draw larger than the bag takes every token left in it",
    },
}
