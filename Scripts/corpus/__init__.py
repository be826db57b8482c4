"""The generated development corpus (Scripts/make-corpus.py)."""
