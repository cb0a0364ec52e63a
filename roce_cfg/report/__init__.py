"""Hand-over documents (Markdown, cabling CSV) and the HTML report, from one gathered dataset."""
