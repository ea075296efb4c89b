"""The figures' geometry as plain values (tokengen.geometry.figures, textfit.fit_turned): corners
of regular polygons and stars, sector outlines, turned points and matrices, gradient axes and the
places of text set along a circle, all in pt with y up and angles clockwise from 12 o'clock."""

from __future__ import annotations

import math

import pytest

from tokengen.geometry import figures as geo
from tokengen.geometry.textfit import Metrics, SafeArea, fit_turned, turned_box


def test_on_circle_runs_clockwise_from_twelve():
    assert geo.on_circle(0, 0, 10, 0) == pytest.approx((0, 10))
    assert geo.on_circle(0, 0, 10, 90) == pytest.approx((10, 0))
    assert geo.on_circle(0, 0, 10, 180) == pytest.approx((0, -10))
    assert geo.on_circle(5, 5, 10, 270) == pytest.approx((-5, 5))


def test_turned_and_its_matrix_agree_and_turn_clockwise():
    assert geo.turned((10, 0), (0, 0), 90) == pytest.approx((0, -10))  # 3 o'clock → 6 o'clock
    a, b, c, d, e, f = geo.turn_matrix((3, 4), 37)
    for p in [(0, 0), (10, 2), (-4, 7)]:
        assert (a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f) == pytest.approx(geo.turned(p, (3, 4), 37))


def test_regular_polygon_corners():
    corners = geo.regular(6, 50, 50, 20)
    assert len(corners) == 6 and corners[0] == pytest.approx((50, 70))
    assert all(math.dist(p, (50, 50)) == pytest.approx(20) for p in corners)
    assert corners[1] == pytest.approx(geo.on_circle(50, 50, 20, 60))  # the next corner clockwise


def test_star_alternates_points_and_notches():
    corners = geo.star(5, 0, 0, 10, 0.4)
    assert len(corners) == 10
    assert [round(math.dist(p, (0, 0)), 9) for p in corners] == [10.0, 4.0] * 5
    assert corners[1] == pytest.approx(geo.on_circle(0, 0, 4, 36))


def test_sector_outline_from_the_centre_along_the_arc():
    path = geo.sector(0, 0, 10, 30, 120)
    assert path[0] == ("M", 0, 0) and path[-1] == ("Z",)
    assert path[1][1:] == pytest.approx(geo.on_circle(0, 0, 10, 30))
    assert path[-2][-2:] == pytest.approx(geo.on_circle(0, 0, 10, 120))
    assert [c[0] for c in path].count("C") == 1  # 90° in one curve
    # every curve point lies on the circle within Bézier error (midpoint of the curve)
    _, x1, y1, x2, y2, x3, y3 = path[2]
    x0, y0 = path[1][1:]
    mid = ((x0 + 3 * x1 + 3 * x2 + x3) / 8, (y0 + 3 * y1 + 3 * y2 + y3) / 8)
    assert math.dist(mid, (0, 0)) == pytest.approx(10, rel=3e-4)
    assert mid == pytest.approx(geo.on_circle(0, 0, 10, 75), abs=3e-3)


def test_sector_across_twelve_and_ring_segment():
    assert geo.span(300, 60) == pytest.approx(120)
    assert geo.span(0, 360) == 360 and geo.span(90, 90 + 720) == 360
    ring = geo.sector(0, 0, 10, 300, 60, inner=5)
    ends = [c for c in ring if c[0] in ("M", "L")]
    assert ends[0][1:] == pytest.approx(geo.on_circle(0, 0, 10, 300))
    assert ends[1][1:] == pytest.approx(geo.on_circle(0, 0, 5, 60))
    assert ring[-2][-2:] == pytest.approx(geo.on_circle(0, 0, 5, 300))  # back along the inner circle


def test_whole_ring_is_two_pieces_winding_opposite_ways():
    ring = geo.sector(0, 0, 10, 0, 360, inner=4)
    assert [c[0] for c in ring].count("M") == 2
    inner = ring[ring.index(("Z",)) + 1:]
    assert inner[1][-2:] == pytest.approx(geo.on_circle(0, 0, 4, -90))  # first quarter runs anticlockwise


