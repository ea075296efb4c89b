"""Draw this example's art with Pillow (run: python make_art.py): one picture per card, 640 × 480
px (300 DPI over the 53 × 40 mm art window), and the card back, 828 × 1122 px (300 DPI over the
63 × 88 mm card plus 1/8 in bleed on every side). Flat shapes in few colours keep the PNGs small.
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
    w, h = 828, 1122
    im = Image.new("RGB", (w, h), "#1d2b44")
    draw = ImageDraw.Draw(im)
    step = 69
    for y in range(-step, h + step, step):
        for x in range(-step, w + step, step):
            offset = step // 2 if (y // step) % 2 else 0
            cx, cy = x + offset, y
            draw.polygon([(cx, cy - 24), (cx + 24, cy), (cx, cy + 24), (cx - 24, cy)], fill="#2c4068")
    draw.rounded_rectangle((170, 330, w - 170, h - 330), radius=60, fill="#c9a227")
    draw.rounded_rectangle((190, 350, w - 190, h - 350), radius=50, fill="#1d2b44")
    im.quantize(colors=8).save(HERE / "back.png", optimize=True)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    scene("knight", "#9cc3e6", "#5d8a46", "#f3d36b", [("#6b6b7a", [(250, 340), (320, 140), (390, 340)]), ("#a33b3b", [(300, 200), (340, 200), (320, 120)])])
    scene("dragon", "#e6a07c", "#6b4a3a", "#fff2b0", [("#3f6e3a", [(120, 340), (300, 180), (520, 340)]), ("#2d5029", [(280, 200), (380, 120), (360, 230)])])
    scene("wizard", "#3a3f6e", "#2a2a3a", "#e8e8ff", [("#6f4ea8", [(260, 340), (320, 110), (380, 340)]), ("#f3d36b", [(310, 160), (330, 160), (320, 130)])])
    scene("treasure", "#5f4a2e", "#3d2e1c", "#f3d36b", [("#c9a227", [(200, 340), (220, 260), (420, 260), (440, 340)]), ("#8a6a1e", [(220, 260), (320, 200), (420, 260)])])
    back()


if __name__ == "__main__":
    main()
