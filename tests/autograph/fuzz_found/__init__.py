"""Programs differential fuzzers found, kept verbatim as fixtures (one
module each, named after its issue); tests/autograph/test_fuzz_found.py
runs them four ways."""
