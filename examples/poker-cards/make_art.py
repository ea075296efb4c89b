"""Draw this example's art with Pillow (run: python make_art.py): one picture per card, 640 × 480
px (300 DPI over the 53 × 40 mm art window), and the card back, an SVG of 828 × 1122 px (its
proportions: the 63 × 88 mm card plus 1/8 in bleed on every side). Flat shapes in few colours keep the PNGs small.
"""

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).parent / "art"


def scene(name: str, sky: str, ground: str, sun: str, shapes: list[tuple[str, list[tuple[int, int]]]]) -> None:
    im = Image.new("RGB", (640, 480), sky)
    draw = ImageDraw.Draw(im)
    draw.ellipse((440, 50, 560, 170), fill=sun)
    draw.rectangle((0, 340, 640, 480), fill=ground)
    for colour, points in shapes:
        draw.polygon(points, fill=colour)
    im.quantize(colors=16).save(HERE / f"{name}.png", optimize=True)


def back() -> None:
    """The card back as an SVG (a vector: sharp at any trim a shop's preset asks for)."""
    w, h, step = 828, 1122, 69
    shapes = []
    for y in range(-step, h + step, step):
        for x in range(-step, w + step, step):
            cx = x + (step // 2 if (y // step) % 2 else 0)
            shapes.append(f'<path d="M{cx} {y - 24}L{cx + 24} {y}L{cx} {y + 24}L{cx - 24} {y}Z"/>')
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
           f'<rect width="{w}" height="{h}" fill="#1d2b44"/>', '<g fill="#2c4068">', *shapes, "</g>",
           f'<rect x="170" y="330" width="{w - 340}" height="{h - 660}" rx="60" fill="#c9a227"/>',
           f'<rect x="190" y="350" width="{w - 380}" height="{h - 700}" rx="50" fill="#1d2b44"/>', "</svg>"]
    (HERE / "back.svg").write_text("\n".join(svg) + "\n", "utf-8")


def main() -> None:
    HERE.mkdir(exist_ok=True)
    scene("knight", "#9cc3e6", "#5d8a46", "#f3d36b", [("#6b6b7a", [(250, 340), (320, 140), (390, 340)]), ("#a33b3b", [(300, 200), (340, 200), (320, 120)])])
    scene("dragon", "#e6a07c", "#6b4a3a", "#fff2b0", [("#3f6e3a", [(120, 340), (300, 180), (520, 340)]), ("#2d5029", [(280, 200), (380, 120), (360, 230)])])
    scene("wizard", "#3a3f6e", "#2a2a3a", "#e8e8ff", [("#6f4ea8", [(260, 340), (320, 110), (380, 340)]), ("#f3d36b", [(310, 160), (330, 160), (320, 130)])])
    scene("treasure", "#5f4a2e", "#3d2e1c", "#f3d36b", [("#c9a227", [(200, 340), (220, 260), (420, 260), (440, 340)]), ("#8a6a1e", [(220, 260), (320, 200), (420, 260)])])
    back()


if __name__ == "__main__":
    main()
