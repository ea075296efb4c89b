def draw_rules(canvas, catalogue, page, scale=None):
    raise NotImplementedError
