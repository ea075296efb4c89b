"""Pure geometry in pt, no drawing: imposition, shapes, fold-over, furniture, text fit, alignment layout."""
