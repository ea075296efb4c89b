"""Exact draw odds: the chance that ``n`` tokens drawn from a bag meet a condition on how many
of each kind they hold, as a :class:`~fractions.Fraction`, by exact combinatorics.

The bag is given as classes: ``sizes[i]`` tokens of class ``i`` (a class is every token that
meets the same set of wants; a last class holds the rest). Every way the draw can split over
the classes is weighed exactly and never sampled:

- without replacement, the multivariate hypergeometric law: ``P(x) = Π C(K_i, x_i) / C(N, n)``
  (one want and the rest: the plain hypergeometric law);
- with replacement, the multinomial law: ``P(x) = n! / Π x_i! · Π (K_i / N)^x_i``.

Source: W. Feller, *An Introduction to Probability Theory and Its Applications*, vol. 1, 3rd
ed. (1968), II.6 (hypergeometric) and VI.9 (multinomial).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from math import comb, factorial, prod

#: The most splits of a draw over the classes one question may weigh (``C(n + m - 1, m - 1)``
#: for ``n`` drawn over ``m`` classes): a bound on work, counted, not timed.
MAX_SPLITS = 1_000_000


def splits(n: int, sizes: Sequence[int], replacement: bool) -> Iterator[tuple[int, ...]]:
    """Every way to draw ``n`` tokens over classes of ``sizes`` tokens: tuples ``x`` with
    ``sum(x) == n`` and, without replacement, ``x[i] <= sizes[i]`` (with replacement a class
    of at least one token may give any number)."""
    def rest(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(sizes) - 1:
            if left <= (sizes[i] if not replacement else (left if sizes[i] else 0)):
                yield (left,)
            return
        top = left if replacement else min(left, sizes[i])
        if replacement and not sizes[i]:
            top = 0
        for x in range(top + 1):
            for tail in rest(i + 1, left - x):
                yield (x, *tail)

    if sizes:
        yield from rest(0, n)


def split_count(n: int, classes: int) -> int:
    """How many splits of ``n`` over ``classes`` there are at most: ``C(n + classes - 1, classes - 1)``."""
    return comb(n + classes - 1, classes - 1)


def chance(n: int, sizes: Sequence[int], wanted: Callable[[tuple[int, ...]], bool], replacement: bool = False) -> Fraction:
    """The exact chance that a draw of ``n`` tokens from a bag of classes ``sizes`` splits as
    ``wanted`` says (``wanted(x)`` is True for a split ``x`` that meets the question).

    Raises:
        ValueError: ``n`` below 1, an empty bag, a draw larger than the bag without replacement
            (``"the bag holds N tokens, fewer than the 5 drawn"``), or more than
            :data:`MAX_SPLITS` splits to weigh.
    """
    total = sum(sizes)
    if n < 1:
        raise ValueError(f"a draw takes at least 1 token, not {n}")
    if total == 0:
        raise ValueError("the bag is empty")
    if not replacement and n > total:
        raise ValueError(f"the bag holds {total} token{'s' if total != 1 else ''}, fewer than the {n} drawn")
    if split_count(n, len(sizes)) > MAX_SPLITS:
        raise ValueError(f"{n} drawn over {len(sizes)} kinds of token is more than {MAX_SPLITS:,} cases to weigh exactly")
    hits = 0
    for x in splits(n, sizes, replacement):
        if wanted(x):
            if replacement:
                hits += factorial(n) // prod(factorial(k) for k in x) * prod(k ** c for k, c in zip(sizes, x, strict=True))
            else:
                hits += prod(comb(k, c) for k, c in zip(sizes, x, strict=True))
    return Fraction(hits, total ** n if replacement else comb(total, n))


def percent(p: Fraction) -> str:
    """``p`` as a percentage for people: one decimal (``21.7%``), more figures below 0.1 %
    (``0.042%``), and exactly ``0%`` and ``100%`` only when it is so."""
    if p == 0 or p == 1:
        return f"{int(p * 100)}%"
    value = float(p * 100)
    text = f"{value:.1f}" if value >= 0.1 else f"{value:.2g}"
    if text in ("0.0", "100.0"):
        text = f"{value:.4g}"
    return f"{text}%"
