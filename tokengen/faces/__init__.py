"""The face language drawn with ReportLab: face templates, art, sheets, page set-up."""
