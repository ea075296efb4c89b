"""Input sources beyond the YAML catalogue itself: the any-game catalogue with declared fields
(:mod:`.fields`) and the spreadsheets that may hold its tokens (:mod:`.table`)."""
