"""Programs on plain Python values, grouped by construct; python_corpus.py
collects them (see registry.py for how one is registered)."""
