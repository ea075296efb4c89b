"""Draw this example's two inline icons with Pillow (run: python make_icons.py): a sword and a
shield, 96 × 96 px each (about 300 DPI at the 8 pt they print at), flat shapes in few colours.
"""

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).parent / "icons"


def sword() -> None:
    im = Image.new("RGB", (96, 96), "#ffffff")
    draw = ImageDraw.Draw(im)
    draw.polygon([(44, 6), (52, 6), (52, 62), (44, 62)], fill="#8a8f98")  # blade
    draw.polygon([(48, 0), (52, 6), (44, 6)], fill="#8a8f98")  # point
    draw.rectangle((28, 62, 68, 70), fill="#7a5a1e")  # cross-guard
    draw.rectangle((44, 70, 52, 88), fill="#4a3512")  # grip
    draw.ellipse((42, 86, 54, 96), fill="#7a5a1e")  # pommel
    im.quantize(colors=8).save(HERE / "sword.png", optimize=True)


def shield() -> None:
    im = Image.new("RGB", (96, 96), "#ffffff")
    draw = ImageDraw.Draw(im)
    draw.polygon([(8, 8), (88, 8), (88, 44), (48, 92), (8, 44)], fill="#3f6ea8")
    draw.polygon([(40, 8), (56, 8), (56, 80), (48, 92), (40, 80)], fill="#c9a227")
    im.quantize(colors=8).save(HERE / "shield.png", optimize=True)


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    sword()
    shield()
