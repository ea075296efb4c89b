"""Pure geometry in pt, no drawing: the pager, imposition, shapes, the settled token size (sizing), fold-over, furniture, text fit, alignment layout."""