def test_ellipse_fills_its_box():
    pts = geo.path_points(geo.ellipse(10, 20, 40, 10))
    x, y, w, h = geo.bounds(pts)
    assert (x, y, w, h) == pytest.approx((10, 20, 40, 10), abs=1e-9)


@pytest.mark.parametrize(("angle", "start", "end"), [
    (90, (0, 5), (20, 5)),     # left to right across a 20 × 10 box
    (180, (10, 10), (10, 0)),  # top to bottom
    (0, (10, 0), (10, 10)),    # bottom up
])
def test_gradient_axis(angle, start, end):
    a, b = geo.gradient_axis((0, 0, 20, 10), angle)
    assert a == pytest.approx(start, abs=1e-9) and b == pytest.approx(end, abs=1e-9)


def test_gradient_axis_at_45_reaches_the_corners():
    (x0, y0), (x1, y1) = geo.gradient_axis((0, 0, 10, 10), 45)
    d = (x1 - x0, y1 - y0)
    along = lambda p: ((p[0] - x0) * d[0] + (p[1] - y0) * d[1]) / (d[0] ** 2 + d[1] ** 2)  # noqa: E731
    assert along((0, 0)) == pytest.approx(0) and along((10, 10)) == pytest.approx(1)


def test_arc_text_centres_each_character_on_the_circle_clockwise():
    chars = [("A", 6.0), ("B", 6.0), ("C", 6.0)]
    glyphs = geo.arc_text(chars, 0, 0, 50, 0, None, "centre")
    middles = []
    for g, (_, w) in zip(glyphs, chars, strict=True):
        a = math.radians(g.turn)
        middles.append((g.x + math.cos(a) * w / 2, g.y - math.sin(a) * w / 2))
    assert all(math.dist(m, (0, 0)) == pytest.approx(50) for m in middles)
    assert middles[1] == pytest.approx((0, 50))  # the middle letter at 12 o'clock
    assert glyphs[0].turn == pytest.approx(360 - math.degrees(6 / 50)) and glyphs[2].turn == pytest.approx(math.degrees(6 / 50))


def test_arc_text_between_start_and_end_and_anticlockwise():
    glyphs = geo.arc_text([("x", 10.0)], 0, 0, 100, 90, 180, "left")
    assert glyphs[0].turn == pytest.approx(90 + math.degrees(5 / 100))
    under = geo.arc_text([("x", 10.0)], 0, 0, 100, 180, None, "centre", clockwise=False)
    assert under[0].turn == pytest.approx(0)  # upright at the bottom, reading left to right
    assert (under[0].x, under[0].y) == pytest.approx((-5, -100))
    assert geo.arc_radius(100, 8, "inside", True) == 92 and geo.arc_radius(100, 8, "outside", False) == 108
    with pytest.raises(ValueError, match="radius"):
        geo.arc_text([("x", 1.0)], 0, 0, 0, 0, None, "centre")


def test_fit_turned_shrinks_about_the_anchor_until_the_turned_box_is_inside():
    area = SafeArea(((0, 0), (100, 0), (100, 100), (0, 100)))
    m = Metrics(5.0, 0.8, -0.2)  # 5 em wide
    upright = fit_turned(area, m, 50, 50, "centre", 0, 30)
    assert upright.size == pytest.approx(20, rel=1e-6)  # 100 pt across / 5 em
    diagonal = fit_turned(area, m, 50, 50, "centre", 45, 30)
    assert diagonal.fits and 20 < diagonal.size < 30  # the diagonal is longer
    corners = turned_box(m, 50, 50, "centre", diagonal.size, 45)
    assert all(area.contains(p) for p in corners)
    assert not all(area.contains(p) for p in turned_box(m, 50, 50, "centre", diagonal.size * 1.01, 45))
    outside = fit_turned(area, m, 150, 50, "centre", 30, 30)
    assert not outside.fits and outside.size == 4.0
